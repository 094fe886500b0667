import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { seedUpload } from '../support/seed'
import { goto, registerUser, seedLink, signedInContext, watchErrors } from './helpers'

describe('My uploads', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('is reached from the header menu by keyboard and shows the private upload marked Private', async () => {
    const owner = await registerUser()
    const publicId = await seedLink(owner, { description: 'My public link' })
    const privateId = await seedLink(owner, { description: 'My secret link', isPrivate: true })
    const context = await signedInContext(browser, owner)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, '/')

    // The public profile never lists the private upload: only My uploads does.
    await page.click('[data-testid=header-user]')
    await page.focus('[data-testid=header-my-uploads]')
    await expect(page.innerText('[data-testid=header-my-uploads]')).resolves.toContain('My uploads')
    await page.keyboard.press('Enter')
    await page.waitForURL(url => url.pathname === '/my-uploads')
    const secret = page.locator(`[data-testid=upload-card][data-upload-id="${privateId}"]`)
    await secret.waitFor()
    await expect(page.innerText('h1')).resolves.toBe('My uploads')
    await expect(secret.locator('.badge').innerText()).resolves.toBe('Private')
    await expect(secret.innerText()).resolves.toContain('My secret link')
    const open = page.locator(`[data-testid=upload-card][data-upload-id="${publicId}"]`)
    await expect(open.locator('.badge').count()).resolves.toBe(0)
    await expect(page.locator('.upload-grid > li').count()).resolves.toBe(2)
    await expect(page.innerText('main')).resolves.toContain('2 uploads in all.')

    // Keyboard: the private card's link is reachable and opens the upload.
    await secret.locator('.description a').focus()
    await page.keyboard.press('Enter')
    await page.waitForURL(url => url.pathname === `/upload/${privateId}`)
    expect(errors).toEqual([])
    await context.close()
  })

  it('is in the folded header menu on a phone', async () => {
    const owner = await registerUser()
    const privateId = await seedLink(owner, { description: 'Phone secret', isPrivate: true })
    const context = await signedInContext(browser, owner, { mobile: true })
    const page = await context.newPage()
    await goto(page, '/')
    await expect(page.isVisible('[data-testid=header-my-uploads]')).resolves.toBe(false)
    await page.click('button[aria-controls=site-nav]')
    await page.click('[data-testid=header-my-uploads]')
    const secret = page.locator(`[data-testid=upload-card][data-upload-id="${privateId}"]`)
    await secret.waitFor()
    await expect(secret.locator('.badge').innerText()).resolves.toBe('Private')
    await expect(page.isVisible('[data-testid=header-my-uploads]')).resolves.toBe(false)
    await context.close()
  })

  it('pages through the uploads and shows an empty state only when there are none', async () => {
    const owner = await registerUser()
    for (let i = 0; i < 13; i++) {
      await seedUpload(owner, {
        uploadType: 'link', externalUrl: `https://example.com/mine-${i}`, description: `Link number ${i}`,
        // In the past: the shared server's home feed must still show what later tests upload now.
        isPrivate: i === 0, createdAt: new Date(Date.UTC(2020, 0, 1, 0, i)).toISOString(),
      })
    }
    const context = await signedInContext(browser, owner)
    const page = await context.newPage()
    await goto(page, '/my-uploads')
    await expect(page.locator('.upload-grid > li').count()).resolves.toBe(12)
    await expect(page.innerText('nav[aria-label=Pages]')).resolves.toContain('Page 1 of 2')
    // The live region is empty as served, and a page load says nothing there.
    const announced = () => page.locator('[data-testid=route-announcer]').textContent()
    await expect(announced()).resolves.toBe('')
    await page.click('a[rel=next]')
    await page.waitForURL(url => url.searchParams.get('page') === '2')
    // The URL changes before the new page renders: wait for page 2's one card.
    await page.waitForFunction(() => document.querySelectorAll('.upload-grid > li').length === 1)
    await expect(page.locator('.upload-grid > li').count()).resolves.toBe(1)
    // The page shown in place is said, as the page it shows.
    await expect.poll(announced).toBe('Page 2 of 2')
    // The oldest is the private one.
    await expect(page.locator('.upload-grid .badge').innerText()).resolves.toBe('Private')

    // Sorting by name (a link's name is its URL) starts again at page 1 and puts mine-0 first.
    await page.selectOption('#my-sort', 'name')
    await page.waitForURL(url => url.searchParams.get('sort') === 'name' && !url.searchParams.has('page'))
    await page.waitForFunction(() => document.querySelectorAll('.upload-grid > li').length === 12)
    await expect.poll(announced).toBe('Page 1 of 2')
    await expect(page.locator('.upload-grid .description').first().innerText()).resolves.toBe('Link number 0')
    await expect(page.locator('.upload-grid > li').first().locator('.badge').innerText()).resolves.toBe('Private')
    // The public per-user page sorts the same way, without the private upload.
    await goto(page, `/user/${owner.username}`)
    await page.selectOption('#sort', 'name')
    await page.waitForURL(url => url.searchParams.get('sort') === 'name')
    await page.waitForFunction(() => document.querySelector('.upload-grid .description')?.textContent?.trim() === 'Link number 1')
    await expect(page.locator('.upload-grid .badge').count()).resolves.toBe(0)
    await context.close()

    const newcomer = await registerUser()
    const fresh = await signedInContext(browser, newcomer)
    const empty = await fresh.newPage()
    await goto(empty, '/my-uploads')
    await expect(empty.innerText('.empty')).resolves.toBe('You have not uploaded anything yet.')
    await fresh.close()
  })

  it('says a failed load failed, never "nothing uploaded"', async () => {
    const owner = await registerUser()
    await seedLink(owner)
    const context = await signedInContext(browser, owner)
    const page = await context.newPage()
    await goto(page, '/')
    await page.route('**/api/profile/uploads**', route => route.fulfill({
      status: 503, contentType: 'application/json', headers: { 'retry-after': '5' },
      body: JSON.stringify({ statusCode: 503, statusMessage: 'Service Unavailable', message: 'Database unavailable' }),
    }))
    await page.click('[data-testid=header-user]')
    await page.click('[data-testid=header-my-uploads]')
    await page.waitForURL(url => url.pathname === '/my-uploads')
    await page.locator('[data-testid=load-error]').waitFor()
    await expect(page.innerText('[data-testid=load-error]')).resolves.toContain('Your uploads could not be loaded.')
    await expect(page.locator('.empty').count()).resolves.toBe(0)
    // Try again, once the API answers.
    await page.unroute('**/api/profile/uploads**')
    await page.click('[data-testid=load-error] button')
    await page.locator('[data-testid=upload-card]').waitFor()
    await expect(page.locator('[data-testid=load-error]').count()).resolves.toBe(0)
    await context.close()
  })

  it('sends a signed-out visitor to sign in', async () => {
    const owner = await registerUser()
    const context = await signedInContext(browser, owner)
    await context.clearCookies()
    const page = await context.newPage()
    await goto(page, '/my-uploads')
    expect(new URL(page.url()).pathname).toBe('/login')
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/my-uploads')
    await context.close()
  })
})
