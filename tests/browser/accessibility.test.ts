import { describe, expect, it } from 'vitest'
import { newContext, PHONE } from '../support/browser'
import type { Page } from 'playwright-core'
import { auditPage, invisibleFocus, overflow, unstyledFields } from './audit'
import { complaints, openRequests, reportViolations, settled } from './complaints'
import { goto, registerUser, signedInContext } from './helpers'
import { PAGES, sitePageSession, type Who } from './site-pages'
import { sharedServer } from '../support/shared-server'

const onPostgres = process.env.TEST_ENGINE === 'postgres'

describe('accessibility of every page', () => {
  const session = sitePageSession()

  /**
   * The two ways a page gets its colours: a theme picked with the toggle (its cookie, so
   * `data-theme` on <html> from the server on), and the system's preference (no cookie: the
   * markup a first visit gets, the page cache's). The palette is one set of light-dark()
   * pairs (assets/css/main.css), so a light page of one and a dark page of the other audit
   * both palettes and both ways of rendering. The dark pages are a phone's (390 px at 2×,
   * touch), where each must also fit the screen's width (docs/behaviour.md, Basics).
   * Each variant runs on one engine: the light pages from SQLite (`browser`), the dark
   * ones from PostgreSQL (`browser-pg`), so every page is also held to the console rule
   * once per engine.
   */
  const VARIANTS = [
    { name: 'light theme', cookie: 'light', scheme: 'light', attribute: 'light', phone: false, tabWalk: true, onPostgres: false },
    { name: 'system dark scheme on a phone', cookie: null, scheme: 'dark', attribute: null, phone: true, tabWalk: false, onPostgres: true },
  ] as const
  type Variant = typeof VARIANTS[number]

  /** One context per (variant, who), with the theme cookie set as the toggle would. */
  const contextFor = (variant: Variant, who: Who) => session.contextFor(variant.name, who, {
    mobile: variant.phone,
    prepare: async (context, baseURL) => {
      if (variant.cookie) await context.addCookies([{ name: 'theme', value: variant.cookie, url: baseURL }])
      await reportViolations(context)
    },
  })

  /** What a phone's page must also be: no wider than the screen, its fields in the site's style. */
  async function fitsThePhone(page: Page) {
    expect(await page.evaluate(() => document.documentElement.clientWidth)).toBe(PHONE.width)
    expect(await overflow(page)).toEqual([])
    expect(await unstyledFields(page)).toEqual([])
  }

  // Audited side by side, each page in its own tab (Playwright gives every tab focus of its
  // own, so the Tab walks of the light pages run side by side too). Each page is also held
  // to the console rule (complaints.ts): no console error, hydration mismatch, policy
  // violation or failed request.
  for (const variant of VARIANTS.filter(v => v.onPostgres === onPostgres)) {
    describe.concurrent(variant.name, () => {
      for (const spec of PAGES) {
        // A page's Tab stops are walked once, in the light theme, before any further state.
        const walkTabs = variant.tabWalk && !spec.then
        it(`${spec.name}: labels, names, alt texts, headings, lang and contrast${walkTabs ? ', a visible focus at every Tab stop' : ''}${variant.phone ? ', the phone\'s width' : ''}; nothing in the console`, async ({ expect }) => {
          const page = await session.take(await contextFor(variant, spec.as))
          await page.emulateMedia({ colorScheme: variant.scheme })
          const found = complaints(page, spec.status ?? 200)
          const open = openRequests(page)
          const response = await goto(page, spec.path(session.fixtures))
          expect(response?.status()).toBe(spec.status ?? 200)
          await expect(page.getAttribute('html', 'data-theme')).resolves.toBe(variant.attribute)
          await expect(page.getAttribute('html', 'lang')).resolves.toBe('en')
          expect(await auditPage(page)).toEqual([])
          if (variant.phone) await fitsThePhone(page)
          if (walkTabs) {
            const { stops, invisible } = await invisibleFocus(page, spec.tabStops)
            expect(stops.length).toBeGreaterThan(1)
            // The first stop skips to the content.
            expect(stops[0]).toContain('Skip to content')
            expect(invisible).toEqual([])
          }
          if (spec.then) {
            await spec.then(page)
            expect(await auditPage(page)).toEqual([])
            if (variant.phone) await fitsThePhone(page)
          }
          await settled(page, open)
          expect(found).toEqual([])
          await session.release(page)
        })
      }
    })
  }

  // What depends on no page's data runs once, on SQLite.
  if (!onPostgres) {
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

    describe('keyboard', () => {
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
  }
})
