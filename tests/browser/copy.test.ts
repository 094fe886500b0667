import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newContext } from '../support/browser'
import { seedUpload } from '../support/seed'
import { createUpload, goto, registerUser, signedInContext, tagSuggestionsSettled } from './helpers'
import { sharedServer } from '../support/shared-server'

/** The site's wording in a few places, each as a person reads it. */
let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

describe('copy', () => {
  it('says once that a reset link is on its way', async () => {
    const user = await registerUser()
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    await goto(page, '/forgot-password')
    await page.fill('#email', user.email)
    await page.click('button[type=submit]')
    const sent = page.locator('[role=status]')
    await sent.waitFor()
    expect((await sent.innerText()).trim()).toBe(`If an account uses ${user.email}, an e-mail with a reset link is on its way. The link works for one hour.`)
    await context.close()
  })

  it('shows "Added 2 tags." under the tag form, not under "Delete upload"', async () => {
    const owner = await registerUser()
    const id = await createUpload(owner, { link: 'https://example.com/tag-me', description: 'Tag me' })
    const context = await signedInContext(browser, owner)
    const page = await context.newPage()
    await goto(page, `/upload/${id}`)
    await page.fill('#add-tags-input', 'first')
    await page.keyboard.press('Enter')
    await page.fill('#add-tags-input', 'second')
    await tagSuggestionsSettled(page, 'add-tags-input')
    await page.click('button:has-text("Save tags")')
    const status = page.locator('form.add-tags [role=status]')
    await page.waitForFunction(() => document.querySelector('form.add-tags [role=status]')?.textContent?.trim() === 'Added 2 tags.')
    expect((await status.innerText()).trim()).toBe('Added 2 tags.')
    expect(await page.locator('.danger').innerText()).not.toContain('Added')
    expect(await page.locator('.privacy-section').innerText()).not.toContain('Added')
    await context.close()
  })

  it('counts "1 fuck" and "2 fucks", "0 against" and "1 against", and "1 says" in words', async () => {
    const owner = await registerUser()
    const one = await seedUpload(owner, { description: 'one of each', uploadType: 'link', externalUrl: 'https://example.com/one', upvotes: 1, downvotes: 1 })
    const two = await seedUpload(owner, { description: 'two fucks', uploadType: 'link', externalUrl: 'https://example.com/two', upvotes: 2, downvotes: 0 })
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    await goto(page, `/upload/${one}`)
    expect((await page.locator('[data-testid=upvotes]').innerText()).trim()).toBe('1 fuck')
    expect((await page.locator('[data-testid=downvotes]').innerText()).trim()).toBe('1 against')
    expect(await page.locator('.rating .bar').getAttribute('aria-label')).toBe('1 says it fucks, 1 says it does not')
    expect(await page.locator('meta[property="og:description"]').getAttribute('content')).toBe('1 says it fucks, 1 says it does not. Cast your vote.')
    await goto(page, `/upload/${two}`)
    expect((await page.locator('[data-testid=upvotes]').innerText()).trim()).toBe('2 fucks')
    expect((await page.locator('[data-testid=downvotes]').innerText()).trim()).toBe('0 against')
    expect(await page.locator('.rating .bar').getAttribute('aria-label')).toBe('2 say it fucks, 0 say it does not')
    // The cards of a list read the same.
    await goto(page, `/user/${owner.username}`)
    expect((await page.locator(`[data-upload-id="${two}"] [data-testid=downvotes]`).innerText()).trim()).toBe('0 against')
    expect((await page.locator(`[data-upload-id="${one}"] [data-testid=upvotes]`).innerText()).trim()).toBe('1 fuck')
    await context.close()
  })
})
