import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newContext } from '../support/browser'
import { fetchUpload, seedLink, goto, registerUser, watchErrors } from './helpers'

describe('anonymous voting', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('counts one vote and answers a second try politely', async () => {
    const owner = await registerUser()
    const id = await seedLink(owner, { description: 'Anonymous vote target' })
    const context = await newContext(browser, inject('baseURL'))
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
})
