import { describe, expect, it } from 'vitest'
import { complaints, openRequests, reportViolations, settled } from './complaints'
import { goto } from './helpers'
import { PAGES, sitePageSession, type Who } from './site-pages'

describe('no console errors, hydration mismatches or CSP violations', () => {
  const session = sitePageSession()

  const contextFor = (who: Who) => session.contextFor('system light', who, { prepare: reportViolations })

  // Every page following the system's (light) colour scheme, rendered from PostgreSQL
  // (browser-pg): what the pages read and write. On SQLite, accessibility.test.ts holds
  // every page to the same rule in both of the ways a page gets its colours, and the
  // schemes differ in styles only (light-dark() in assets/css/main.css).
  // The pages are walked side by side (up to vitest's maxConcurrency), each in its own tab:
  // most of a page's time is the wait for 500 ms without a request.
  describe.runIf(process.env.TEST_ENGINE === 'postgres').concurrent('every page, system light scheme', () => {
    for (const spec of PAGES) {
      it(`${spec.name}`, async ({ expect }) => {
        const page = await session.take(await contextFor(spec.as))
        await page.emulateMedia({ colorScheme: 'light' })
        const found = complaints(page, spec.status ?? 200)
        const open = openRequests(page)
        const response = await goto(page, spec.path(session.fixtures))
        expect(response?.status()).toBe(spec.status ?? 200)
        await spec.then?.(page)
        await settled(page, open)
        expect(found).toEqual([])
        await session.release(page)
      })
    }
  })

  it('would notice: an inline script the policy does not list is blocked and reported', async () => {
    const page = await (await contextFor('guest')).newPage()
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
    const page = await (await contextFor('owner')).newPage()
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
