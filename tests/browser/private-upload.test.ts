import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { api } from '../support/api'
import { fetchUpload, goto, noisePng, registerUser, signedInContext } from './helpers'

describe('private uploads', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('are seen by their owner and hidden from a second user', async () => {
    const owner = await registerUser()
    const other = await registerUser()
    const ownerContext = await signedInContext(browser, owner)
    const page = await ownerContext.newPage()

    await goto(page, '/upload/new')
    await page.setInputFiles('#file', { name: 'secret.png', mimeType: 'image/png', buffer: await noisePng() })
    await page.fill('#description', 'Only for me')
    await page.check('#is-private')
    await page.click('button[type=submit]')
    await page.waitForURL(/\/upload\/[0-9a-f-]{36}$/)
    const id = new URL(page.url()).pathname.split('/').pop()!
    await expect(page.innerText('[data-testid=upload-detail]')).resolves.toContain('Private upload')
    await expect(page.innerText('[data-testid=toggle-privacy]')).resolves.toContain('Make public')

    expect((await fetchUpload(id, owner)).body.is_private).toBe(1)
    expect((await fetchUpload(id, other)).status).toBe(404)
    expect((await fetchUpload(id)).status).toBe(404)

    // The second user gets the 404 page and does not find it in the feed.
    const otherContext = await signedInContext(browser, other)
    const otherPage = await otherContext.newPage()
    const response = await goto(otherPage, `/upload/${id}`)
    expect(response?.status()).toBe(404)
    await expect(otherPage.innerText('[data-testid=error-page]')).resolves.toContain('Page not found')
    await goto(otherPage, '/')
    await expect(otherPage.locator(`[data-upload-id="${id}"]`).count()).resolves.toBe(0)
    await goto(otherPage, `/user/${owner.username}`)
    await expect(otherPage.locator(`[data-upload-id="${id}"]`).count()).resolves.toBe(0)

    // The owner makes it public; now the other user sees it.
    await page.click('[data-testid=toggle-privacy]')
    await page.waitForFunction(() => document.querySelector('[data-testid=toggle-privacy]')?.textContent?.includes('Make private'))
    expect((await fetchUpload(id, other)).status).toBe(200)
    const list = await api(`/api/user/${owner.username}/uploads`)
    expect(list.body.uploads.map((u: { id: string }) => u.id)).toContain(id)
    await ownerContext.close()
    await otherContext.close()
  })
})
