import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newContext } from '../support/browser'
import { sharedServer } from '../support/shared-server'
import { goto } from './helpers'

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

  it('gives each page its title and meta tags as the visitor moves between pages in the app', async () => {
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    const head = () => page.evaluate(() => ({
      title: document.title,
      description: document.querySelectorAll('meta[name=description]').length + ' ' + document.querySelector('meta[name=description]')?.getAttribute('content'),
      robots: document.querySelector('meta[name=robots]')?.getAttribute('content') ?? null,
      og: [...document.querySelectorAll('meta[property^="og:"]')].map(meta => `${meta.getAttribute('property')}=${meta.getAttribute('content')}`),
    }))
    const home = {
      title: 'Does It Fuck?',
      description: '1 Upload anything, and let everyone vote: does it fuck or does it not?',
      robots: null,
      og: ['og:site_name=Does It Fuck?', 'og:type=website', 'og:title=Does It Fuck?', 'og:description=Upload anything, and let everyone vote: does it fuck or does it not?'],
    }
    await goto(page, '/')
    await expect(head()).resolves.toEqual(home)

    await page.click('header a[href="/login"]')
    await page.waitForFunction(() => document.title === 'Sign in · Does It Fuck?')
    await expect(head()).resolves.toEqual({
      title: 'Sign in · Does It Fuck?',
      description: '1 Vote on whether it fucks or does not fuck.',
      robots: 'noindex',
      og: ['og:site_name=Does It Fuck?', 'og:type=website'],
    })

    await page.goBack()
    await page.waitForFunction(() => document.title === 'Does It Fuck?')
    await expect(head()).resolves.toEqual(home)

    // The hero's link is a plain one, followed within the app: the window is the same one after it.
    await page.evaluate(() => Object.assign(window, { stayedInApp: true }))
    await page.click('section.hero a:has-text("Join and upload")')
    await page.waitForFunction(() => document.title === 'Create an account · Does It Fuck?')
    expect(new URL(page.url()).pathname).toBe('/register')
    await expect(page.evaluate(() => (window as unknown as { stayedInApp?: boolean }).stayedInApp)).resolves.toBe(true)
    await context.close()
  })
})
