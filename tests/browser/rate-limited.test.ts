import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext } from 'playwright-core'
import { api, registerUser, type TestUser } from '../support/api'
import { launchBrowser, newContext } from '../support/browser'
import { seedUpload } from '../support/seed'
import { startServer, type RunningServer } from '../support/server'
import { hydrated } from './helpers'

/**
 * What the site shows when the browser's own API requests are rate-limited:
 * an error with a way to retry, never an empty state, and never a sign-out.
 * Own server with a small, short GENERAL allowance; the browser and this test
 * are the same client (127.0.0.1).
 */
const GENERAL_MAX = 5
const GENERAL_WINDOW_SECONDS = 8

let server: RunningServer
let browser: Browser
let owner: TestUser
const NEWEST = 'newest upload while rate-limited'

/** Spends the client's GENERAL allowance; returns the Retry-After of the 429. */
async function exhaustGeneral(): Promise<number> {
  for (let i = 0; i <= GENERAL_MAX; i++) {
    const response = await api('/api/tags', { baseURL: server.url })
    if (response.status === 429) return Number(response.headers.get('retry-after'))
  }
  throw new Error('GENERAL allowance not spent')
}

async function waitForWindow(seconds: number) {
  await new Promise(r => setTimeout(r, (seconds + 0.5) * 1000))
}

beforeAll(async () => {
  server = await startServer({
    NUXT_RATE_LIMIT_ENABLED: 'true',
    NUXT_RATE_LIMIT_GENERAL_MAX: String(GENERAL_MAX),
    NUXT_RATE_LIMIT_GENERAL_WINDOW_SECONDS: String(GENERAL_WINDOW_SECONDS),
  })
  owner = await registerUser({}, server.url)
  await seedUpload(owner, { description: 'an older upload', tags: ['cats'], createdAt: '2026-01-01T00:00:00.000Z' }, server)
  await seedUpload(owner, { description: NEWEST, tags: ['cats'], createdAt: '2026-02-01T00:00:00.000Z' }, server)
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('rate-limited in the browser', () => {
  let context: BrowserContext

  afterAll(() => context?.close())

  it('shows a failed load as an error with "Try again", not as "No uploads yet"', async () => {
    context = await newContext(browser, server.url)
    const page = await context.newPage()
    await page.goto('/tags/cats')
    await hydrated(page)
    await exhaustGeneral()
    // A client-side navigation: the home page's lists are fetched by the browser, and refused.
    await page.click('a:has-text("All uploads")')
    await page.waitForURL(`${server.url}/`)
    const recentError = page.locator('section[aria-labelledby="recent-title"] [data-testid="load-error"]')
    await recentError.waitFor()
    expect(await recentError.textContent()).toContain('The most recent uploads could not be loaded.')
    // The real wait, from Retry-After (at most the window).
    expect(await recentError.textContent()).toMatch(new RegExp(`Too many requests\\. Please try again in [1-${GENERAL_WINDOW_SECONDS}] seconds?\\.`))
    expect(await page.locator('main').textContent()).not.toContain('No uploads yet')
    expect(await page.locator('main').textContent()).not.toContain('No votes yet')

    await waitForWindow(GENERAL_WINDOW_SECONDS)
    await recentError.locator('button:has-text("Try again")').click()
    await page.locator('section[aria-labelledby="recent-title"] ul[aria-label="Most recent uploads"]').waitFor()
    expect(await page.locator('section[aria-labelledby="recent-title"]').textContent()).toContain(NEWEST)
  })

  it('keeps a signed-in person signed in when signing out is refused with 429', async () => {
    await waitForWindow(GENERAL_WINDOW_SECONDS)
    const user = await registerUser({}, server.url)
    const signedIn = await newContext(browser, server.url)
    await signedIn.addCookies([{ name: 'auth-token', value: user.token, url: server.url, httpOnly: true, sameSite: 'Lax' }])
    const page = await signedIn.newPage()
    await page.goto('/settings')
    await hydrated(page)
    await exhaustGeneral()
    await page.click('[data-testid="settings-sign-out"]')
    const failure = page.locator('[data-testid="sign-out-error"]')
    await failure.waitFor()
    expect(await failure.textContent()).toContain('You are still signed in')
    expect(await failure.textContent()).toMatch(/Please try again in \d seconds?\./)
    expect(page.url()).toBe(`${server.url}/settings`)
    expect((await page.locator('[data-testid="header-user"]').textContent())?.trim()).toBe(user.username)
    // The session is still valid on the server too.
    await waitForWindow(GENERAL_WINDOW_SECONDS)
    expect((await api('/api/profile', { baseURL: server.url, token: user.token })).status).toBe(200)
    await signedIn.close()
  })
})
