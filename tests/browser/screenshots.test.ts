import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newContext } from '../support/browser'
import { createUpload, goto, registerUser, screenshot, signedInContext } from './helpers'
import type { TestUser } from '../support/api'

/** Screenshots for a person to look at (tests/browser/__screenshots__, git-ignored). */
describe('screenshots at desktop and mobile widths', () => {
  let browser: Browser
  let user: TestUser
  beforeAll(async () => {
    browser = await launchBrowser()
    user = await registerUser()
  })
  afterAll(() => browser?.close())

  it('home', async () => {
    for (const mobile of [false, true]) {
      const context = await newContext(browser, inject('baseURL'), { mobile })
      const page = await context.newPage()
      expect((await goto(page, '/'))?.status()).toBe(200)
      await page.waitForLoadState('networkidle')
      await screenshot(page, `home-${mobile ? 'mobile' : 'desktop'}`)
      await context.close()
    }
  })

  it('settings', async () => {
    for (const mobile of [false, true]) {
      const context = await signedInContext(browser, user, { mobile })
      const page = await context.newPage()
      expect((await goto(page, '/settings'))?.status()).toBe(200)
      await page.waitForLoadState('networkidle')
      await screenshot(page, `settings-${mobile ? 'mobile' : 'desktop'}`)
      await context.close()
    }
  })

  it('upload page', async () => {
    const id = await createUpload(user, { description: 'A screenshot subject with a few words of description', tags: 'noise,art' })
    for (const mobile of [false, true]) {
      const context = await signedInContext(browser, user, { mobile })
      const page = await context.newPage()
      expect((await goto(page, `/upload/${id}`))?.status()).toBe(200)
      await page.waitForLoadState('networkidle')
      await screenshot(page, `upload-${mobile ? 'mobile' : 'desktop'}`)
      await context.close()
    }
  })
})
