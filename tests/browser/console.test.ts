import { describe, expect, it } from 'vitest'
import { complaints, reportViolations } from './complaints'
import { goto } from './helpers'
import { sitePageSession, type Who } from './site-pages'

/**
 * The console rule (complaints.ts): no console error, hydration mismatch, policy violation
 * or failed request. The accessibility walk holds every page to it, once per engine; here,
 * that the rule would notice a violation, and the moves between pages on the client.
 */
describe('no console errors, hydration mismatches or CSP violations', () => {
  const session = sitePageSession()

  const contextFor = (who: Who) => session.contextFor('system light', who, { prepare: reportViolations })

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
