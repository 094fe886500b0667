import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { createUpload, goto, noisePng, registerUser, signedInContext } from './helpers'

/** The answer of the next POST /api/duel this page sends. */
const judged = (page: Page) => page.waitForResponse(response => response.url().endsWith('/api/duel') && response.request().method() === 'POST')

describe('This or That', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
    const owner = await registerUser()
    for (const n of [1, 2, 3]) await createUpload(owner, { image: await noisePng(320, 320), description: `Duel picture ${n}` })
  })
  afterAll(() => browser?.close())

  it('chooses with ← and →, skips with S, shows the change, and links the leaderboard', async () => {
    const context = await signedInContext(browser, await registerUser())
    const page = await context.newPage()
    await goto(page, '/duel')
    await page.locator('[data-testid=duel-pair]').waitFor()
    const left = await page.locator('[data-testid=duel-left]').getAttribute('data-upload-id')
    const [answer] = await Promise.all([judged(page), page.keyboard.press('ArrowLeft')])
    expect(answer.status()).toBe(200)
    expect((await answer.json()).left).toMatchObject({ id: left, wins: expect.any(Number) })
    await expect(page.locator('[data-testid=duel-change]').first().textContent()).resolves.toMatch(/^[+−]\d+\.\d$/)
    await expect(page.locator('[data-testid=duel-status]').textContent()).resolves.toMatch(/You chose the left picture/)
    // The next pair comes by itself (the judged one stays, busy, until it is in); S skips it.
    await page.locator('[data-testid=duel-change]').first().waitFor({ state: 'detached' })
    await page.locator('[data-testid=duel-pair][aria-busy=false]').waitFor()
    const [skipped] = await Promise.all([judged(page), page.keyboard.press('s')])
    expect(skipped.status()).toBe(200)
    expect(skipped.request().postDataJSON()).toMatchObject({ winner: 'skip' })
    await page.click('[data-testid=duel-leaderboard-link]')
    await page.waitForURL('**/duel/leaderboard')
    await page.locator('h1', { hasText: 'This or That leaderboard' }).waitFor()
    await page.locator('[data-testid=duel-leaderboard], [data-testid=duel-leaderboard-empty]').first().waitFor()
    await context.close()
  })

  it('puts the two pictures side by side, and one above the other on a phone', async () => {
    const viewer = await registerUser()
    for (const mobile of [false, true]) {
      const context = await signedInContext(browser, viewer, { mobile })
      const page = await context.newPage()
      if (!mobile) await page.setViewportSize({ width: 1200, height: 900 })
      await goto(page, '/duel')
      await page.locator('[data-testid=duel-pair]').waitFor()
      const [left, right] = [await page.locator('[data-testid=duel-left]').boundingBox(), await page.locator('[data-testid=duel-right]').boundingBox()]
      if (mobile) expect(right!.y).toBeGreaterThanOrEqual(left!.y + left!.height)
      else expect(right!.y).toBe(left!.y)
      expect(await page.locator('[data-testid=duel-left]').getAttribute('aria-label')).toMatch(/^Choose the left picture: /)
      await context.close()
    }
  })
})
