import { afterAll, beforeAll, expect } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { api, type TestUser } from '../support/api'
import { launchBrowser, newContext } from '../support/browser'
import { enableMfa, requestResetToken } from '../support/accounts'
import { makeAdmin } from '../support/seed'
import { createUpload, noisePng, registerUser, seedLink, signedInContext } from './helpers'
import { sharedServer } from '../support/shared-server'

export type Who = 'guest' | 'owner' | 'admin'
export interface Fixtures {
  owner: TestUser
  admin: TestUser
  imageId: string
  linkId: string
  tag: string
  /** A live password-reset token of an account with MFA on (never used: the reset page is only shown). */
  resetToken: string
}
export interface PageCase {
  name: string
  path: (f: Fixtures) => string
  as: Who
  /** Brings the page into a further state worth auditing (open forms, shown errors). */
  then?: (page: Page) => Promise<void>
  status?: number
  /**
   * How many Tab stops the accessibility walk takes (80 unless said): a page that only
   * re-orders another's cards walks to past its own controls and first cards.
   */
  tabStops?: number
}

/** Every page of the site, signed out and in, plus the states that add controls. */
export const PAGES: PageCase[] = [
  { name: 'home', path: () => '/', as: 'guest' },
  { name: 'home (signed in)', path: () => '/', as: 'owner' },
  { name: 'home page 2', path: () => '/?page=2', as: 'guest', tabStops: 30 },
  { name: 'sign in', path: () => '/login', as: 'guest', then: async (page) => {
    await page.click('button[type=submit]')
    await page.locator('#email-error').waitFor()
  } },
  { name: 'register', path: () => '/register', as: 'guest', then: async (page) => {
    await page.click('button[type=submit]')
    await page.locator('#email-error').waitFor()
  } },
  { name: 'forgot password', path: () => '/forgot-password', as: 'guest', then: async (page) => {
    await page.click('button[type=submit]')
    await page.locator('#email-error').waitFor()
  } },
  { name: 'reset password', path: f => `/reset-password?token=${f.resetToken}`, as: 'guest', then: async (page) => {
    await page.locator('#mfa-code').waitFor()
    await page.click('button[type=submit]')
    await page.locator('#password-error').waitFor()
  } },
  { name: 'reset password, link no longer valid', path: () => `/reset-password?token=${'a'.repeat(64)}`, as: 'guest', then: async (page) => {
    await page.locator('[data-testid=reset-token-invalid]').waitFor()
  } },
  { name: 'reset password without token', path: () => '/reset-password', as: 'guest' },
  // A token posted from the page would be used up (or answer 400, which the console walk counts): only the page without one.
  { name: 'verify e-mail without token', path: () => '/verify-email', as: 'guest' },
  { name: 'verify e-mail without token (signed in, with the banner)', path: () => '/verify-email', as: 'owner' },
  { name: 'OAuth MFA step', path: () => '/auth/mfa', as: 'guest' },
  { name: 'API docs', path: () => '/docs', as: 'guest', then: async (page) => {
    await page.locator('details.op summary').first().click()
  } },
  { name: 'tag page', path: f => `/tags/${f.tag}`, as: 'guest' },
  { name: 'search results', path: f => `/search?q=${encodeURIComponent(f.tag)}`, as: 'guest' },
  { name: 'search with an invalid query', path: () => '/search?q=votes%3A%3Ex', as: 'guest' },
  { name: 'search help', path: () => '/search/help', as: 'guest' },
  { name: 'user page', path: f => `/user/${f.owner.username}`, as: 'guest' },
  { name: 'image upload', path: f => `/upload/${f.imageId}`, as: 'guest' },
  { name: 'link upload', path: f => `/upload/${f.linkId}`, as: 'guest' },
  { name: 'image upload (owner)', path: f => `/upload/${f.imageId}`, as: 'owner' },
  { name: 'link upload (admin)', path: f => `/upload/${f.linkId}`, as: 'admin' },
  { name: 'link upload (admin): edit form and history', path: f => `/upload/${f.linkId}`, as: 'admin', then: async (page) => {
    await page.click('[data-testid=edit-upload]')
    await page.click('[data-testid=history-toggle]')
    await page.locator('[data-testid=edit-form]').waitFor()
    await page.locator('[data-testid=history-list]').waitFor({ state: 'attached' })
  } },
  { name: 'upload: report dialog', path: f => `/upload/${f.linkId}`, as: 'guest', then: async (page) => {
    await page.click('[data-testid=report-open]')
    await page.locator('[data-testid=report-dialog]').waitFor()
  } },
  { name: 'new upload: file', path: () => '/upload/new', as: 'owner', then: async (page) => {
    await page.click('button[type=submit]')
    await page.locator('.field-error').first().waitFor()
  } },
  { name: 'new upload: image URL', path: () => '/upload/new', as: 'owner', then: async (page) => {
    await page.click('label:has(input[value=image_url])')
    await page.locator('#image-url').waitFor()
  } },
  { name: 'new upload: link', path: () => '/upload/new', as: 'owner', then: async (page) => {
    await page.click('label:has(input[value=link])')
    await page.fill('#link-url', 'https://example.com/a-link')
    await page.locator('[data-testid=link-preview]').waitFor()
  } },
  { name: 'vote mode', path: () => '/vote', as: 'guest', then: async (page) => {
    await page.locator('[data-testid=vote-mode-upload], [data-testid=vote-mode-done]').first().waitFor()
  } },
  { name: 'vote mode (signed in)', path: () => '/vote', as: 'owner', then: async (page) => {
    await page.locator('[data-testid=vote-mode-upload], [data-testid=vote-mode-done]').first().waitFor()
  } },
  { name: 'this or that', path: () => '/duel', as: 'guest', then: async (page) => {
    await page.locator('[data-testid=duel-pair], [data-testid=duel-done]').first().waitFor()
  } },
  { name: 'this or that leaderboard', path: () => '/duel/leaderboard', as: 'guest' },
  { name: 'home ranked by best this week', path: () => '/?sort=best&period=week', as: 'guest', tabStops: 30 },
  { name: 'my uploads', path: () => '/my-uploads', as: 'owner' },
  { name: 'favourites', path: () => '/favourites', as: 'owner' },
  { name: 'user page: favourites', path: f => `/user/${f.owner.username}?tab=favourites`, as: 'guest' },
  { name: 'settings', path: () => '/settings', as: 'owner' },
  { name: 'settings: MFA set-up', path: () => '/settings', as: 'owner', then: async (page) => {
    await page.click('[data-testid=mfa-start]')
    await page.locator('[data-testid=mfa-qr]').waitFor()
  } },
  { name: 'admin', path: () => '/admin', as: 'admin' },
  { name: 'admin: reports', path: () => '/admin?tab=reports', as: 'admin', then: async (page) => {
    await page.locator('[data-testid=report-resolve]').first().click()
    await page.locator('[data-testid=report-resolve-form]').waitFor()
  } },
  { name: 'admin: log', path: () => '/admin?tab=log', as: 'admin' },
  { name: 'not found', path: () => '/no/such/page', as: 'guest', status: 404 },
  { name: 'admin, signed in without being one', path: () => '/admin', as: 'owner', status: 403 },
]

/** An owner with a tagged image and link upload and an API token (the settings page then shows a table of them), and an admin. */
export async function siteFixtures(): Promise<Fixtures> {
  const owner = await registerUser()
  const admin = await makeAdmin(await registerUser())
  const tag = `site-${owner.id.slice(0, 6)}`
  const imageId = await createUpload(owner, { image: await noisePng(480, 320), description: 'A picture', tags: `${tag},colour` })
  const linkId = await seedLink(owner, { url: 'https://example.com/a-page', description: 'A link', tags: [tag] })
  expect((await api('/api/auth/tokens/generate', { method: 'POST', token: owner.token, body: { name: 'backup script on the home server' } })).status).toBe(201)
  await seedLink(owner, { url: 'https://example.com/a-private-page', description: 'A private link', isPrivate: true })
  // A report in the admin queue, and a moderation log entry.
  await api(`/api/upload/${linkId}/report`, { method: 'POST', body: { reason: 'spam', details: 'A sample report' }, token: admin.token })
  const banned = await registerUser()
  await api(`/api/admin/users/${banned.id}/shadow-ban`, { method: 'POST', body: { shadowBanned: true }, token: admin.token })
  const mfaUser = await enableMfa(await registerUser())
  const resetToken = await requestResetToken(sharedServer().dataDir, mfaUser.email)
  return { owner, admin, imageId, linkId, tag, resetToken }
}

/**
 * The tabs of a walk: a test takes one of a context, and hands it back once it passed, for
 * the next test of that context. Opening a tab costs Chromium more CPU than showing most
 * pages.
 */
function tabPool() {
  const idle = new Map<BrowserContext, Page[]>()
  return {
    async take(context: BrowserContext): Promise<Page> {
      return idle.get(context)?.pop() ?? context.newPage()
    },
    /**
     * Hands a tab back, as a new one would be: without the test's listeners, with the
     * site's session storage cleared, showing about:blank. A tab that will not leave its
     * page is closed instead.
     */
    async give(page: Page): Promise<void> {
      for (const event of ['console', 'pageerror', 'request', 'requestfinished', 'requestfailed', 'response'] as const) page.removeAllListeners(event)
      try {
        await page.evaluate(() => sessionStorage.clear())
        await page.goto('about:blank', { timeout: 5_000 })
      }
      catch {
        await page.close()
        return
      }
      idle.set(page.context(), [...idle.get(page.context()) ?? [], page])
    },
  }
}

/**
 * For a describe block that walks PAGES: one browser and one set of fixtures,
 * and one context per (variant, who) made on first use, `prepare` run on it once
 * (theme cookie, init scripts); tests running side by side share it. Everything
 * is closed after the block.
 */
export function sitePageSession() {
  let browser: Browser | undefined
  let fixtures: Fixtures | undefined
  const contexts = new Map<string, Promise<BrowserContext>>()
  const tabs = tabPool()
  beforeAll(async () => {
    browser = await launchBrowser()
    fixtures = await siteFixtures()
  })
  afterAll(async () => {
    for (const context of contexts.values()) await (await context.catch(() => null))?.close()
    await browser?.close()
  })
  return {
    get browser() {
      return browser!
    },
    get fixtures() {
      return fixtures!
    },
    /** The context of a variant for `who`: a phone's (`PHONE`, tests/support/browser.ts) when `mobile`. */
    async contextFor(variant: string, who: Who, { prepare, mobile = false }: { prepare?: (context: BrowserContext, baseURL: string) => Promise<void>, mobile?: boolean } = {}) {
      const key = `${variant}:${who}`
      let context = contexts.get(key)
      if (!context) {
        const baseURL = sharedServer().baseURL
        context = (who === 'guest' ? newContext(browser!, baseURL, { mobile }) : signedInContext(browser!, who === 'owner' ? fixtures!.owner : fixtures!.admin, { mobile }))
          .then(async (made) => {
            await prepare?.(made, baseURL)
            return made
          })
        contexts.set(key, context)
      }
      return context
    },
    /** A tab of one of the walk's contexts, and its hand-back once its test passed (`tabPool`). */
    take: (context: BrowserContext) => tabs.take(context),
    release: (page: Page) => tabs.give(page),
  }
}
