import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newContext } from '../support/browser'
import { api } from '../support/api'
import { uploadForm } from '../support/images'
import { goto, noisePng, registerUser, signedInContext, watchErrors } from './helpers'
import { sharedServer } from '../support/shared-server'
import { complaints, reportViolations } from './complaints'

/** A new account's picture of `rating` and a link, both tagged `tag`; their ids. */
async function pictureAndLink(tag: string, made: { rating: string, picture: string, link: string }) {
  const owner = await registerUser()
  const picture = await api('/api/upload', { method: 'POST', token: owner.token, body: uploadForm(
    { upload_type: 'image', description: made.picture, tags: tag, rating: made.rating },
    { data: await noisePng(), name: 'x.png', type: 'image/png' },
  ) })
  expect(picture.status).toBe(201)
  const link = await api('/api/upload', { method: 'POST', token: owner.token, body: uploadForm({ upload_type: 'link', description: made.link, tags: tag, external_url: `https://example.com/${tag}` }) })
  expect(link.status).toBe(201)
  return { picture: picture.body.upload.id as string, link: link.body.upload.id as string, owner: owner.username }
}

describe('content ratings in the UI', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('blurs an explicit card with a keyboard-reachable Show, a visitor\'s header toggle, and an account\'s hide in Settings', async () => {
    const tag = `blur-${randomUUID().slice(0, 8)}`
    const { picture: id, link: safeId } = await pictureAndLink(tag, { rating: 'explicit', picture: 'Explicit picture', link: 'Safe link' })
    const card = `[data-upload-id="${id}"]`

    // A visitor: blurred by default, a Show button the keyboard reaches reveals it.
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, `/tags/${tag}`)
    await expect(page.locator(`${card} .preview.rating-blurred`).count()).resolves.toBe(1)
    await page.focus(`${card} [data-testid=rating-show]`)
    await page.keyboard.press('Enter')
    await page.waitForSelector(`${card} .preview:not(.rating-blurred)`)
    await expect(page.locator(`${card} [data-testid=rating-show]`).count()).resolves.toBe(0)

    // The header's toggle turns blurring off, kept in this browser across a reload.
    const toggle = page.locator('[data-testid=blur-toggle]')
    await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('true')
    await toggle.click()
    await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('false')
    await goto(page, `/upload/${id}`)
    await page.waitForSelector('[data-testid=upload-detail] .rating-frame:not(.rating-blurred)')
    await toggle.click()
    await page.waitForSelector('[data-testid=upload-detail] .rating-blurred [data-testid=rating-show]')
    expect(errors).toEqual([])
    await context.close()

    // An account: Settings hides explicit uploads, and its lists leave the card out.
    const viewer = await registerUser()
    const signedIn = await signedInContext(browser, viewer)
    const settings = await signedIn.newPage()
    const signedInErrors = watchErrors(settings)
    await goto(settings, '/settings')
    await expect(settings.locator('[data-testid=blur-toggle]').count()).resolves.toBe(0)
    await settings.waitForFunction(() => (document.querySelector('[data-testid=rating-pref-explicit]') as HTMLSelectElement | null)?.value === 'blur')
    await settings.selectOption('[data-testid=rating-pref-explicit]', 'hide')
    await settings.waitForSelector('[data-testid=settings-content-ratings] [role=status]')
    expect((await api('/api/profile/preferences', { token: viewer.token })).body).toMatchObject({ explicit: 'hide', suggestive: 'show' })
    await goto(settings, `/tags/${tag}`)
    await expect(settings.locator(`[data-upload-id="${safeId}"]`).count()).resolves.toBe(1)
    await expect(settings.locator(card).count()).resolves.toBe(0)
    expect(signedInErrors).toEqual([])
    await signedIn.close()
  })

  it('hydrates the home page\'s late feed and a user page\'s grid as served, then shows a visitor\'s blurring and blind voting', async () => {
    const tag = `late-${randomUUID().slice(0, 8)}`
    const { picture: suggestiveId, link: linkId, owner } = await pictureAndLink(tag, { rating: 'suggestive', picture: 'Suggestive picture', link: 'Voted link' })
    expect((await api('/api/vote', { method: 'POST', token: (await registerUser()).token, body: { uploadId: linkId, vote: 'fucks' } })).status).toBe(200)

    // A visitor who blurs suggestive uploads and votes blind, kept in this browser: the server
    // renders the defaults. On a phone the feed is below the fold and hydrates once scrolled to,
    // after the page read the choices: it first renders what the server did (else Vue keeps the
    // served class and checkbox), then the choices.
    const context = await newContext(browser, sharedServer().baseURL, { mobile: true })
    await context.addInitScript(() => {
      localStorage.setItem('dif:rating-preferences', JSON.stringify({ explicit: 'blur', suggestive: 'blur' }))
      localStorage.setItem('dif:blind-voting', 'on')
    })
    await reportViolations(context)
    const page = await context.newPage()
    const found = complaints(page, 200)
    await goto(page, '/')
    const feed = page.locator('[aria-labelledby=feed-title]')
    await page.waitForLoadState('networkidle')
    await feed.locator(`[data-upload-id="${linkId}"]`).scrollIntoViewIfNeeded()
    // Hydrated a moment after it came into view: its switch then shows blind voting on.
    await page.waitForFunction(() => (document.querySelector('[aria-labelledby=feed-title] [data-testid=blind-toggle]') as HTMLInputElement).checked, null, { timeout: 5000 })
    await expect(feed.locator(`[data-upload-id="${suggestiveId}"] .preview.rating-blurred`).count()).resolves.toBe(1)
    await expect(feed.locator(`[data-upload-id="${linkId}"] [data-testid=blind-rating]`).count()).resolves.toBe(1)

    // A user page's grid is in view at once and hydrates apart from the page all the same.
    await goto(page, `/user/${owner}`)
    const grid = page.getByRole('list', { name: `Uploads by ${owner}` })
    await grid.locator(`[data-upload-id="${suggestiveId}"] .preview.rating-blurred`).waitFor({ timeout: 5000 })
    await expect(grid.locator(`[data-upload-id="${linkId}"] [data-testid=blind-rating]`).count()).resolves.toBe(1)
    expect(found).toEqual([])
    await context.close()
  })

  it('reads an account\'s choice as a page with only late grids opens, before any move of the visitor\'s', async () => {
    const tag = `account-${randomUUID().slice(0, 8)}`
    const { picture: suggestiveId, owner } = await pictureAndLink(tag, { rating: 'suggestive', picture: 'Suggestive picture', link: 'Safe link' })
    const viewer = await registerUser()
    expect((await api('/api/profile/preferences', { method: 'PUT', token: viewer.token, body: { explicit: 'blur', suggestive: 'blur' } })).status).toBe(200)
    const context = await signedInContext(browser, viewer)
    const page = await context.newPage()
    const errors = watchErrors(page)
    // The server renders the defaults (suggestive shown); nothing on the page moves, scrolls or is pressed.
    for (const path of [`/user/${owner}`, `/tags/${tag}`]) {
      await goto(page, path)
      const card = page.locator(`[data-upload-id="${suggestiveId}"]`)
      await card.locator('.preview.rating-blurred').waitFor({ timeout: 5000 })
      await card.locator('[data-testid=rating-show]').waitFor()
    }
    expect(errors).toEqual([])
    await context.close()
  })

  it('keeps a choice made in Settings while the saved one was still being read', async () => {
    const viewer = await registerUser()
    const signedIn = await signedInContext(browser, viewer)
    const settings = await signedIn.newPage()
    // The account's choice, read after hydration, is answered at once and arrives late.
    await settings.route('**/api/profile/preferences', async (route) => {
      if (route.request().method() !== 'GET') return route.continue()
      const response = await route.fetch()
      await new Promise(resolve => setTimeout(resolve, 1500))
      await route.fulfill({ response })
    })
    const read = settings.waitForResponse(response => response.url().endsWith('/api/profile/preferences') && response.request().method() === 'GET')
    await goto(settings, '/settings')
    await settings.selectOption('[data-testid=rating-pref-explicit]', 'show')
    await settings.waitForSelector('[data-testid=settings-content-ratings] [role=status]')
    await read
    await settings.evaluate(() => new Promise(requestAnimationFrame))
    expect(await settings.inputValue('[data-testid=rating-pref-explicit]')).toBe('show')
    expect((await api('/api/profile/preferences', { token: viewer.token })).body).toMatchObject({ explicit: 'show', suggestive: 'show' })
    await signedIn.close()
  })
})
