import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newContext } from '../support/browser'
import { goto, registerUser, seedLink, watchErrors } from './helpers'
import { sharedServer } from '../support/shared-server'

// The header's search box: suggestions as a term is typed, taken with the keyboard, the
// search page's results and its message for an invalid query.
const TAG = `find${randomUUID().slice(0, 6)}`
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
  const owner = await registerUser()
  await seedLink(owner, { tags: [TAG], description: 'A findable link' })
  await seedLink(owner, { tags: [TAG, `${TAG}-two`], description: 'Another findable link' })
})
afterAll(() => browser?.close())

describe('search in Chromium', () => {
  it('suggests tags as a term is typed, takes one with the keyboard, and shows the results', async () => {
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, '/')
    const box = page.getByRole('combobox', { name: 'Search uploads' })
    await box.pressSequentially(`${TAG}-t`)
    const option = page.getByRole('option', { name: new RegExp(`^${TAG}-two`) })
    await option.waitFor()
    expect(await box.getAttribute('aria-expanded')).toBe('true')
    await box.press('ArrowDown')
    expect(await box.getAttribute('aria-activedescendant')).toBe(await option.getAttribute('id'))
    await box.press('Enter')
    await expect(box.inputValue()).resolves.toBe(`${TAG}-two `)
    expect(await box.getAttribute('aria-expanded')).toBe('false')
    await box.press('Backspace')
    await box.pressSequentially(` OR ${TAG}`)
    await box.press('Escape')
    await box.press('Enter')
    await page.waitForURL(url => url.pathname === '/search' && url.searchParams.get('q') === `${TAG}-two OR ${TAG}`)
    await page.getByText('2 uploads').waitFor()
    // The count beside the heading, the feed link at the row's end.
    const [heading, count, feed, row] = await Promise.all(['#results-title', 'text=2 uploads', '[aria-labelledby=results-title] .feed-link', '[aria-labelledby=results-title] .section-title']
      .map(selector => page.locator(selector).boundingBox()))
    expect(count!.x - (heading!.x + heading!.width)).toBeLessThan(24)
    expect(row!.x + row!.width - (feed!.x + feed!.width)).toBeLessThan(1)

    // Another search from the search page changes the results in place: they are said,
    // and the new page title does not talk over them.
    const announced = () => page.locator('[data-testid=route-announcer]').textContent()
    await box.fill(`${TAG}-two`)
    await box.press('Escape')
    await box.press('Enter')
    await page.getByText('1 upload', { exact: true }).waitFor()
    await page.waitForFunction(title => document.title.startsWith(title), `Search: ${TAG}-two`)
    await page.evaluate(() => new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve))))
    await expect(announced()).resolves.toBe(`1 result for ${TAG}-two`)
    // Another ranking of the same results is said with its name.
    await page.click('[data-testid=sort-top]')
    await expect.poll(announced, { timeout: 10_000 }).toBe(`1 result for ${TAG}-two (Top, all time)`)
    // An invalid query, then a valid one: the results appear rather than change, and are said too.
    await box.fill(`${TAG}-two (`)
    await box.press('Escape')
    await box.press('Enter')
    await page.locator('[data-testid=search-error]').waitFor()
    await box.fill(`${TAG}-two`)
    await box.press('Escape')
    await box.press('Enter')
    await page.getByText('1 upload', { exact: true }).waitFor()
    await expect.poll(announced, { timeout: 10_000 }).toBe(`1 result for ${TAG}-two`)
    // The home page's feed says its ranking, with the page when there are several.
    await page.click('header a.logo')
    // The search page, with tabs of its own, stays until the home page's feed is ready.
    const homeFeed = page.locator('section.feed')
    await homeFeed.waitFor()
    await homeFeed.locator('[data-testid=sort-best]').click()
    await expect.poll(announced, { timeout: 10_000 }).toMatch(/^Best, all time(, page 1( of \d+)?)?$/)
    expect(errors).toEqual([])
    await context.close()
  })

  it('has one search box on the search page, on a phone too', async () => {
    for (const mobile of [false, true]) {
      const context = await newContext(browser, sharedServer().baseURL, { mobile })
      const page = await context.newPage()
      await goto(page, '/')
      expect(await page.locator('input[name=q]').count()).toBe(1)
      if (mobile) {
        // In the folded menu, the first Escape closes the suggestions only, the second the menu.
        await page.click('header .menu-button')
        await page.locator('#site-nav.open').waitFor()
        const box = page.getByRole('combobox', { name: 'Search uploads' })
        await box.pressSequentially(`${TAG}-t`)
        await page.getByRole('option', { name: new RegExp(`^${TAG}-two`) }).waitFor()
        await box.press('Escape')
        expect(await box.getAttribute('aria-expanded')).toBe('false')
        expect(await page.locator('#site-nav.open').count()).toBe(1)
        await box.press('Escape')
        expect(await page.locator('#site-nav.open').count()).toBe(0)
      }
      await goto(page, `/search?q=${TAG}`)
      // The header's box is left out: the page's own is the only one, and it holds the query.
      expect(await page.locator('input[name=q]').count()).toBe(1)
      expect(await page.locator('header input[name=q]').count()).toBe(0)
      await expect(page.locator('main input[name=q]').inputValue()).resolves.toBe(TAG)
      // The image search's file button looks like the page's buttons, not the browser's own.
      const looks = (element: Element, pseudo: string | null) => {
        const style = getComputedStyle(element, pseudo)
        return [style.backgroundColor, style.borderRadius, style.fontWeight, style.minHeight].join(' ')
      }
      const [fileButton, button] = await Promise.all([
        page.locator('[data-testid=image-search-file]').evaluate(looks, '::file-selector-button'),
        page.locator('[data-testid=image-search-form] button[type=submit]').evaluate(looks, null),
      ])
      expect(fileButton).toBe(button)
      if (mobile) {
        await page.click('header .menu-button')
        await page.locator('#site-nav.open').waitFor()
        expect(await page.locator('input[name=q]').count()).toBe(1)
      }
      await context.close()
    }
  })

  it('shows where an invalid query goes wrong', async () => {
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    await goto(page, `/search?q=${encodeURIComponent(`${TAG} votes:>x`)}`)
    const problem = page.getByTestId('search-error')
    expect((await problem.locator('p').textContent())?.trim()).toBe(`Invalid query: expected a whole number of 0 or more at character ${TAG.length + 9}.`)
    await expect(problem.locator('mark').textContent()).resolves.toBe('x')
    await context.close()
  })
})
