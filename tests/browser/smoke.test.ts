import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newContext } from '../support/browser'
import { sharedServer } from '../support/shared-server'

describe('home page in Chromium', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('renders and hydrates without console errors', async () => {
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    const errors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    page.on('pageerror', error => errors.push(error.message))
    const response = await page.goto('/')
    expect(response?.status()).toBe(200)
    await expect(page.title()).resolves.toContain('Does It Fuck?')
    await page.waitForFunction(() => Boolean((window as unknown as { useNuxtApp?: unknown }).useNuxtApp) || document.querySelector('#__nuxt')?.hasChildNodes())
    expect(errors).toEqual([])
    await context.close()
  })
})
