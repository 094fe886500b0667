import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { api } from '../support/api'
import { newContext } from '../support/browser'
import { goto, signedInContext } from './helpers'
import { PAGES, sitePageSession, tabPool, type Who } from './site-pages'
import { sharedServer } from '../support/shared-server'

/**
 * No page scrolls sideways on a 390 px phone (docs/behaviour.md, Basics: the
 * pages fit a phone). Every page of
 * site-pages.ts (and the states its `then` opens), with the owner holding an
 * API token, as the settings page then shows a table of them.
 */
const WIDTH = 390

/**
 * How far the page is wider than the screen, and the elements that stick out
 * first (their parent still fits), unless a scrolling box (overflow-x auto or
 * scroll, as the home page's card row) holds them.
 */
function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const problems: string[] = []
    const scrollWidth = document.documentElement.scrollWidth
    if (scrollWidth <= width) return problems
    problems.push(`the page is ${scrollWidth} px wide on a ${width} px screen`)
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : ''
      const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : ''
      return `<${el.tagName.toLowerCase()}${id}${cls}> "${(el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`
    }
    const scrolls = (el: Element | null): boolean => {
      for (let node = el; node && node !== document.body; node = node.parentElement) {
        if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(node).overflowX)) return true
      }
      return false
    }
    const sticksOut = (el: Element) => el.getBoundingClientRect().right > width + 0.5
    for (const el of document.body.querySelectorAll('*')) {
      if (!sticksOut(el) || (el.parentElement && sticksOut(el.parentElement)) || scrolls(el.parentElement)) continue
      problems.push(`${describe(el)} reaches ${Math.round(el.getBoundingClientRect().right)} px`)
    }
    if (problems.length === 1) {
      // Nothing sticks out on its own: a positioned element escaping a scrolling box that is not its containing block?
      const positioned = [...document.body.querySelectorAll('*')].filter(el => sticksOut(el) && ['absolute', 'fixed'].includes(getComputedStyle(el).position))
      for (const el of positioned.slice(0, 3)) problems.push(`${describe(el)} (position: ${getComputedStyle(el).position}) reaches ${Math.round(el.getBoundingClientRect().right)} px`)
    }
    return problems
  })
}

/**
 * Text fields, text areas and selects shown without the site's field style
 * (.input, .textarea, .select in assets/css/main.css): the browser's bare
 * control, square and grey in the dark theme. A `.bare` field is drawn inside
 * a box that has the style (the tag input's chips and text).
 */
function unstyledFields(page: Page): Promise<string[]> {
  return page.$$eval('input:not([type=checkbox], [type=radio], [type=file], [type=hidden]), textarea, select', elements => elements
    .filter(el => el.getClientRects().length > 0 && !el.matches('.input, .textarea, .select, .bare'))
    .map(el => `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('name') ? ` name=${el.getAttribute('name')}` : ''}>`))
}

describe(`every page at ${WIDTH} px`, () => {
  const session = sitePageSession()
  const contexts = new Map<Who, BrowserContext>()
  const tabs = tabPool()

  beforeAll(async () => {
    const created = await api('/api/auth/tokens/generate', { method: 'POST', token: session.fixtures.owner.token, body: { name: 'backup script on the home server' } })
    expect(created.status).toBe(201)
  })
  afterAll(async () => {
    for (const context of contexts.values()) await context.close()
  })

  async function contextFor(who: Who): Promise<BrowserContext> {
    let context = contexts.get(who)
    if (!context) {
      const { owner, admin } = session.fixtures
      context = who === 'guest'
        ? await newContext(session.browser, sharedServer().baseURL, { mobile: true })
        : await signedInContext(session.browser, who === 'owner' ? owner : admin, { mobile: true })
      contexts.set(who, context)
    }
    return context
  }

  it('the check itself sees a page that is too wide', async () => {
    const page = await (await contextFor('guest')).newPage()
    await page.setContent(`<html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head>
      <body style="margin:0"><div style="width:200px"><div id="wide" style="width:470px">x</div></div>
      <div style="overflow-x:auto"><div style="width:900px">scrolls inside its box</div></div></body></html>`)
    expect(await overflow(page)).toEqual([`the page is 470 px wide on a ${WIDTH} px screen`, '<div#wide> "x" reaches 470 px'])
    await page.close()
  })

  for (const spec of PAGES) {
    it(`${spec.name}: no horizontal overflow`, async () => {
      const page = await tabs.take(await contextFor(spec.as))
      const response = await goto(page, spec.path(session.fixtures))
      expect(response?.status()).toBe(spec.status ?? 200)
      expect(await page.evaluate(() => document.documentElement.clientWidth)).toBe(WIDTH)
      expect(await overflow(page)).toEqual([])
      expect(await unstyledFields(page)).toEqual([])
      if (spec.then) {
        await spec.then(page)
        expect(await overflow(page)).toEqual([])
        expect(await unstyledFields(page)).toEqual([])
      }
      await tabs.give(page)
    })
  }

  it('every table reads on a phone: each of its buttons and links lies whole inside the screen, none behind a scroll', async () => {
    for (const [who, path, tables] of [['owner', '/settings', ['session-list', 'token-list']], ['admin', '/admin', ['admin-users']]] as const) {
      const page = await (await contextFor(who)).newPage()
      await goto(page, path)
      for (const table of tables) {
        await page.locator(`[data-testid=${table}]`).waitFor()
        const controls = await page.$$eval(`[data-testid=${table}] tbody :is(button, a)`, (elements, width) => elements.map((el) => {
          const box = el.getBoundingClientRect()
          return { text: el.textContent!.trim(), whole: box.left >= 0 && box.right <= width && box.width > 0 }
        }), WIDTH)
        expect(controls.length, table).toBeGreaterThan(0)
        expect(controls.filter(control => !control.whole), table).toEqual([])
      }
      await page.close()
    }
  })

  it('a touch screen shows no key hints or drop target, and keeps the sort tabs on one line', async () => {
    const page = await (await contextFor('owner')).newPage()
    expect(await page.evaluate(() => matchMedia('(hover: none)').matches)).toBe(true)
    // This context's earlier visit of the link form left an unsent link, which the form would bring back.
    await goto(page, '/upload/new')
    await page.evaluate(() => localStorage.removeItem('upload-draft'))
    await goto(page, '/upload/new')
    expect(await page.locator('text=Drop an image here').isVisible()).toBe(false)
    expect(await page.locator('text=Choose an image').isVisible()).toBe(true)
    await goto(page, `/upload/${session.fixtures.imageId}`)
    expect(await page.locator('kbd').evaluateAll(keys => keys.filter(key => (key as HTMLElement).offsetParent !== null).length)).toBe(0)
    await goto(page, '/vote')
    await page.locator('[data-testid=vote-mode-upload], [data-testid=vote-mode-done]').first().waitFor()
    expect(await page.locator('kbd').evaluateAll(keys => keys.filter(key => (key as HTMLElement).offsetParent !== null).length)).toBe(0)
    await goto(page, '/?sort=top')
    const tops = await page.locator('nav[aria-label="Sort uploads"] a').evaluateAll(tabs => tabs.map(tab => Math.round(tab.getBoundingClientRect().top)))
    expect(tops).toHaveLength(6)
    expect(new Set(tops).size).toBe(1)
    await page.close()
  })

  it('settings, right after creating a token (value and example shown once): no horizontal overflow', async () => {
    const page = await (await contextFor('owner')).newPage()
    await goto(page, '/settings')
    await page.fill('#token-name', 'a token made on the phone')
    await page.click('button:has-text("Create token")')
    await page.locator('[data-testid=token-created]').waitFor()
    await page.locator('[data-testid=token-created] details summary').click()
    expect(await overflow(page)).toEqual([])
    await page.close()
  })
})
