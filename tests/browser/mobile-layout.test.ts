import { describe, expect, it } from 'vitest'
import { PHONE } from '../support/browser'
import { overflow } from './audit'
import { goto } from './helpers'
import { sitePageSession, type Who } from './site-pages'

/**
 * What a phone shows beyond every page fitting its width (which the accessibility walk
 * checks of each page, docs/behaviour.md, Basics): tables whose controls lie whole inside
 * the screen, no key hints on a touch screen, a list's title row that wraps rather than
 * squeezing its heading, and a settings page that still fits once it shows a new token.
 */
const WIDTH = PHONE.width

describe(`pages at ${WIDTH} px`, () => {
  const session = sitePageSession()
  const contextFor = (who: Who) => session.contextFor('phone', who, { mobile: true })

  it('the check itself sees a page that is too wide', async () => {
    const page = await (await contextFor('guest')).newPage()
    await page.setContent(`<html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head>
      <body style="margin:0"><div style="width:200px"><div id="wide" style="width:470px">x</div></div>
      <div style="overflow-x:auto"><div style="width:900px">scrolls inside its box</div></div></body></html>`)
    expect(await overflow(page)).toEqual([`the page is 470 px wide on a ${WIDTH} px screen`, '<div#wide> "x" reaches 470 px'])
    await page.close()
  })

  it('every table reads on a phone: each of its buttons and links lies whole inside the screen, none behind a scroll', async () => {
    for (const [who, path, tables] of [['owner', '/settings', ['session-list', 'token-list']], ['admin', '/admin', ['admin-users']], ['admin', '/admin?tab=log', ['admin-modlog']]] as const) {
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

  it('a list\'s title row gives its heading the row\'s width, and each control beside it one line', async () => {
    const page = await (await contextFor('guest')).newPage()
    await goto(page, '/tags/a-rather-long-tag-for-a-phone')
    const row = page.locator('.feed .section-title')
    const [heading, whole] = await Promise.all([row.locator('h2').boundingBox(), row.boundingBox()])
    expect(heading!.width / whole!.width).toBeGreaterThan(0.9)
    const lines = await page.locator('.feed .blind-toggle').evaluate((label) => {
      const range = document.createRange()
      range.selectNodeContents([...label.childNodes].find(node => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== '')!)
      return new Set([...range.getClientRects()].map(rect => Math.round(rect.top))).size
    })
    expect(lines).toBe(1)
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
