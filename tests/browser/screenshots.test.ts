import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newContext } from '../support/browser'
import { createUpload, goto, picturePng, registerUser, screenshot, seedLink, signedInContext } from './helpers'
import type { TestUser } from '../support/api'

/** Screenshots for a person to look at (tests/browser/__screenshots__, git-ignored). */
describe('screenshots at desktop and mobile widths', () => {
  let browser: Browser
  let user: TestUser
  beforeAll(async () => {
    browser = await launchBrowser()
    user = await registerUser()
    const links = [
      ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'A song that never gives you up', ['music', 'classic'], 42, 3],
      ['https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC', 'Same song, now on Spotify', ['music'], 12, 9],
      ['https://vimeo.com/76979871', 'A short film about a long day', ['film'], 7, 1],
      ['https://www.tiktok.com/@someone/video/7106594312292453675', 'Dance move of the week', ['dance', 'fun'], 3, 8],
      ['https://x.com/someone/status/1580661436132757506', 'Hot take about tabs and spaces', ['tech'], 20, 20],
      ['https://example.org/articles/why-sourdough', 'Why everyone bakes sourdough now', ['food'], 5, 0],
      ['https://www.instagram.com/p/CkK9pJ1Lxyz/', 'Sunset over the harbour', ['photo'], 0, 0],
    ] as const
    for (const [url, description, tags, upvotes, downvotes] of links) await seedLink(user, { url, description, tags: [...tags], upvotes, downvotes })
  })
  afterAll(() => browser?.close())

  it('home', async () => {
    for (const mobile of [false, true]) {
      const context = await newContext(browser, inject('baseURL'), { mobile })
      const page = await context.newPage()
      expect((await goto(page, '/'))?.status()).toBe(200)
      await page.waitForLoadState('networkidle')
      await screenshot(page, `home-${mobile ? 'mobile' : 'desktop'}`)
      await page.emulateMedia({ colorScheme: 'dark' })
      await screenshot(page, `home-${mobile ? 'mobile' : 'desktop'}-dark`)
      await context.close()
    }
  })

  it('settings', async () => {
    for (const mobile of [false, true]) {
      const context = await signedInContext(browser, user, { mobile })
      const page = await context.newPage()
      expect((await goto(page, '/settings'))?.status()).toBe(200)
      await page.waitForLoadState('networkidle')
      await screenshot(page, `settings-${mobile ? 'mobile' : 'desktop'}`)
      await context.close()
    }
  })

  it('upload page', async () => {
    const id = await createUpload(user, { image: await picturePng(265), description: 'Sunrise in purple, drawn by a machine', tags: 'art,colour' })
    for (const mobile of [false, true]) {
      const context = await signedInContext(browser, user, { mobile })
      const page = await context.newPage()
      expect((await goto(page, `/upload/${id}`))?.status()).toBe(200)
      await page.waitForLoadState('networkidle')
      await screenshot(page, `upload-${mobile ? 'mobile' : 'desktop'}`)
      await context.close()
    }
  })
})
