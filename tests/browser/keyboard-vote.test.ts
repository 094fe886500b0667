import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { api } from '../support/api'
import { createUpload, fetchUpload, goto, picturePng, registerUser, seedLink, signedInContext } from './helpers'

describe('keyboard voting', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('votes with F and D, with the focused button visibly outlined', async () => {
    const owner = await registerUser()
    const voter = await registerUser()
    const id = await seedLink(owner, { url: 'https://example.com/keyboard' })
    const context = await signedInContext(browser, voter)
    const page = await context.newPage()
    await goto(page, `/upload/${id}`)

    await page.keyboard.press('f')
    await page.waitForSelector('#vote-fucks[aria-pressed="true"]')
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('vote-fucks')
    expect((await api(`/api/vote?uploadId=${id}`, { token: voter.token })).body).toEqual({ vote: 'fucks' })

    await page.keyboard.press('d')
    await page.waitForSelector('#vote-does-not-fuck[aria-pressed="true"]')
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('vote-does-not-fuck')
    expect((await api(`/api/vote?uploadId=${id}`, { token: voter.token })).body).toEqual({ vote: 'does_not_fuck' })
    await page.waitForFunction(() => document.querySelector('[data-testid=downvotes]')?.textContent?.includes('1 against'))
    expect((await fetchUpload(id)).body.stats).toMatchObject({ upvotes: 0, downvotes: 1 })

    // Focus is visible: a keyboard-focused vote button has an outline.
    await page.keyboard.press('Shift+Tab')
    const outline = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement
      return { id: element.id, style: getComputedStyle(element).outlineStyle, visible: element.matches(':focus-visible') }
    })
    expect(outline).toEqual({ id: 'vote-fucks', style: 'solid', visible: true })
    await context.close()
  })

  it('vote mode fits the whole card, buttons included, in the window: a tall picture, a link and a video, desktop and phone', async () => {
    const owner = await registerUser()
    // The three newest uploads: a portrait picture (the tallest case), a link and a video.
    const cards = [
      await createUpload(owner, { image: await picturePng(200, 600, 1200), description: 'A tall picture for vote mode' }),
      await seedLink(owner, { url: 'https://example.com/fit-the-window', description: 'A link for vote mode' }),
      await seedLink(owner, { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', description: 'A video for vote mode' }),
    ]
    for (const mobile of [false, true]) {
      const voter = await registerUser()
      const context = await signedInContext(browser, voter, { mobile })
      const page = await context.newPage()
      if (!mobile) await page.setViewportSize({ width: 1366, height: 900 })
      const viewport = page.viewportSize()!
      await goto(page, '/vote')
      const seen: string[] = []
      for (let i = 0; i < cards.length; i++) {
        const card = page.locator('[data-testid=vote-mode-upload]')
        await page.waitForFunction((seen) => {
          const id = document.querySelector('[data-testid=vote-mode-upload]')?.getAttribute('data-upload-id')
          return id && !seen.includes(id)
        }, seen)
        seen.push((await card.getAttribute('data-upload-id'))!)
        await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('[data-testid=vote-mode-upload] img')].every(image => image.complete))
        for (const button of ['vote-mode-fucks', 'vote-mode-does-not-fuck', 'vote-mode-skip']) {
          const box = (await page.locator(`[data-testid=${button}]`).boundingBox())!
          const where = `${button} of ${seen.at(-1)} at ${viewport.width}×${viewport.height}: ${JSON.stringify(box)}`
          expect(box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height, where).toBe(true)
        }
        // The picture or tile keeps a useful size.
        expect((await card.locator('.media').boundingBox())!.height).toBeGreaterThan(mobile ? 200 : 400)
        await page.click('[data-testid=vote-mode-skip]')
      }
      expect(seen.sort()).toEqual([...cards].sort())
      expect(await page.evaluate(() => window.scrollY)).toBe(0)
      await context.close()
    }
  })
})
