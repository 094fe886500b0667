import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { registerUser, type TestUser } from '../support/api'
import { launchBrowser, newContext } from '../support/browser'
import { goto, seedLink, signedInContext, watchErrors } from './helpers'
import { sharedServer } from '../support/shared-server'

// A card's links (its picture, description, tags and owner) are plain <a> elements that
// change page within the app: the page's own state lives on, and a modified click is the
// browser's (a new tab) while the page stays where it is.
let browser: Browser
let owner: TestUser
const suffix = randomUUID().slice(0, 8)
const tag = `cl-${suffix}`
const other = `cl-other-${suffix}`
let id: string
/** An upload on the second tag's page only: its card shows that page's own list has been drawn. */
let otherOnly: string

beforeAll(async () => {
  browser = await launchBrowser()
  owner = await registerUser()
  otherOnly = await seedLink(owner, { description: `Card link, other tag only ${suffix}`, tags: [other] })
  id = await seedLink(owner, { description: `Card link ${suffix}`, tags: [tag, other] })
})
afterAll(() => browser?.close())

/** Marks the page's window: a full page load forgets the mark, a change of page within the app keeps it. */
async function mark(page: Page) {
  await page.evaluate(() => ((window as unknown as { cardLinkMark: string }).cardLinkMark = 'kept'))
}
const marked = (page: Page) => page.evaluate(() => (window as unknown as { cardLinkMark?: string }).cardLinkMark ?? null)

describe('links on an upload card', () => {
  let context: BrowserContext
  beforeAll(async () => {
    context = await newContext(browser, sharedServer().baseURL)
  })
  afterAll(() => context?.close())

  it('open the upload, its tag and its owner within the app, by click and by keyboard', async () => {
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, `/tags/${tag}`)
    const card = page.locator(`[data-testid="upload-card"][data-upload-id="${id}"]`)
    await expect(card.locator('.description a').getAttribute('href')).resolves.toBe(`/upload/${id}`)
    await expect(card.locator('a.media-link').getAttribute('href')).resolves.toBe(`/upload/${id}`)

    await mark(page)
    await card.locator('.description a').click()
    await page.waitForURL(`**/upload/${id}`)
    await expect(page.getByTestId('upload-description').textContent()).resolves.toContain(`Card link ${suffix}`)
    expect(await marked(page)).toBe('kept')

    await page.goBack()
    await page.waitForURL(`**/tags/${tag}`)
    await card.locator(`a.chip[href="/tags/${other}"]`).click()
    await page.waitForURL(`**/tags/${other}`)
    await expect(page.locator(`[data-testid="upload-card"][data-upload-id="${id}"]`).count()).resolves.toBe(1)
    expect(await marked(page)).toBe('kept')
    // The card is on both tags' pages: until the new page's list has come, the card shown may
    // still be the old list's, and a focus given to it is lost when the list is drawn again.
    // A card only the new list has says it has come (waiting for the network to settle did not,
    // once, on a loaded machine).
    await page.locator(`[data-testid="upload-card"][data-upload-id="${otherOnly}"]`).waitFor()

    const ownerLink = page.locator(`[data-testid="upload-card"][data-upload-id="${id}"] a[href="/user/${owner.username}"]`)
    await ownerLink.focus()
    await expect(page.evaluate(() => document.activeElement?.getAttribute('href'))).resolves.toBe(`/user/${owner.username}`)
    await page.keyboard.press('Enter')
    await page.waitForURL(`**/user/${owner.username}`)
    await page.locator('h1', { hasText: owner.username }).waitFor()
    expect(await marked(page)).toBe('kept')
    expect(errors).toEqual([])
    await page.close()
  })

  it('leave a modified click to the browser: a new tab, this page unchanged', async () => {
    const page = await context.newPage()
    await goto(page, `/tags/${tag}`)
    await mark(page)
    const opened = context.waitForEvent('page')
    await page.locator(`[data-testid="upload-card"][data-upload-id="${id}"] a.media-link`).click({ modifiers: ['ControlOrMeta'] })
    const tab = await opened
    await tab.waitForURL(`**/upload/${id}`)
    expect(new URL(page.url()).pathname).toBe(`/tags/${tag}`)
    expect(await marked(page)).toBe('kept')
    await tab.close()
    await page.close()
  })

  it('leave the home page\'s tag filter within the app, the current filter marked as the page', async () => {
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, `/?tags=${tag}`)
    const all = page.locator('nav.tag-filter a', { hasText: 'All' })
    await expect(all.getAttribute('href')).resolves.toBe('/')
    await expect(all.getAttribute('aria-current')).resolves.toBeNull()
    await mark(page)
    await all.click()
    await page.waitForURL(url => url.pathname === '/' && url.search === '')
    await expect(all.getAttribute('aria-current')).resolves.toBe('page')
    await expect(page.locator('nav.tag-filter a[aria-current]').count()).resolves.toBe(1)
    expect(await marked(page)).toBe('kept')
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('a card and the upload page', () => {
  it('draw the same rating bar and tag chips: the grid writes them inline, apart from their components', async () => {
    const viewer = await registerUser()
    const context = await signedInContext(browser, viewer)
    const voted = await seedLink(owner, { description: `Card markup ${suffix}`, tags: [tag, other], upvotes: 3, downvotes: 1 })
    const page = await context.newPage()
    const errors = watchErrors(page)
    /** The markup under `selector` as served, without what only Vue writes (its comments, scoped styles' attributes) and the upload page's `large`. */
    const markup = (selector: string) => page.locator(selector).evaluate((element) => {
      const copy = element.cloneNode(true) as Element
      const walker = document.createTreeWalker(copy, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_COMMENT)
      const comments: Node[] = []
      for (let node: Node | null = walker.currentNode; node; node = walker.nextNode()) {
        if (node.nodeType === Node.COMMENT_NODE) comments.push(node)
        else for (const name of (node as Element).getAttributeNames()) if (name.startsWith('data-v-')) (node as Element).removeAttribute(name)
      }
      comments.forEach(comment => comment.parentNode!.removeChild(comment))
      copy.classList.remove('large')
      return copy.outerHTML.replace(/\s+/g, ' ').replace(/> </g, '><')
    })

    await goto(page, `/tags/${tag}`)
    const card = `[data-testid="upload-card"][data-upload-id="${voted}"]`
    const inCard = { rating: await markup(`${card} .rating`), chips: await markup(`${card} .chips`) }
    await goto(page, `/upload/${voted}`)
    const onPage = { rating: await markup('[data-testid="upload-detail"] .rating'), chips: await markup('[data-testid="upload-detail"] .chips') }

    expect(inCard.rating).toContain('3 fucks')
    expect(inCard.chips).toContain('data-testid="hide-tag"')
    expect(onPage).toEqual(inCard)
    expect(errors).toEqual([])
    await context.close()
  })
})
