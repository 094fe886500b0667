import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { api } from '../support/api'
import { makeAdmin } from '../support/seed'
import { createUpload, fetchUpload, goto, hydrated, registerUser, signedInContext } from './helpers'

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

    // The form's code is not part of the page's first load; a pointer over Edit fetches it.
    const scripts: string[] = []
    page.on('request', request => request.resourceType() === 'script' && scripts.push(request.url()))
    await page.hover('[data-testid=edit-upload]')
    await expect.poll(() => scripts.length).toBeGreaterThan(0)
    await page.click('[data-testid=edit-upload]')
    // The keyboard goes on in the form, and back to Edit when it closes.
    await page.waitForFunction(() => document.activeElement?.id === 'edit-description')
    // An empty description is refused beside its field, the keyboard back on it; typing clears the error.
    await page.fill('#edit-description', '')
    await page.click('[data-testid=edit-form] button[type=submit]')
    await expect(page.innerText('#edit-description-error')).resolves.toBe('Description is required')
    await expect(page.getAttribute('#edit-description', 'aria-invalid')).resolves.toBe('true')
    await page.waitForFunction(() => document.activeElement?.id === 'edit-description')
    await page.fill('#edit-description', 'First words')
    await expect(page.locator('#edit-description-error').count()).resolves.toBe(0)
    await page.click('[data-testid=edit-form] button[aria-label="Remove tag wrong-tag"]')
    await page.fill('#edit-tags', 'right-tag')
    await page.fill('#edit-reason', 'typo')
    await page.click('[data-testid=edit-form] button[type=submit]')
    await page.waitForFunction(() => document.querySelector('[data-testid=upload-description]')?.textContent?.includes('First words'))
    await expect(page.locator('[data-testid=edit-form]').count()).resolves.toBe(0)
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'edit-upload')
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

    // A vote while the form is open changes the counts, not the upload: the save goes through.
    const voter = await registerUser()
    const reopened = page.waitForResponse(response => response.url().endsWith(`/api/upload/${id}`) && response.request().method() === 'GET')
    await page.click('[data-testid=edit-upload]')
    await reopened
    expect((await api('/api/vote', { method: 'POST', token: voter.token, body: { uploadId: id, vote: 'fucks' } })).status).toBe(200)
    await page.check('[data-testid=edit-form] [data-testid=rating-suggestive]')
    await page.click('[data-testid=edit-form] button[type=submit]')
    await page.waitForSelector('[data-testid=edit-form]', { state: 'detached' })
    expect((await fetchUpload(id)).body).toMatchObject({ rating: 'suggestive', revision: 5, upvotes: 1 })
    // The history says what that revision changed, and when to the minute.
    await page.waitForFunction(() => document.querySelector('[data-testid=history-list] li')?.textContent?.includes('Revision 5'))
    await expect(page.innerText('[data-testid=history-rating]')).resolves.toBe('Rating: safe → suggestive')
    await expect(page.innerText('[data-testid=history-list] li time')).resolves.toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4},? \d{2}:\d{2} UTC$/)

    // Edited elsewhere after this page was read: the form opens on the newer version, nothing typed yet.
    expect((await api(`/api/upload/${id}`, { method: 'PATCH', token: owner.token, body: { description: 'Newer elsewhere' } })).status).toBe(200)
    const read = page.waitForResponse(response => response.url().endsWith(`/api/upload/${id}`) && response.request().method() === 'GET')
    await page.click('[data-testid=edit-upload]')
    await read
    await expect.poll(() => page.inputValue('#edit-description')).toBe('Newer elsewhere')
    await page.click('[data-testid=edit-form] button:has-text("Cancel")')

    // The version could not be read as the form opened, and the upload moved on under what was typed:
    // the save reads it then and is refused as stale, never sent without its ETag.
    // The page's own read after the form took the newer version must not be the one refused: only the form's is.
    await page.waitForLoadState('networkidle')
    await page.route(`**/api/upload/${id}`, route => (route.request().method() === 'GET' ? route.abort() : route.continue()), { times: 1 })
    const refusedRead = page.waitForEvent('requestfailed', request => request.url().endsWith(`/api/upload/${id}`))
    await page.click('[data-testid=edit-upload]')
    await page.waitForSelector('[data-testid=edit-form]')
    await refusedRead
    expect((await api(`/api/upload/${id}`, { method: 'PATCH', token: owner.token, body: { description: 'Newest elsewhere' } })).status).toBe(200)
    await page.fill('#edit-description', 'Typed on the old one')
    await page.click('[data-testid=edit-form] button[type=submit]')
    await page.waitForSelector('[data-testid=edit-load-latest]')
    await expect(page.inputValue('#edit-description')).resolves.toBe('Typed on the old one')
    expect((await fetchUpload(id)).body.description).toBe('Newest elsewhere')
    await context.close()
  })

  it('keeps an unsaved edit across a reload, on the revision it was typed on, until saved or cancelled', async () => {
    const owner = await registerUser()
    const id = await createUpload(owner, { link: 'https://example.com/kept-edit', description: 'Before', tags: 'kept' })
    const context = await signedInContext(browser, owner)
    const page = await context.newPage()
    const form = page.locator('[data-testid=edit-form]')
    const reload = async () => {
      await page.reload()
      await hydrated(page)
    }
    await goto(page, `/upload/${id}`)
    await page.click('[data-testid=edit-upload]')
    await page.fill('#edit-description', 'Half-written words')
    await page.fill('#edit-reason', 'kept too')
    await reload()
    await expect.poll(() => form.count()).toBe(1)
    await expect.poll(() => page.inputValue('#edit-description')).toBe('Half-written words')
    await expect(page.inputValue('#edit-reason')).resolves.toBe('kept too')
    await expect(page.innerText('[data-testid=edit-status]')).resolves.toBe('Your unsaved changes are back.')

    // Edited elsewhere meanwhile: the kept text is on revision 1, so its save is refused as stale, then applied.
    expect((await api(`/api/upload/${id}`, { method: 'PATCH', token: owner.token, body: { description: 'Changed elsewhere' } })).status).toBe(200)
    await reload()
    await expect.poll(() => page.inputValue('#edit-description')).toBe('Half-written words')
    await page.click('[data-testid=edit-form] button[type=submit]')
    await page.waitForSelector('[data-testid=edit-load-latest]')
    expect((await fetchUpload(id)).body.description).toBe('Changed elsewhere')
    await page.click('[data-testid=edit-load-latest]')
    await page.click('[data-testid=edit-form] button[type=submit]')
    await form.waitFor({ state: 'detached' })
    expect((await fetchUpload(id)).body).toMatchObject({ description: 'Half-written words', revision: 3 })
    // Saved: nothing comes back. Cancelled: nothing either.
    await reload()
    await expect(form.count()).resolves.toBe(0)
    await page.click('[data-testid=edit-upload]')
    await page.fill('#edit-description', 'Thrown away')
    await page.click('[data-testid=edit-form] button:has-text("Cancel")')
    await reload()
    await expect(form.count()).resolves.toBe(0)

    // A save carried out whose answer was lost, sent again: the 412 it meets is its own revision, so it is saved.
    let patches = 0
    await page.route(`**/api/upload/${id}`, async (route) => {
      if (route.request().method() !== 'PATCH' || patches++ > 0) return route.fallback()
      await route.fetch()
      await route.abort('connectionreset')
    })
    await page.click('[data-testid=edit-upload]')
    await page.fill('#edit-description', 'Saved, answer lost')
    await page.click('[data-testid=edit-form] button[type=submit]')
    await expect(page.locator('[data-testid=edit-error]').innerText()).resolves.toBe('Could not reach the server. Check your connection.')
    await page.click('[data-testid=edit-form] button[type=submit]')
    await form.waitFor({ state: 'detached' })
    await expect(page.innerText('[data-testid=upload-description]')).resolves.toBe('Saved, answer lost')
    expect((await fetchUpload(id)).body).toMatchObject({ description: 'Saved, answer lost', revision: 4 })

    // Lost again, and the page reloaded rather than saved again: the form says the change was saved.
    patches = 0
    await page.click('[data-testid=edit-upload]')
    await page.fill('#edit-description', 'Saved, then reloaded')
    await page.click('[data-testid=edit-form] button[type=submit]')
    await expect(page.locator('[data-testid=edit-error]').innerText()).resolves.toBe('Could not reach the server. Check your connection.')
    await reload()
    await expect.poll(() => page.innerText('[data-testid=edit-status]').catch(() => '')).toBe('Your changes were saved before the page was left.')
    await expect(page.inputValue('#edit-description')).resolves.toBe('Saved, then reloaded')
    expect((await fetchUpload(id)).body).toMatchObject({ description: 'Saved, then reloaded', revision: 5 })
    await reload()
    await expect(form.count()).resolves.toBe(0)
    await context.close()
  })

  it('forgets the edit and comment kept for an upload once it is deleted here, or found removed', async () => {
    const owner = await registerUser()
    const context = await signedInContext(browser, owner)
    const page = await context.newPage()
    const keptKeys = () => page.evaluate(() => Object.keys(localStorage).filter(key => /^(upload-edit-draft|comment-drafts):/.test(key)).sort())
    const keepDrafts = async (id: string) => {
      await goto(page, `/upload/${id}`)
      await page.click('[data-testid=edit-upload]')
      await page.fill('#edit-description', 'Never saved')
      await page.locator('[data-testid=comments] [data-testid=comment-body]').fill('Never sent')
      await expect.poll(keptKeys).toEqual([`comment-drafts:${id}`, `upload-edit-draft:${id}`])
    }

    const deleted = await createUpload(owner, { link: 'https://example.com/deleted-with-drafts', description: 'Deleted here', tags: 'kept' })
    await keepDrafts(deleted)
    await page.click('button:has-text("Delete upload")')
    await page.click('[data-testid=confirm-delete]')
    await page.waitForURL(`**/user/${owner.username}`)
    expect(await keptKeys()).toEqual([])

    // Removed by a moderator meanwhile: the page that finds it gone (410) forgets them.
    const gone = await createUpload(owner, { link: 'https://example.com/gone-with-drafts', description: 'Removed elsewhere', tags: 'kept' })
    await keepDrafts(gone)
    const moderator = await makeAdmin(await registerUser())
    expect((await api(`/api/upload/${gone}`, { method: 'DELETE', token: moderator.token })).status).toBe(200)
    await goto(page, `/upload/${gone}`)
    await page.waitForSelector('[data-testid=error-page]')
    await expect.poll(keptKeys).toEqual([])
    await context.close()
  })
})
