import { describe, expect, it } from 'vitest'
import { newContext } from '../support/browser'
import { auditPage, invisibleFocus } from './audit'
import { complaints, openRequests, reportViolations, settled } from './complaints'
import { goto, registerUser, signedInContext } from './helpers'
import { PAGES, sitePageSession, type Who } from './site-pages'
import { sharedServer } from '../support/shared-server'

describe('accessibility of every page', () => {
  const session = sitePageSession()

  /** One context per (theme, who), with the theme cookie set as the toggle would. */
  const contextFor = (theme: 'light' | 'dark', who: Who) => session.contextFor(theme, who, async (context, baseURL) => {
    await context.addCookies([{ name: 'theme', value: theme, url: baseURL }])
    await reportViolations(context)
  })

  it('the checks themselves catch what they look for', async () => {
    const context = await newContext(session.browser, sharedServer().baseURL)
    const page = await context.newPage()
    await page.setContent(`<html><head><title>t</title><style>
      body { background: #fff; color: #000 } button, input { outline: none !important; box-shadow: none !important }
    </style></head><body><main>
      <h2>Starts at two</h2><h4>Skips three</h4>
      <input id="nameless"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><button><svg></svg></button>
      <p style="color: #aaa">Too pale</p><p id="twice">a</p><p id="twice">b</p>
      <input aria-describedby="nowhere" aria-label="Described by nothing">
      <a href="#top" aria-label="Open: a video">YouTube</a>
    </main></body></html>`)
    const problems = await auditPage(page)
    expect(problems).toEqual(expect.arrayContaining([
      '<html> has no lang',
      'form control without a label: <input#nameless>',
      expect.stringMatching(/^image without alt: <img>/),
      'button without an accessible name: <button>',
      'svg inside a control is neither aria-hidden nor labelled: <button>',
      'expected one <h1>, found 0: ',
      'the first heading is not <h1>: <h2> "Starts at two"',
      'heading level skipped (h2 → h4): <h4> "Skips three"',
      'id "twice" is used 2 times',
      expect.stringMatching(/^aria-describedby points at missing id\(s\) nowhere/),
      expect.stringMatching(/^contrast 2\.32:1 < 4\.5:1 for <p> "Too pale"/),
      'accessible name "Open: a video" does not contain the visible text "youtube": <a> "YouTube"',
    ]))
    const { invisible } = await invisibleFocus(page)
    expect(invisible).toEqual(['<input#nameless> ""', '<button> ""', '<input> "Described by nothing"'])
    await context.close()
  })

  // Audited side by side, each page in its own tab (the keyboard checks below stay one at a time: focus).
  // A page with a theme chosen is walked here only: each is also held to console.test.ts's rule
  // (no console error, hydration mismatch, policy violation or failed request), which walks
  // the pages that follow the system's colour scheme.
  for (const theme of ['light', 'dark'] as const) {
    describe.concurrent(`${theme} theme`, () => {
      for (const spec of PAGES) {
        it(`${spec.name}: labels, names, alt texts, headings, lang and contrast; nothing in the console`, async ({ expect }) => {
          const page = await session.take(await contextFor(theme, spec.as))
          const found = complaints(page, spec.status ?? 200)
          const open = openRequests(page)
          const response = await goto(page, spec.path(session.fixtures))
          expect(response?.status()).toBe(spec.status ?? 200)
          await expect(page.getAttribute('html', 'data-theme')).resolves.toBe(theme)
          await expect(page.getAttribute('html', 'lang')).resolves.toBe('en')
          expect(await auditPage(page)).toEqual([])
          if (spec.then) {
            await spec.then(page)
            expect(await auditPage(page)).toEqual([])
          }
          await settled(page, open)
          expect(found).toEqual([])
          await session.release(page)
        })
      }
    })
  }

  describe('keyboard', () => {
    for (const spec of PAGES.filter(p => !p.then)) {
      it(`${spec.name}: every Tab stop shows where the focus is`, async () => {
        const page = await session.take(await contextFor('light', spec.as))
        await goto(page, spec.path(session.fixtures))
        const { stops, invisible } = await invisibleFocus(page)
        expect(stops.length).toBeGreaterThan(1)
        // The first stop skips to the content.
        expect(stops[0]).toContain('Skip to content')
        expect(invisible).toEqual([])
        await session.release(page)
      })
    }

    it('signs in with the keyboard alone', async () => {
      const user = await registerUser()
      const context = await newContext(session.browser, sharedServer().baseURL)
      const page = await context.newPage()
      await goto(page, '/login')
      await page.keyboard.press('Tab') // skip link
      await page.keyboard.press('Enter')
      await page.waitForFunction(() => document.activeElement?.id === 'main')
      for (let i = 0; i < 10 && await page.evaluate(() => document.activeElement?.id) !== 'email'; i++) await page.keyboard.press('Tab')
      await page.keyboard.type(user.email)
      for (let i = 0; i < 3 && await page.evaluate(() => document.activeElement?.id) !== 'password'; i++) await page.keyboard.press('Tab')
      await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('password')
      await page.keyboard.type(user.password)
      await page.keyboard.press('Enter')
      await page.waitForURL(url => url.pathname === '/')
      await page.locator('[data-testid=header-user]').waitFor()
      await context.close()
    })

    it('chooses the upload kind with arrow keys and opens the menu and theme with Enter and Space', async () => {
      const context = await signedInContext(session.browser, session.fixtures.owner, { mobile: true })
      const page = await context.newPage()
      await goto(page, '/upload/new')
      await page.focus('input[value=image]')
      await page.keyboard.press('ArrowRight')
      await page.locator('#image-url').waitFor()
      await page.keyboard.press('ArrowRight')
      await page.locator('#link-url').waitFor()
      await expect(page.isChecked('input[value=link]')).resolves.toBe(true)

      await page.focus('button[aria-controls=site-nav]')
      await page.keyboard.press('Enter')
      await expect(page.getAttribute('button[aria-controls=site-nav]', 'aria-expanded')).resolves.toBe('true')
      await expect(page.isVisible('#site-nav')).resolves.toBe(true)
      await page.focus('#site-nav button[aria-label^="Theme"]')
      const before = await page.getAttribute('#site-nav button[aria-label^="Theme"]', 'aria-label')
      await page.keyboard.press('Space')
      await page.waitForFunction(previous => document.querySelector('#site-nav button[aria-label^="Theme"]')?.getAttribute('aria-label') !== previous, before)
      await context.close()
    })
  })
})
