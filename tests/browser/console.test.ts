import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { goto } from './helpers'
import { PAGES, sitePageSession, type Who } from './site-pages'

/**
 * Everything a page complains about: console errors and warnings (a hydration
 * mismatch is one), uncaught exceptions, Content-Security-Policy violations,
 * failed requests and 4xx/5xx answers other than the document's expected status.
 */
function complaints(page: Page, expectedStatus: number): string[] {
  const found: string[] = []
  page.on('console', (message) => {
    // Chromium's own line for a failed load: the response and requestfailed listeners below judge those.
    if (message.text().startsWith('Failed to load resource:')) return
    if (message.type() === 'error' || message.type() === 'warning') found.push(`console.${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', error => found.push(`uncaught: ${error.message}`))
  page.on('requestfailed', (request) => {
    // A picture the browser stopped fetching because it no longer needs it (its card's
    // srcset fell back to the thumbnail): not a failure; an answer >= 400 is caught below.
    if (request.resourceType() === 'image' && request.failure()?.errorText === 'net::ERR_ABORTED') return
    found.push(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`)
  })
  page.on('response', (response) => {
    const isDocument = response.request().resourceType() === 'document' && response.request().frame() === page.mainFrame()
    if (response.status() >= 400 && !(isDocument && response.status() === expectedStatus)) found.push(`HTTP ${response.status()}: ${response.url()}`)
  })
  return found
}

/**
 * Waits until the page has had no request in flight for 500 ms; if that takes
 * longer than 20 s, fails naming the requests still open (a timeout alone
 * would not say which one kept the page busy).
 */
async function settled(page: Page, open: Set<string>): Promise<void> {
  try {
    await page.waitForLoadState('networkidle', { timeout: 20_000 })
  }
  catch (error) {
    throw new Error(`Requests still open after 20 s: ${[...open].join(', ') || 'none'}`, { cause: error })
  }
}

/** The URLs of the page's requests that have not finished yet. */
function openRequests(page: Page): Set<string> {
  const open = new Set<string>()
  page.on('request', request => open.add(request.url()))
  page.on('requestfinished', request => open.delete(request.url()))
  page.on('requestfailed', request => open.delete(request.url()))
  return open
}

describe('no console errors, hydration mismatches or CSP violations', () => {
  const session = sitePageSession()

  const contextFor = (scheme: 'system light' | 'system dark' | 'dark', who: Who) => session.contextFor(scheme, who, async (context, baseURL) => {
    if (scheme === 'dark') await context.addCookies([{ name: 'theme', value: 'dark', url: baseURL }])
    // A CSP violation is an event, not always a console message: report it as one.
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`)
      })
    })
  })

  // The colour schemes differ in markup and styles only: on PostgreSQL (browser-pg) the
  // walk runs once, for what the pages read and write.
  const schemes = process.env.TEST_ENGINE === 'postgres' ? ['system light'] as const : ['system light', 'system dark', 'dark'] as const
  // The pages of a scheme are walked side by side (up to vitest's maxConcurrency), each in its
  // own tab: most of a page's time is the wait for 500 ms without a request.
  for (const scheme of schemes) {
    describe.concurrent(scheme, () => {
      for (const spec of PAGES) {
        it(`${spec.name}`, async ({ expect }) => {
          const page = await (await contextFor(scheme, spec.as)).newPage()
          await page.emulateMedia({ colorScheme: scheme === 'system dark' ? 'dark' : 'light' })
          const found = complaints(page, spec.status ?? 200)
          const open = openRequests(page)
          const response = await goto(page, spec.path(session.fixtures))
          expect(response?.status()).toBe(spec.status ?? 200)
          await spec.then?.(page)
          await settled(page, open)
          expect(found).toEqual([])
          await page.close()
        })
      }
    })
  }

  it('would notice: an inline script the policy does not list is blocked and reported', async () => {
    const page = await (await contextFor('system light', 'guest')).newPage()
    const found = complaints(page, 200)
    await goto(page, '/')
    await page.evaluate(() => {
      const script = document.createElement('script')
      script.textContent = 'window.injected = true'
      document.body.append(script)
    })
    await expect.poll(() => found).toContainEqual(expect.stringMatching(/^console\.error: CSP violation: script-src-elem blocked inline/))
    expect(found).toContainEqual(expect.stringMatching(/^console\.error: Executing inline script violates the following Content Security Policy/))
    await expect(page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).resolves.toBeUndefined()
    await page.close()
  })

  it('stays quiet while moving between pages on the client', async () => {
    const page = await (await contextFor('system light', 'owner')).newPage()
    const found = complaints(page, 200)
    await goto(page, '/')
    for (const [link, path] of [
      ['header a[href="/docs"]', '/docs'],
      [`#account-menu a[href="/user/${session.fixtures.owner.username}"]`, `/user/${session.fixtures.owner.username}`],
      ['#account-menu a[href="/settings"]', '/settings'],
      ['header a[href="/upload/new"]', '/upload/new'],
      ['header a[href="/"]', '/'],
    ] as const) {
      // The account's own pages are behind its name.
      if (link.startsWith('#account-menu')) await page.click('[data-testid=header-user]')
      await page.click(link)
      await page.waitForURL(url => url.pathname === path)
      await page.locator('h1').first().waitFor()
    }
    await page.goBack()
    await page.waitForURL(url => url.pathname === '/upload/new')
    await page.waitForLoadState('networkidle')
    expect(found).toEqual([])
    await page.close()
  })
})
