import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { registerUser, type TestUser } from '../support/api'
import { launchBrowser, newContext } from '../support/browser'
import { goto, seedLink, watchErrors } from './helpers'
import { sharedServer } from '../support/shared-server'

// A page carries the styles its first paint needs inline, and no stylesheet link in its
// head holds that paint back (server/plugins/inlined-styles.ts); a page reached within
// the app looks as it does when loaded on its own.
let browser: Browser
let context: BrowserContext
let owner: TestUser
const suffix = randomUUID().slice(0, 8)
const tag = `st-${suffix}`
let id: string

beforeAll(async () => {
  browser = await launchBrowser()
  context = await newContext(browser, sharedServer().baseURL)
  owner = await registerUser()
  id = await seedLink(owner, { description: `Styled ${suffix}`, tags: [tag] })
})
afterAll(() => browser?.close())

/** Each class name on the page, with what its first element's box and text look like. */
function looks(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const found: Record<string, string> = {}
    for (const element of document.querySelectorAll('body [class]')) {
      const style = getComputedStyle(element)
      const look = ['display', 'position', 'color', 'background-color', 'padding', 'margin', 'font-size', 'font-weight', 'border-radius', 'gap']
        .map(property => style.getPropertyValue(property)).join(' ')
      for (const name of element.classList) found[name] ??= look
    }
    return found
  })
}

/** The looks of the class names two pages share. */
function shared(a: Record<string, string>, b: Record<string, string>): [string[], string[]] {
  const names = Object.keys(a).filter(name => name in b).sort()
  return [names.map(name => `${name}: ${a[name]}`), names.map(name => `${name}: ${b[name]}`)]
}

describe('styles of a page', () => {
  it('are inline for the first paint, and the same on a page reached within the app', async () => {
    const page = await context.newPage()
    const errors = watchErrors(page)
    // A tag no upload carries: its page has the code of upload cards, but shows none.
    const empty = `/tags/st-none-${suffix}`
    const html = await (await page.goto(empty))!.text()
    const head = html.slice(0, html.indexOf('</head>'))
    expect(head).not.toContain('rel="stylesheet"')
    expect(head).toContain('<style')
    expect(html.slice(html.indexOf('</head>'))).toContain('rel="stylesheet"')
    await goto(page, empty)

    // Within the app: a tag's page with a card (a link's tile), then the upload's, then its owner's.
    await page.evaluate(path => (window as unknown as { useNuxtApp: () => { $router: { push: (to: string) => Promise<unknown> } } }).useNuxtApp().$router.push(path), `/tags/${tag}`)
    const card = page.locator(`[data-testid="upload-card"][data-upload-id="${id}"]`)
    await card.waitFor()
    const tagWithin = await looks(page)
    await card.locator('.description a').click()
    await page.waitForURL(`**/upload/${id}`)
    await page.getByTestId('upload-description').waitFor()
    const uploadWithin = await looks(page)
    await page.locator(`[data-testid="upload-detail"] a[href="/user/${owner.username}"]`).first().click()
    await page.waitForURL(`**/user/${owner.username}`)
    await page.locator(`[data-upload-id="${id}"]`).waitFor()
    const userWithin = await looks(page)

    // Each loaded on its own.
    const alone = await context.newPage()
    await goto(alone, `/tags/${tag}`)
    const [tagWithinShared, tagLoaded] = shared(tagWithin, await looks(alone))
    expect(tagWithinShared.length).toBeGreaterThan(20)
    expect(tagWithinShared).toEqual(tagLoaded)
    await goto(alone, `/upload/${id}`)
    const [within, loaded] = shared(uploadWithin, await looks(alone))
    expect(within.length).toBeGreaterThan(20)
    expect(within).toEqual(loaded)
    await goto(alone, `/user/${owner.username}`)
    const [userWithinShared, userLoaded] = shared(userWithin, await looks(alone))
    expect(userWithinShared.length).toBeGreaterThan(20)
    expect(userWithinShared).toEqual(userLoaded)
    expect(errors).toEqual([])
    await alone.close()
    await page.close()
  })

  it('are the site\'s own on an error page loaded on its own, as on one reached within the app', async () => {
    const page = await context.newPage()
    const missing = `/upload/${randomUUID()}`
    expect((await goto(page, missing))!.status()).toBe(404)
    await page.getByTestId('error-page').waitFor()
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand').trim())).not.toBe('')
    const alone = await looks(page)

    await goto(page, '/')
    await page.evaluate((href) => {
      const link = Object.assign(document.createElement('a'), { href, textContent: 'Missing' })
      link.dataset.appLink = ''
      link.id = 'missing-link'
      document.body.prepend(link)
    }, missing)
    await page.locator('#missing-link').click()
    await page.getByTestId('error-page').waitFor()
    const [aloneShared, within] = shared(alone, await looks(page))
    expect(aloneShared.filter(look => look.startsWith('error-page:') || look.startsWith('code:'))).toHaveLength(2)
    expect(aloneShared).toEqual(within)
    await page.close()
  })

  it('are not fetched again once the page runs, nor another page\'s before a pointer comes over its link', async () => {
    const page = await context.newPage()
    const errors = watchErrors(page)
    const fetched: string[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('.css')) fetched.push(new URL(request.url()).pathname)
    })
    const html = await (await goto(page, `/tags/${tag}`))!.text()
    const links = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"[^>]*>/g)]
    const inline = links.filter(([link]) => link!.endsWith(' disabled>')).map(([, href]) => href!)
    const later = links.filter(([link]) => !link!.endsWith(' disabled>')).map(([, href]) => href!)
    expect(inline.length).toBeGreaterThan(2)
    await page.waitForLoadState('networkidle')
    expect(fetched.sort()).toEqual(later.sort())

    // The upload page's code, its stylesheet with it, comes as the pointer reaches a card's link.
    const opened = page.locator(`[data-testid="upload-card"][data-upload-id="${id}"] .description a`)
    await opened.hover()
    await expect.poll(() => fetched.length).toBeGreaterThan(later.length)
    expect(fetched.filter(path => inline.includes(path))).toEqual([])
    await opened.click()
    await page.waitForURL(`**/upload/${id}`)
    await page.getByTestId('upload-description').waitFor()
    expect(errors).toEqual([])
    await page.close()
  })
})
