import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { api } from '../support/api'
import { makeAdmin } from '../support/seed'
import { createUpload, fetchUpload, goto, hydrated, noisePng, registerUser, signedInContext, tagSuggestionsSettled, watchErrors } from './helpers'

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

/** The chips of a tag input, as shown. */
function chips(page: Page, input: string) {
  return page.locator(`.tag-input:has(#${input}) ul[aria-label="Chosen tags"] li`).evaluateAll(items => items.map(item => item.textContent!.trim()))
}

/** Puts text into the focused field in one go, as a paste does (one input event, no key presses). */
async function paste(page: Page, selector: string, text: string) {
  await page.focus(selector)
  await page.keyboard.insertText(text)
}

const tagNames = async (id: string) => (await api(`/api/uploads/${id}/tags`)).body.tags.map((t: { name: string }) => t.name)

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
    // Typing the description takes its error away at once, before the next Publish.
    await page.fill('#description', 'Now with words')
    await expect(page.locator('#description ~ .field-error').count()).resolves.toBe(0)
    await expect(page.getAttribute('#description', 'aria-invalid')).resolves.not.toBe('true')
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
    await expect.poll(() => chips(page, 'add-tags-input')).toEqual(['#first tag'])
    await page.fill('#add-tags-input', 'Second')
    // The request and the status are awaited apart, so a failure says which of them never came.
    const saved = page.waitForResponse(response => response.request().method() === 'POST' && response.url().endsWith(`/api/uploads/${id}/tags`))
    await tagSuggestionsSettled(page, 'add-tags-input')
    await page.click('button:has-text("Save tags")')
    expect((await saved).status()).toBe(200)
    const status = page.locator('[data-testid=tags-status]')
    await expect.poll(async () => (await status.textContent())?.trim()).not.toBe('')
    expect((await status.textContent())?.trim()).toBe('Added 2 tags.')
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
    // Asked from the keyboard: Cancel has it while it asks, the button again after.
    await adminPage.focus('button:has-text("Delete upload")')
    await adminPage.keyboard.press('Enter')
    await adminPage.waitForFunction(() => document.activeElement?.closest('[role=group]')?.getAttribute('aria-label') === 'Confirm deletion' && document.activeElement.textContent?.trim() === 'Cancel', null, { timeout: 2000 })
    await adminPage.keyboard.press('Enter')
    await adminPage.waitForFunction(() => document.activeElement?.textContent?.trim() === 'Delete upload', null, { timeout: 2000 })
    await adminPage.click('button:has-text("Delete upload")')
    await adminPage.click('[data-testid=confirm-delete]')
    await adminPage.waitForURL(url => url.pathname === '/')
    // An admin removed it: its tombstone answers 410 Upload removed.
    expect((await fetchUpload(id)).status).toBe(410)
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

  it('adds every tag of a pasted or typed comma list, and refuses an eleventh with a message', async () => {
    const user = await registerUser()
    const context = await signedInContext(browser, user)
    const page = await context.newPage()
    const sent = countUploads(page)
    await goto(page, '/upload/new')
    await page.click('label:has(input[value=link])')
    await page.fill('#link-url', 'https://example.com/many-tags')
    await page.fill('#description', 'Many tags')

    await paste(page, '#tags', 'red, green, blue')
    await page.waitForFunction(() => document.querySelectorAll('ul[aria-label="Chosen tags"] li').length === 3)
    expect(await chips(page, 'tags')).toEqual(['#red', '#green', '#blue'])
    await page.keyboard.type('yellow, purple,')
    expect(await chips(page, 'tags')).toEqual(['#red', '#green', '#blue', '#yellow', '#purple'])
    await paste(page, '#tags', 'one, two, three, four, five, six')
    await page.waitForFunction(() => document.querySelectorAll('ul[aria-label="Chosen tags"] li').length === 10)
    expect(await chips(page, 'tags')).toEqual(['#red', '#green', '#blue', '#yellow', '#purple', '#one', '#two', '#three', '#four', '#five'])
    await expect(page.innerText('.tag-input .field-error')).resolves.toBe('At most 10 tags per upload: “six” was not added')
    await expect(page.inputValue('#tags')).resolves.toBe('six')

    // What was refused stays in the box and keeps the form from sending without it.
    await tagSuggestionsSettled(page, 'tags')
    await page.click('button[type=submit]')
    await expect(page.innerText('.tag-input .field-error')).resolves.toBe('At most 10 tags per upload: “six” was not added')
    expect(sent).toEqual([])
    await page.fill('#tags', '')
    await tagSuggestionsSettled(page, 'tags')
    await page.click('button[type=submit]')
    await page.waitForURL(url => url.pathname.startsWith('/upload/') && url.pathname !== '/upload/new')
    const id = new URL(page.url()).pathname.split('/').pop()!
    expect(await tagNames(id)).toEqual(['red', 'green', 'blue', 'yellow', 'purple', 'one', 'two', 'three', 'four', 'five'])
    expect(sent).toHaveLength(1)
    await context.close()
  })

  it('adds every tag of a comma list on an upload\'s page, up to 10 in all', async () => {
    const owner = await registerUser()
    const id = await createUpload(owner, { link: 'https://example.com/tag-list', description: 'Tag list', tags: 'first' })
    const context = await signedInContext(browser, owner)
    const page = await context.newPage()
    await goto(page, `/upload/${id}`)
    await paste(page, '#add-tags-input', 'red, green, blue')
    await page.waitForFunction(() => document.querySelectorAll('ul[aria-label="Chosen tags"] li').length === 3)
    await page.keyboard.type('yellow,')
    expect(await chips(page, 'add-tags-input')).toEqual(['#red', '#green', '#blue', '#yellow'])
    await tagSuggestionsSettled(page, 'add-tags-input')
    await page.click('button:has-text("Save tags")')
    await page.waitForFunction(() => document.querySelector('[data-testid=tags-status]')?.textContent?.includes('Added 4 tags.'))
    expect(await tagNames(id)).toEqual(['first', 'red', 'green', 'blue', 'yellow'])

    await page.locator('ul[aria-label=Tags] a[href="/tags/yellow"]').waitFor()
    await paste(page, '#add-tags-input', 'a1, a2, a3, a4, a5, a6, a7')
    await page.waitForFunction(() => document.querySelectorAll('ul[aria-label="Chosen tags"] li').length === 5)
    await expect(page.innerText('.tag-input .field-error')).resolves.toBe('At most 10 tags per upload: “a6”, “a7” were not added')
    // The box is marked wrong, and its description is the error, then its hint.
    await expect(page.getAttribute('#add-tags-input', 'aria-invalid')).resolves.toBe('true')
    await expect(page.evaluate(() => document.getElementById('add-tags-input')!.getAttribute('aria-describedby')!.split(' ')
      .map(id => document.getElementById(id)?.textContent?.trim()))).resolves.toEqual(['At most 10 tags per upload: “a6”, “a7” were not added', expect.stringContaining('more allowed')])
    await tagSuggestionsSettled(page, 'add-tags-input')
    await page.click('button:has-text("Save tags")')
    expect(await tagNames(id)).toEqual(['first', 'red', 'green', 'blue', 'yellow'])
    await page.fill('#add-tags-input', '')
    await tagSuggestionsSettled(page, 'add-tags-input')
    await page.click('button:has-text("Save tags")')
    await page.waitForFunction(() => document.querySelector('[data-testid=tags-status]')?.textContent?.includes('Added 5 tags.'))
    expect(await tagNames(id)).toEqual(['first', 'red', 'green', 'blue', 'yellow', 'a1', 'a2', 'a3', 'a4', 'a5'])
    await context.close()
  })

  it('says there is no preview for an http image address, and drops an old error when the address changes', async () => {
    const user = await registerUser()
    const context = await signedInContext(browser, user)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, '/upload/new')
    await page.click('label:has(input[value=image_url])')
    await page.fill('#image-url', 'not an address')
    await page.fill('#description', 'From an address')
    await page.click('button[type=submit]')
    await expect(page.innerText('#image-url-error')).resolves.toBe('Invalid image URL')

    await page.fill('#image-url', 'http://example.com/picture.png')
    await expect(page.locator('#image-url-error').count()).resolves.toBe(0)
    await expect(page.innerText('[data-testid=url-preview-note]')).resolves.toBe('No preview for http addresses; the server still fetches the image when you publish.')
    await expect(page.locator('img.url-preview').count()).resolves.toBe(0)

    // An https picture that does not load says so instead of a broken image.
    await page.fill('#image-url', 'https://127.0.0.1:9/picture.png')
    await page.locator('[data-testid=url-preview-note]:has-text("did not load")').waitFor()
    await expect(page.innerText('[data-testid=url-preview-note]')).resolves.toBe('No preview: this address did not load as an image here. The server tries it again when you publish.')
    await expect(page.locator('img.url-preview').count()).resolves.toBe(0)
    expect(errors).toEqual([])
    await context.close()
  })

  it('names the hide button of a tag chip, confirms hiding with Undo, and shows none on one\'s own upload', async () => {
    const owner = await registerUser()
    const viewer = await registerUser()
    const id = await createUpload(owner, { link: 'https://example.com/hide-my-tag', description: 'Hide my tag', tags: 'uf-hidden' })
    const ownerContext = await signedInContext(browser, owner)
    const own = await ownerContext.newPage()
    await goto(own, `/upload/${id}`)
    await own.locator('ul[aria-label=Tags] a[href="/tags/uf-hidden"]').waitFor()
    await expect(own.locator('[data-testid=hide-tag]').count()).resolves.toBe(0)
    await goto(own, `/user/${owner.username}`)
    await own.locator(`[data-upload-id="${id}"] a[href="/tags/uf-hidden"]`).waitFor()
    await expect(own.locator('[data-testid=hide-tag]').count()).resolves.toBe(0)
    await ownerContext.close()

    const context = await signedInContext(browser, viewer)
    const page = await context.newPage()
    await goto(page, `/upload/${id}`)
    await expect(page.getAttribute('[data-testid=hide-tag]', 'aria-label')).resolves.toBe('Hide tag #uf-hidden')
    await expect(page.getAttribute('[data-testid=hide-tag]', 'title')).resolves.toBe('Hide tag #uf-hidden from your lists')
    await page.click('[data-testid=hide-tag]')
    await page.locator('[data-testid=toast-text]').waitFor()
    await expect(page.innerText('[data-testid=toast-text]')).resolves.toBe('Uploads tagged #uf-hidden are now hidden from your lists.')
    expect((await api('/api/profile/filters', { token: viewer.token })).body.hiddenTags).toEqual(['uf-hidden'])
    await page.click('[data-testid=toast-action]')
    await page.locator('[data-testid=toast-text]:has-text("shown again")').waitFor()
    expect((await api('/api/profile/filters', { token: viewer.token })).body.hiddenTags).toEqual([])
    await context.close()
  })

  it('keeps what was typed across a reload until it is published, and starts over on request', async () => {
    const user = await registerUser()
    const context = await signedInContext(browser, user)
    const page = await context.newPage()
    const errors = watchErrors(page)
    const reload = async () => {
      await page.reload()
      await hydrated(page)
    }
    const restored = page.locator('[data-testid=upload-draft-restored]')
    const message = restored.locator('[data-testid=upload-draft-message]')
    await goto(page, '/upload/new')
    await page.click('label:has(input[value=link])')
    await page.fill('#link-url', 'https://example.com/kept')
    await page.fill('#description', 'Kept across a reload')
    await paste(page, '#tags', 'kept, drafts')
    await page.waitForFunction(() => document.querySelectorAll('ul[aria-label="Chosen tags"] li').length === 2)

    await reload()
    await expect.poll(() => page.inputValue('#description')).toBe('Kept across a reload')
    await expect(message.innerText()).resolves.toBe('Your unsent upload is back.')
    await expect(page.isChecked('input[value=link]')).resolves.toBe(true)
    await expect(page.inputValue('#link-url')).resolves.toBe('https://example.com/kept')
    expect(await chips(page, 'tags')).toEqual(['#kept', '#drafts'])

    // Start over: an empty form, and nothing comes back after a reload.
    await page.click('[data-testid=upload-draft-start-over]')
    await expect(page.inputValue('#description')).resolves.toBe('')
    await expect(page.isChecked('input[value=image]')).resolves.toBe(true)
    await reload()
    await expect(restored.count()).resolves.toBe(0)

    // An image's file is not kept: the page asks for it again; once published, the draft is gone.
    await page.fill('#description', 'Typed before a crash')
    await reload()
    await expect.poll(() => page.inputValue('#description')).toBe('Typed before a crash')
    await expect(message.innerText()).resolves.toBe('Your unsent upload is back. Choose the image again: files are not kept.')
    await page.setInputFiles('#file', { name: 'kept.png', mimeType: 'image/png', buffer: await noisePng(64, 48) })
    await page.click('button[type=submit]')
    await page.waitForURL(url => url.pathname.startsWith('/upload/') && url.pathname !== '/upload/new')
    await expect(page.evaluate(() => localStorage.getItem('upload-draft'))).resolves.toBe(null)
    await goto(page, '/upload/new')
    await expect(page.inputValue('#description')).resolves.toBe('')
    await expect(restored.count()).resolves.toBe(0)
    expect(errors).toEqual([])
    await context.close()
  })

  it('makes one upload when its answer was lost and it is sent again, even after a reload', async () => {
    const user = await registerUser()
    const context = await signedInContext(browser, user)
    const page = await context.newPage()
    const errors = watchErrors(page)
    const keys: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/upload') keys.push(request.headers()['idempotency-key']!)
    })
    // The server answers the first two sends; the connection drops before the page reads either answer.
    let lost = 0
    await page.route('**/api/upload', async (route) => {
      if (lost++ >= 2) return route.fallback()
      await route.fetch()
      await route.abort('connectionreset')
    })
    await goto(page, '/upload/new')
    await page.click('label:has(input[value=link])')
    await page.fill('#link-url', 'https://example.com/lost-answer')
    await page.fill('#description', 'Answered, but the answer was lost')
    const failure = page.locator('[data-testid=upload-error]')
    for (const sends of [1, 2]) {
      await page.click('button[type=submit]')
      await expect.poll(() => keys.length).toBe(sends)
      await expect.poll(() => failure.innerText().catch(() => '')).toBe('Could not reach the server. Check your connection.')
    }
    await page.reload()
    await hydrated(page)
    await expect.poll(() => page.inputValue('#description')).toBe('Answered, but the answer was lost')
    await page.click('button[type=submit]')
    await page.waitForURL(url => url.pathname.startsWith('/upload/') && url.pathname !== '/upload/new')
    // One key for the three sends of the same upload, and one upload, the one the page went to.
    expect(keys).toHaveLength(3)
    expect(new Set(keys)).toEqual(new Set([keys[0]]))
    expect((await uploadsOf(user.username)).map(upload => upload.id)).toEqual([new URL(page.url()).pathname.split('/').pop()])
    expect(errors).toEqual([])
    await context.close()
  })
})
