import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { api } from '../support/api'
import { makeAdmin } from '../support/seed'
import { createUpload, fetchUpload, goto, noisePng, registerUser, signedInContext } from './helpers'

async function uploadsOf(username: string) {
  return (await api(`/api/user/${username}/uploads?limit=50`)).body.uploads as { id: string }[]
}

/** Counts the POST /api/upload requests the page sends. */
function countUploads(page: Page) {
  const sent: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/upload') sent.push(request.url())
  })
  return sent
}

describe('the new-upload form', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('checks type and size in the browser before sending anything', async () => {
    const user = await registerUser()
    const context = await signedInContext(browser, user)
    const page = await context.newPage()
    const sent = countUploads(page)
    await goto(page, '/upload/new')

    await page.setInputFiles('#file', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') })
    await expect(page.innerText('.dropzone + .field-error, .field-error')).resolves.toBe('Choose a JPEG, PNG, GIF or WebP image.')
    await page.setInputFiles('#file', { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(10 * 1024 * 1024 + 1) })
    await expect(page.innerText('.field-error')).resolves.toBe('This file is 10.0 MB; the limit is 10 MB.')

    await page.fill('#description', 'x'.repeat(501))
    await expect(page.innerText('#description-count')).resolves.toBe('501/500')
    await expect(page.isDisabled('button[type=submit]')).resolves.toBe(true)
    await page.fill('#description', '')
    await page.click('button[type=submit]')
    await expect(page.innerText('#description ~ .field-error')).resolves.toBe('Description is required')
    expect(sent).toEqual([])
    expect(await uploadsOf(user.username)).toEqual([])
    await context.close()
  })

  it('shows the duplicate answer with a link to the existing upload', async () => {
    const user = await registerUser()
    const image = await noisePng()
    const existing = await createUpload(user, { image, description: 'The original' })
    const context = await signedInContext(browser, user)
    const page = await context.newPage()
    await goto(page, '/upload/new')
    await page.setInputFiles('#file', { name: 'again.png', mimeType: 'image/png', buffer: image })
    await page.fill('#description', 'The same picture again')
    await page.click('button[type=submit]')
    await page.locator('[data-testid=upload-error]').waitFor()
    await expect(page.innerText('[data-testid=upload-error]')).resolves.toContain('This image has already been uploaded')
    await expect(page.getAttribute('[data-testid=existing-upload]', 'href')).resolves.toBe(`/upload/${existing}`)
    expect((await uploadsOf(user.username)).map(u => u.id)).toEqual([existing])
    await page.click('[data-testid=existing-upload]')
    await page.waitForURL(url => url.pathname === `/upload/${existing}`)
    await expect(page.innerText('[data-testid=upload-description]')).resolves.toBe('The original')
    await context.close()
  })

  it('adds tags as the owner, and lets an admin moderate someone else\'s upload', async () => {
    const owner = await registerUser()
    const admin = await makeAdmin(await registerUser())
    const id = await createUpload(owner, { link: 'https://example.com/moderate-me', description: 'Moderate me' })

    const ownerContext = await signedInContext(browser, owner)
    const page = await ownerContext.newPage()
    await goto(page, `/upload/${id}`)
    await page.fill('#add-tags-input', 'first tag')
    await page.keyboard.press('Enter')
    await page.fill('#add-tags-input', 'Second')
    await page.click('button:has-text("Save tags")')
    await page.waitForFunction(() => document.querySelector('[data-testid=tags-status]')?.textContent?.includes('Added 2 tags.'))
    const tags = (await api(`/api/uploads/${id}/tags`)).body.tags.map((t: { name: string, slug: string }) => [t.name, t.slug])
    expect(tags).toEqual([['first tag', 'first-tag'], ['Second', 'second']])
    await page.locator('ul[aria-label=Tags] a[href="/tags/first-tag"]').waitFor()
    await ownerContext.close()

    // The admin sees moderation (no privacy switch: that is the owner's) and deletes it.
    const adminContext = await signedInContext(browser, admin)
    const adminPage = await adminContext.newPage()
    await goto(adminPage, `/upload/${id}`)
    await expect(adminPage.innerText('#manage-title')).resolves.toBe('Moderate')
    await expect(adminPage.locator('[data-testid=toggle-privacy]').count()).resolves.toBe(0)
    await adminPage.click('button:has-text("Delete upload")')
    await adminPage.click('[data-testid=confirm-delete]')
    await adminPage.waitForURL(url => url.pathname === '/')
    expect((await fetchUpload(id)).status).toBe(404)
    await adminContext.close()

    // A visitor who is neither owner nor admin sees no controls.
    const visitor = await registerUser()
    const other = await createUpload(owner, { link: 'https://example.com/not-yours' })
    const visitorContext = await signedInContext(browser, visitor)
    const visitorPage = await visitorContext.newPage()
    await goto(visitorPage, `/upload/${other}`)
    await expect(visitorPage.locator('#manage-title').count()).resolves.toBe(0)
    await visitorContext.close()
  })
})
