import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { makeAdmin } from '../support/seed'
import { goto, registerUser, signedInContext, watchErrors } from './helpers'
import type { TestUser } from '../support/api'

/**
 * The header fits the screen with the most it holds (an admin with a 30-character
 * name) from the narrowest unfolded width up, and its two disclosures (the
 * account's pages, the folded menu on a phone) open and close by mouse and key.
 */
describe('the site header', () => {
  let browser: Browser
  let admin: TestUser
  beforeAll(async () => {
    browser = await launchBrowser()
    admin = await makeAdmin(await registerUser({ username: `a${randomUUID().replaceAll('-', '').slice(0, 29)}` }))
  })
  afterAll(() => browser?.close())

  const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth)
  const expanded = (page: Page, selector: string) => page.getAttribute(selector, 'aria-expanded')
  const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.getAttribute('aria-controls'))

  it('fits a laptop screen signed in as an admin with a long name', async () => {
    expect(admin.username).toHaveLength(30)
    const context = await signedInContext(browser, admin)
    const page = await context.newPage()
    for (const width of [1181, 1366]) {
      await page.setViewportSize({ width, height: 900 })
      await goto(page, '/')
      expect(await pageWidth(page), `at ${width} px`).toBe(width)
      const right = await page.locator('[data-testid=header-user]').evaluate(el => el.getBoundingClientRect().right)
      expect(right).toBeLessThanOrEqual(width)
    }
    await context.close()
  })

  it('opens the account\'s pages from its name, closed again by Escape, a click elsewhere or the keyboard', async () => {
    const context = await signedInContext(browser, admin)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, '/')
    const account = '[data-testid=header-user]'
    expect(await expanded(page, account)).toBe('false')
    expect(await page.isVisible('[data-testid=header-my-uploads]')).toBe(false)
    await page.click(account)
    expect(await expanded(page, account)).toBe('true')
    expect(await page.locator('#account-menu :is(a, button)').allInnerTexts()).toEqual(['Your profile', 'My uploads', 'Favourites', 'Settings', 'Sign out'])
    await page.keyboard.press('Escape')
    expect(await expanded(page, account)).toBe('false')
    expect(await focused(page)).toBe('header-user')

    await page.click(account)
    await page.click('main h1, main h2')
    expect(await expanded(page, account)).toBe('false')

    await page.focus(account)
    await page.keyboard.press('Enter')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    expect(await focused(page)).toBe('header-my-uploads')
    await page.keyboard.press('Enter')
    await page.waitForURL(url => url.pathname === '/my-uploads')
    expect(await expanded(page, account)).toBe('false')
    // A page reached within the app is announced by its title, as a page load would be.
    await page.waitForFunction(() => document.querySelector('[data-testid=route-announcer]')?.textContent === document.title && document.title.startsWith('My uploads'))
    expect(errors).toEqual([])
    await context.close()
  })

  it('on a phone: the folded menu lists the account flat and closes on Escape; a long name wraps', async () => {
    const context = await signedInContext(browser, admin, { mobile: true })
    const page = await context.newPage()
    await goto(page, `/user/${admin.username}`)
    expect(await pageWidth(page)).toBe(390)
    const menu = 'button[aria-controls=site-nav]'
    await page.click(menu)
    expect(await expanded(page, menu)).toBe('true')
    expect(await page.isVisible('[data-testid=header-sign-out]')).toBe(true)
    expect(await page.isVisible('[data-testid=header-user]')).toBe(false)
    expect(await pageWidth(page)).toBe(390)
    await page.keyboard.press('Escape')
    expect(await expanded(page, menu)).toBe('false')
    expect(await focused(page)).toBe('site-nav')
    // Escape closes it with the focus outside the header too, and the keyboard leaving the
    // header closes it, which would otherwise cover the control it went to.
    await page.click(menu)
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await page.keyboard.press('Escape')
    expect(await expanded(page, menu)).toBe('false')
    await page.click(menu)
    await page.focus('main a')
    await expect.poll(() => expanded(page, menu)).toBe('false')
    await context.close()
  })
})
