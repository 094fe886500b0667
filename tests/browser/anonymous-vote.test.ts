import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newContext } from '../support/browser'
import { fetchUpload, seedLink, goto, registerUser, watchErrors } from './helpers'
import { sharedServer } from '../support/shared-server'

describe('anonymous voting', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('counts one vote and answers a second try politely', async () => {
    const owner = await registerUser()
    const id = await seedLink(owner, { description: 'Anonymous vote target' })
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    const errors = watchErrors(page)

    await goto(page, `/upload/${id}`)
    await page.click('#vote-fucks')
    await page.waitForFunction(() => document.querySelector('[data-testid=vote-status]')?.textContent?.includes('Thanks'))
    await page.waitForFunction(() => document.querySelector('[data-testid=upvotes]')?.textContent?.trim() === '1 fuck')
    let reported = await fetchUpload(id)
    expect(reported.body.stats).toEqual({ voteCount: 1, upvotes: 1, downvotes: 0, averageRating: 10 })

    // The fingerprint is kept in localStorage.
    const fingerprint = await page.evaluate(() => localStorage.getItem('dif:fingerprint'))
    expect(fingerprint).toMatch(/^[0-9a-f]{16,64}$/)

    // A second try, even after a reload, is refused and explained.
    await goto(page, `/upload/${id}`)
    await page.click('#vote-does-not-fuck')
    await page.waitForFunction(() => document.querySelector('[data-testid=vote-status]')?.textContent?.includes('already voted'))
    await expect(page.innerText('[data-testid=vote-status]')).resolves.toContain('You have already voted on this upload (“Fucks”)')
    await expect(page.getAttribute('#vote-fucks', 'aria-pressed')).resolves.toBe('true')
    reported = await fetchUpload(id)
    expect(reported.body.stats).toEqual({ voteCount: 1, upvotes: 1, downvotes: 0, averageRating: 10 })

    expect(errors).toEqual([])
    await context.close()
  })

  it('gives a browser one fingerprint whether a worker reads its time zone and draws its canvas or the page does', async () => {
    const owner = await registerUser()
    await seedLink(owner, { description: 'Fingerprint target' })
    async function fingerprintOf(withWorker: boolean) {
      const context = await browser.newContext({ baseURL: sharedServer().baseURL, viewport: { width: 1280, height: 900 }, timezoneId: 'Pacific/Chatham' })
      if (!withWorker) await context.addInitScript(() => Reflect.deleteProperty(window, 'Worker'))
      // Counts the page's own canvas drawings: with a worker, the page draws none.
      await context.addInitScript(() => {
        const toDataURL = HTMLCanvasElement.prototype.toDataURL
        HTMLCanvasElement.prototype.toDataURL = function (...args: Parameters<typeof toDataURL>) {
          (window as unknown as { pageCanvases: number }).pageCanvases = ((window as unknown as { pageCanvases?: number }).pageCanvases ?? 0) + 1
          return toDataURL.apply(this, args)
        }
      })
      const page = await context.newPage()
      const errors = watchErrors(page)
      const workers: string[] = []
      page.on('worker', worker => workers.push(new URL(worker.url()).pathname))
      const sent = page.waitForRequest(request => request.url().includes('/api/vote/next'))
      await goto(page, '/vote')
      const fingerprint = new URL((await sent).url()).searchParams.get('clientFingerprint')
      const kept = await page.evaluate(() => localStorage.getItem('dif:fingerprint'))
      const pageCanvases = await page.evaluate(() => (window as unknown as { pageCanvases?: number }).pageCanvases ?? 0)
      expect(errors).toEqual([])
      await context.close()
      return { fingerprint, kept, workers, pageCanvases }
    }
    const [withWorker, without] = [await fingerprintOf(true), await fingerprintOf(false)]
    expect(withWorker.fingerprint).toMatch(/^[0-9a-f]{64}$/)
    expect(withWorker.kept).toBe(withWorker.fingerprint)
    expect(withWorker.workers).toEqual([expect.stringMatching(/^\/_nuxt\/fingerprint-worker-[\w-]+\.js$/)])
    expect(withWorker.pageCanvases).toBe(0)
    expect(without.workers).toEqual([])
    expect(without.pageCanvases).toBe(1)
    expect(without.fingerprint).toBe(withWorker.fingerprint)
  })

  it('asks for a second key press before casting, and shows the vote again after a reload', async () => {
    const owner = await registerUser()
    const id = await seedLink(owner, { description: 'Keyboard anonymous target' })
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    const errors = watchErrors(page)
    const votesSent: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/vote/anonymous')) votesSent.push(request.postData() ?? '')
    })
    const status = () => page.innerText('[data-testid=vote-status]')
    const statusIs = (text: string) => page.waitForFunction(expected =>
      document.querySelector('[data-testid=vote-status]')?.textContent?.trim() === expected, text)

    await goto(page, `/upload/${id}`)
    await page.keyboard.press('f')
    await statusIs('Press F again to vote “Fucks”: an anonymous vote cannot be changed. Esc cancels.')
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('vote-fucks')
    await expect(page.getAttribute('#vote-fucks', 'aria-pressed')).resolves.toBe('false')
    await page.keyboard.press('Escape')
    await statusIs('No vote was cast.')
    // Another key moves the question to that choice; still nothing is cast.
    await page.keyboard.press('d')
    await statusIs('Press D again to vote “Does not fuck”: an anonymous vote cannot be changed. Esc cancels.')
    await page.keyboard.press('f')
    await statusIs('Press F again to vote “Fucks”: an anonymous vote cannot be changed. Esc cancels.')
    expect(votesSent).toEqual([])
    expect((await fetchUpload(id)).body.stats).toEqual({ voteCount: 0, upvotes: 0, downvotes: 0, averageRating: null })

    await page.keyboard.press('f')
    await statusIs('Thanks! You voted “Fucks”.')
    expect(votesSent).toHaveLength(1)
    expect(JSON.parse(votesSent[0]!)).toMatchObject({ uploadId: id, vote: 'upvote' })
    expect((await fetchUpload(id)).body.stats).toEqual({ voteCount: 1, upvotes: 1, downvotes: 0, averageRating: 10 })

    // After a reload the vote is shown, read from this device, announced in the live region.
    await page.reload()
    await statusIs('You voted “Fucks”.')
    await expect(page.getAttribute('[data-testid=vote-status]', 'aria-live')).resolves.toBe('polite')
    await expect(page.getAttribute('#vote-fucks', 'aria-pressed')).resolves.toBe('true')
    await expect(page.evaluate(() => localStorage.getItem('dif:anonymous-votes'))).resolves.toBe(JSON.stringify({ [id]: 'fucks' }))
    expect(votesSent).toHaveLength(1)
    await expect(status()).resolves.toBe('You voted “Fucks”.')
    expect(errors).toEqual([])
    await context.close()
  })

  it('remembers the vote the server reports (409) when this device had forgotten it', async () => {
    const owner = await registerUser()
    const id = await seedLink(owner, { description: 'Forgotten anonymous vote' })
    const first = await newContext(browser, sharedServer().baseURL)
    const voter = await first.newPage()
    await goto(voter, `/upload/${id}`)
    await voter.click('#vote-does-not-fuck')
    await voter.waitForFunction(() => document.querySelector('[data-testid=vote-status]')?.textContent?.includes('Thanks'))
    await first.close()

    // A fresh context: no local memory, same IP (and the same fingerprint signals).
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    await goto(page, `/upload/${id}`)
    await expect(page.getAttribute('#vote-does-not-fuck', 'aria-pressed')).resolves.toBe('false')
    await page.click('#vote-fucks')
    await page.waitForFunction(() => document.querySelector('[data-testid=vote-status]')?.textContent?.includes('already voted'))
    await expect(page.getAttribute('#vote-does-not-fuck', 'aria-pressed')).resolves.toBe('true')
    await page.reload()
    await page.waitForFunction(() => document.querySelector('[data-testid=vote-status]')?.textContent?.trim() === 'You voted “Does not fuck”.')
    await expect(page.getAttribute('#vote-does-not-fuck', 'aria-pressed')).resolves.toBe('true')
    expect((await fetchUpload(id)).body.stats).toMatchObject({ voteCount: 1, upvotes: 0, downvotes: 1 })
    await context.close()
  })
})
