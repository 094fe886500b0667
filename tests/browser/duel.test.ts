import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { sql } from '../../server/database/sql'
import { api, type TestUser } from '../support/api'
import { launchBrowser, newContext } from '../support/browser'
import { uploadForm } from '../support/images'
import { serverDatabase } from '../support/seed'
import { startServer } from '../support/server'
import { sharedServer } from '../support/shared-server'
import { createUpload, duelJudged, duelResultPassed, goto, noisePng, registerUser, signedInContext } from './helpers'

/** A leaderboard row's selector. */
const row = (id: string) => `[data-testid=duel-leaderboard] [data-upload-id="${id}"]`

/** A new picture of `owner` on the leaderboard without judging it: five wins at `strength`. */
async function rankedPicture(owner: TestUser, strength: number, options: { description: string, tags?: string }) {
  const id = await createUpload(owner, { image: await noisePng(320, 320), ...options })
  await serverDatabase().db.run(sql`UPDATE duel_standings SET strength = ${strength}, wins = 5 WHERE upload_id = ${id}`)
  return id
}

describe('This or That', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
    const owner = await registerUser()
    for (const n of [1, 2, 3, 4]) await createUpload(owner, { image: await noisePng(320, 320), description: `Duel picture ${n}` })
  })
  afterAll(() => browser?.close())

  it('chooses with ← and →, skips with S, shows the change, and links the leaderboard', async () => {
    const context = await signedInContext(browser, await registerUser())
    const page = await context.newPage()
    await goto(page, '/duel')
    await page.locator('[data-testid=duel-pair]').waitFor()
    const left = await page.locator('[data-testid=duel-left]').getAttribute('data-upload-id')
    const [answer] = await Promise.all([duelJudged(page), page.keyboard.press('ArrowLeft')])
    expect(answer.status()).toBe(200)
    expect((await answer.json()).left).toMatchObject({ id: left, wins: expect.any(Number) })
    await expect(page.locator('[data-testid=duel-change]').first().textContent()).resolves.toMatch(/^[+−]\d+\.\d$/)
    await expect(page.locator('[data-testid=duel-status]').textContent()).resolves.toMatch(/You chose the left picture/)
    // The next pair comes by itself (the judged one stays, busy, until it is in), without the last pair's result; S skips it.
    await page.locator('[data-testid=duel-change]').first().waitFor({ state: 'detached' })
    await page.locator('[data-testid=duel-pair][aria-busy=false]').waitFor()
    await expect(page.locator('[data-testid=duel-status]').textContent()).resolves.toBe('')
    const [skipped] = await Promise.all([duelJudged(page), page.keyboard.press('s')])
    expect(skipped.status()).toBe(200)
    expect(skipped.request().postDataJSON()).toMatchObject({ winner: 'skip' })
    // The answer reaches the test before the page has taken it in: until the status says so, the skipped pair is still there, not busy yet.
    await page.locator('[data-testid=duel-status]', { hasText: 'Skipped the previous pair.' }).waitFor()
    await page.locator('[data-testid=duel-pair][aria-busy=false], [data-testid=duel-done]').first().waitFor()
    // A choice from a focused button: the focus goes to the same button of the next pair (or the end, when none is left).
    if (await page.locator('[data-testid=duel-pair]').count()) {
      await page.focus('[data-testid=duel-right]')
      const [chosen] = await Promise.all([duelJudged(page), page.keyboard.press('Enter')])
      expect(chosen.status()).toBe(200)
      await duelResultPassed(page)
      await page.locator('[data-testid=duel-pair][aria-busy=false], [data-testid=duel-done]').first().waitFor()
      const expected = await page.locator('[data-testid=duel-done]').count() ? 'duel-done' : 'duel-right'
      await page.waitForFunction(testid => document.activeElement?.getAttribute('data-testid') === testid, expected)
      await expect(page.locator('[data-testid=duel-status]').textContent()).resolves.toBe('')
    }
    await page.click('[data-testid=duel-leaderboard-link]')
    await page.waitForURL('**/duel/leaderboard')
    await page.locator('h1', { hasText: 'This or That leaderboard' }).waitFor()
    await page.locator('[data-testid=duel-leaderboard], [data-testid=duel-leaderboard-empty]').first().waitFor()
    await context.close()
  })

  it('says there is no pair to compare, not that all were compared, on a site of one picture', async () => {
    const server = await startServer()
    try {
      const viewer = await registerUser({}, server.url)
      const only = await api('/api/upload', { method: 'POST', token: viewer.token, baseURL: server.url, body: uploadForm(
        { upload_type: 'image', description: 'The only picture' }, { data: await noisePng(320, 320), name: 'x.png', type: 'image/png' }) })
      expect(only.status).toBe(201)
      const context = await signedInContext(browser, viewer, { baseURL: server.url })
      const page = await context.newPage()
      await goto(page, '/duel')
      await expect(page.locator('[data-testid=duel-done] h2').textContent()).resolves.toBe('No pair to compare')
      // Nothing to choose, so no keys to press.
      await expect(page.locator('[data-testid=duel-key-hints]').count()).resolves.toBe(0)
      await context.close()
    }
    finally {
      await server.stop()
    }
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
      // The key hints are for a keyboard: not on a touch screen.
      await expect(page.locator('[data-testid=duel-key-hints]').isVisible()).resolves.toBe(!mobile)
      await expect(page.locator('[data-testid=duel-skip] kbd').isVisible()).resolves.toBe(!mobile)
      await context.close()
    }
  })

  it('blurs an explicit picture on the leaderboard, and leaves it out where the viewer hides it', async () => {
    const owner = await registerUser()
    // Stronger than any other picture of the shared server.
    const safe = await rankedPicture(owner, 9001, { description: 'Leaderboard safe' })
    const explicit = await rankedPicture(owner, 9000, { description: 'Leaderboard explicit' })
    expect((await api(`/api/upload/${explicit}`, { method: 'PATCH', token: owner.token, body: { rating: 'explicit' } })).status).toBe(200)

    // A visitor (explicit blurred by default): blurred under a Show button, in second place.
    const visitor = await newContext(browser, sharedServer().baseURL)
    const page = await visitor.newPage()
    await goto(page, '/duel/leaderboard')
    await expect(page.locator(`${row(explicit)} .place`).textContent()).resolves.toBe('2')
    await expect(page.locator(`${row(explicit)} .thumb img`).evaluate(img => getComputedStyle(img).filter)).resolves.toBe('blur(12px)')
    await expect(page.locator(`${row(safe)} .thumb img`).evaluate(img => getComputedStyle(img).filter)).resolves.toBe('none')
    // Its numbers named, its uploader linked.
    await expect(page.locator(`${row(safe)} [data-testid=duel-leaderboard-strength]`).textContent()).resolves.toBe('Strength 9001')
    await expect(page.locator(`${row(safe)} [data-testid=duel-leaderboard-uploader]`).getAttribute('href')).resolves.toBe(`/user/${owner.username}`)
    await page.click(`${row(explicit)} [data-testid=rating-show]`)
    await page.waitForSelector(`${row(explicit)} .thumb:not(.rating-blurred)`)
    // A visitor who hides explicit pictures in this browser: left out, the places kept.
    await page.evaluate(() => localStorage.setItem('dif:rating-preferences', JSON.stringify({ explicit: 'hide', suggestive: 'show' })))
    await goto(page, '/duel/leaderboard')
    await page.waitForSelector(row(explicit), { state: 'detached' })
    await expect(page.locator(`${row(safe)} .place`).textContent()).resolves.toBe('1')

    // Paged with ?page=: page 2 of a board this short is empty, and leads back.
    await goto(page, '/duel/leaderboard?page=2')
    await page.locator('[data-testid=duel-leaderboard-empty]', { hasText: 'There is no picture on this page.' }).waitFor()
    await expect(page.locator('nav[aria-label=Pages] a[rel=prev]').getAttribute('href')).resolves.toBe('/duel/leaderboard')
    await visitor.close()

    // An account that hides explicit pictures: not in its answer, so not on its page.
    const viewer = await registerUser()
    expect((await api('/api/profile/preferences', { method: 'PUT', token: viewer.token, body: { explicit: 'hide' } })).status).toBe(200)
    const signedIn = await signedInContext(browser, viewer)
    const own = await signedIn.newPage()
    const html = await (await goto(own, '/duel/leaderboard'))!.text()
    expect(html).toContain(safe)
    expect(html).not.toContain(explicit)
    await expect(own.locator(row(safe)).count()).resolves.toBe(1)
    await expect(own.locator(row(explicit)).count()).resolves.toBe(0)
    await signedIn.close()
  })

  it('narrows the leaderboard to one tag, kept by the period links, and back to every tag', async () => {
    const owner = await registerUser()
    // Below the other test's pictures, so neither test moves the other's places.
    const red = await rankedPicture(owner, 8500, { description: 'Board red', tags: 'board red' })
    const blue = await rankedPicture(owner, 8400, { description: 'Board blue', tags: 'board blue' })
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()

    // A tag's page links its board.
    await goto(page, '/tags/board-red')
    await page.click('[data-testid=tag-duel-leaderboard]')
    await page.waitForURL(url => url.pathname === '/duel/leaderboard' && url.search === '?tag=board-red')
    await page.waitForSelector(row(red))
    await expect(page.locator(row(blue)).count()).resolves.toBe(0)

    // Without JavaScript the form is a GET of the same page: the server renders the tag's board.
    const html = await (await goto(page, '/duel/leaderboard?tag=Board+Red'))!.text()
    expect(html).toContain(red)
    expect(html).not.toContain(blue)
    await expect(page.innerText('[data-testid=duel-leaderboard-tag]')).resolves.toBe('Pictures tagged #Board Red')
    await expect(page.title()).resolves.toBe('This or That leaderboard: #Board Red · Does It Fuck?')
    await expect(page.locator(`${row(red)} .place`).textContent()).resolves.toBe('1')
    await expect(page.locator('nav[aria-label=Period] a', { hasText: 'Week' }).getAttribute('href')).resolves.toBe('/duel/leaderboard?period=week&tag=Board+Red')

    // Typed in the box: the other tag's board, the period kept.
    await goto(page, '/duel/leaderboard?period=week')
    await page.fill('#leaderboard-tag', 'board blue')
    await page.press('#leaderboard-tag', 'Enter')
    await page.waitForURL(url => url.pathname === '/duel/leaderboard' && url.search === '?period=week&tag=board+blue')
    // The week's whole board showed both until the tag's answer came.
    await page.waitForSelector(row(red), { state: 'detached' })
    await expect(page.locator(row(blue)).count()).resolves.toBe(1)
    await expect(page.locator(row(red)).count()).resolves.toBe(0)

    // A tag no picture carries says so; "Every tag" leads back to the whole board.
    await page.fill('#leaderboard-tag', 'no such board tag')
    await page.press('#leaderboard-tag', 'Enter')
    await page.locator('[data-testid=duel-leaderboard-empty]', { hasText: 'No picture tagged #no such board tag has been judged five times yet.' }).waitFor()
    await page.click('[data-testid=duel-leaderboard-every-tag]')
    await page.waitForURL(url => url.pathname === '/duel/leaderboard' && url.search === '?period=week')
    await page.waitForSelector(row(red))
    await expect(page.locator(row(blue)).count()).resolves.toBe(1)
    await expect(page.inputValue('#leaderboard-tag')).resolves.toBe('')
    await context.close()
  })

  it('has the favourites heart on each picture of the leaderboard, as the cards do', async () => {
    const owner = await registerUser()
    const picture = await rankedPicture(owner, 8300, { description: 'Board heart', tags: 'board heart' })
    const context = await signedInContext(browser, await registerUser())
    const page = await context.newPage()
    await goto(page, '/duel/leaderboard?tag=board+heart')
    const heart = `${row(picture)} [data-testid=favourite]`
    await expect(page.getAttribute(heart, 'aria-pressed')).resolves.toBe('false')
    await expect(page.textContent(`${heart} [data-testid=favourite-count]`)).resolves.toBe('0')
    const saved = page.waitForResponse(response => response.url().endsWith(`/api/upload/${picture}/favourite`) && response.request().method() === 'PUT')
    await page.click(heart)
    expect((await saved).status()).toBe(200)
    await page.waitForSelector(`${heart}[aria-pressed=true]:not([aria-busy])`)
    await expect(page.textContent(`${heart} [data-testid=favourite-count]`)).resolves.toBe('1')
    // The server's answer says so too, on the next visit.
    await goto(page, '/duel/leaderboard?tag=board+heart')
    await expect(page.getAttribute(heart, 'aria-pressed')).resolves.toBe('true')
    await context.close()
  })
})
