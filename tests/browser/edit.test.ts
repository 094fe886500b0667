import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { api } from '../support/api'
import { createUpload, fetchUpload, goto, registerUser, signedInContext } from './helpers'

describe('editing an upload', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('saves description and tags, shows them and the history, and keeps what was typed on a 412', async () => {
    const owner = await registerUser()
    const id = await createUpload(owner, { link: 'https://example.com/edit-me', description: 'Frist words', tags: 'wrong-tag, kept' })
    const context = await signedInContext(browser, owner)
    const page = await context.newPage()
    await goto(page, `/upload/${id}`)

    await page.click('[data-testid=edit-upload]')
    await page.fill('#edit-description', 'First words')
    await page.click('[data-testid=edit-form] button[aria-label="Remove tag wrong-tag"]')
    await page.fill('#edit-tags', 'right-tag')
    await page.fill('#edit-reason', 'typo')
    await page.click('[data-testid=edit-form] button[type=submit]')
    await page.waitForFunction(() => document.querySelector('[data-testid=upload-description]')?.textContent?.includes('First words'))
    await expect(page.locator('[data-testid=edit-form]').count()).resolves.toBe(0)
    await expect(page.innerText('[data-testid=upload-edited]')).resolves.toMatch(/^edited /)
    const detail = await page.innerText('[data-testid=upload-detail]')
    expect(detail).toContain('right-tag')
    expect(detail).not.toContain('wrong-tag')
    expect((await fetchUpload(id)).body).toMatchObject({ description: 'First words', revision: 2 })

    await page.click('[data-testid=history-toggle]')
    await page.waitForSelector('[data-testid=history-list] li')
    const history = await page.innerText('[data-testid=history-list]')
    expect(history).toMatch(/Revision 2[\s\S]*“typo”[\s\S]*Frist words → First words[\s\S]*Tags added: right-tag[\s\S]*Tags removed: wrong-tag[\s\S]*Revision 1/)

    // Someone else's change lands while the form is open: the save is refused, the text stays.
    const started = page.waitForResponse(response => response.url().endsWith(`/api/upload/${id}`) && response.request().method() === 'GET')
    await page.click('[data-testid=edit-upload]')
    await started
    expect((await api(`/api/upload/${id}`, { method: 'PATCH', token: owner.token, body: { description: 'Changed elsewhere' } })).status).toBe(200)
    await page.fill('#edit-description', 'My newer words')
    await page.click('[data-testid=edit-form] button[type=submit]')
    await page.waitForSelector('[data-testid=edit-load-latest]')
    await expect(page.innerText('[data-testid=edit-status]')).resolves.toContain('This upload changed since you started editing')
    await expect(page.inputValue('#edit-description')).resolves.toBe('My newer words')
    await page.click('[data-testid=edit-load-latest]')
    await page.waitForFunction(() => document.querySelector('[data-testid=upload-description]')?.textContent?.includes('Changed elsewhere'))
    await expect(page.inputValue('#edit-description')).resolves.toBe('My newer words')
    await page.click('[data-testid=edit-form] button[type=submit]')
    await page.waitForFunction(() => document.querySelector('[data-testid=upload-description]')?.textContent?.includes('My newer words'))
    expect((await fetchUpload(id)).body.revision).toBe(4)
    await context.close()
  })
})
