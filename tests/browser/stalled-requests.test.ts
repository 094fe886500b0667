import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { API_TIMEOUT_MS, TIMEOUT_MESSAGE } from '../../composables/useApi'
import { UPLOAD_ANSWER_MS, UPLOAD_STALL_MESSAGES, UPLOAD_STALL_MS } from '../../composables/useUploads'
import { VOTE_LABEL } from '../../composables/useVoteKeys'
import { launchBrowser } from '../support/browser'
import { sharedServer } from '../support/shared-server'
import { startTcpProxy } from '../support/tcp-proxy'
import { fetchUpload, goto, noisePng, registerUser, seedLink, signedInContext } from './helpers'

/**
 * A request that never gets its answer ends with a message and a page ready to
 * try again (docs/behaviour.md, Errors; Uploads and media). The page's clock is
 * Playwright's, moved by the test, so a minute's limit takes no minute.
 */
describe('stalled requests', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('end a vote with a message after the time limit, and the next vote goes through', async () => {
    const user = await registerUser()
    const id = await seedLink(user)
    const context = await signedInContext(browser, user)
    await context.clock.install()
    const page = await context.newPage()
    await goto(page, `/upload/${id}`)

    // The vote reaches no server: the browser holds it until the route is removed.
    await page.route('**/api/vote', () => {})
    await page.click('#vote-fucks')
    await expect(page.getAttribute('#vote-fucks', 'aria-busy')).resolves.toBe('true')
    // The page's clock also runs on its own meanwhile: the first jump leaves a few seconds of slack.
    await page.clock.fastForward(API_TIMEOUT_MS - 5000)
    await expect(page.innerText('[data-testid=vote-status]')).resolves.toBe('')
    await page.clock.fastForward(5000)
    await expect(page.innerText('[data-testid=vote-status]')).resolves.toBe(TIMEOUT_MESSAGE)
    await expect(page.getAttribute('#vote-fucks', 'aria-busy')).resolves.toBe(null)
    await expect(page.getAttribute('#vote-fucks', 'aria-pressed')).resolves.toBe('false')
    expect((await fetchUpload(id, user)).body.upvotes).toBe(0)

    await page.unroute('**/api/vote')
    await page.click('#vote-fucks')
    await expect(page.locator('[data-testid=vote-status]', { hasText: `You voted “${VOTE_LABEL.fucks}”.` }).waitFor()).resolves.toBeUndefined()
    expect((await fetchUpload(id, user)).body.upvotes).toBe(1)
    await context.close()
  })

  it('end an upload that stops moving, with a message, and the form ready again', async () => {
    const user = await registerUser()
    const server = new URL(sharedServer().baseURL)
    const proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port) })
    try {
      // Through a proxy that can hold every byte, on a clock the test moves.
      const context = await signedInContext(browser, user, { baseURL: `http://127.0.0.1:${proxy.port}` })
      await context.clock.install()
      const page = await context.newPage()
      await goto(page, '/upload/new')
      await page.setInputFiles('#file', { name: 'held.png', mimeType: 'image/png', buffer: await noisePng(64, 64) })
      await page.fill('#description', 'A held upload')

      proxy.stall()
      await page.click('button[type=submit]')
      // The proxy takes the whole body and holds it. Chromium may or may not have reported it sent
      // (for a small body it often says nothing until the answer starts): the bar shows which limit runs.
      await page.waitForTimeout(1000)
      const shown = await page.getAttribute('[data-testid=upload-progress]', 'aria-valuetext')
      expect(['0%', 'Processing…']).toContain(shown)
      const [limit, message] = shown === '0%'
        ? [UPLOAD_STALL_MS, UPLOAD_STALL_MESSAGES.stalled]
        : [UPLOAD_ANSWER_MS, UPLOAD_STALL_MESSAGES.unanswered]
      // The page's clock also runs on its own meanwhile: the first jump leaves a few seconds of slack.
      await page.clock.fastForward(limit - 5000)
      await expect(page.locator('[data-testid=upload-error]').count()).resolves.toBe(0)
      await page.clock.fastForward(5000)
      await expect(page.innerText('[data-testid=upload-error]')).resolves.toBe(message)
      // The form is back, ready to send again.
      await expect(page.locator('button[type=submit]').innerText()).resolves.toBe('Publish')
      await expect(page.locator('button[type=submit]').isEnabled()).resolves.toBe(true)
      await expect(page.locator('[data-testid=upload-progress]').count()).resolves.toBe(0)
      expect(new URL(page.url()).pathname).toBe('/upload/new')
      await context.close()
    }
    finally {
      await proxy.close()
    }
  }, 60_000)
})
