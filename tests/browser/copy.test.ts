import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newContext } from '../support/browser'
import { goto, registerUser } from './helpers'

/** issue 15's small copy fixes, each as a person reads it. */
let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

describe('copy', () => {
  it('says once that a reset link is on its way', async () => {
    const user = await registerUser()
    const context = await newContext(browser, inject('baseURL'))
    const page = await context.newPage()
    await goto(page, '/forgot-password')
    await page.fill('#email', user.email)
    await page.click('button[type=submit]')
    const sent = page.locator('[role=status]')
    await sent.waitFor()
    expect((await sent.innerText()).trim()).toBe(`If an account uses ${user.email}, an e-mail with a reset link is on its way. The link works for one hour.`)
    await context.close()
  })
})
