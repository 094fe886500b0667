import { randomBytes, randomUUID } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import * as OTPAuth from 'otpauth'
import { expect } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { api, registerUser, type TestUser } from '../support/api'
import { newContext } from '../support/browser'
import { ROOT } from '../support/server'
import { seedUpload } from '../support/seed'
import { sharedServer } from '../support/shared-server'

export const SCREENSHOT_DIR = join(ROOT, 'tests/browser/__screenshots__')

/** A real PNG of random noise: its exact and perceptual hashes differ from every other upload. */
export async function noisePng(width = 320, height = 240): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png().toBuffer()
}

/** A real PNG picture (a gradient with shapes), nicer than noise for screenshots; `hue` makes each one differ. */
export async function picturePng(hue: number, width = 960, height = 640): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},80%,60%)"/><stop offset="1" stop-color="hsl(${(hue + 120) % 360},70%,35%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width * 0.3}" cy="${height * 0.45}" r="${height * 0.22}" fill="hsl(${(hue + 60) % 360},90%,75%)" opacity="0.85"/>
    <rect x="${width * 0.55}" y="${height * 0.3}" width="${width * 0.28}" height="${height * 0.4}" rx="24" fill="white" opacity="0.35"/>
  </svg>`
  return sharp(Buffer.from(svg)).png().toBuffer()
}

/** A browser context signed in as `user` (the auth-token cookie set directly). */
export async function signedInContext(browser: Browser, user: TestUser, options: { mobile?: boolean, baseURL?: string } = {}): Promise<BrowserContext> {
  const baseURL = options.baseURL ?? sharedServer().baseURL
  const context = await newContext(browser, baseURL, options)
  await context.addCookies([{ name: 'auth-token', value: user.token, url: baseURL, httpOnly: true, sameSite: 'Lax' }])
  return context
}

/** The session JWT the browser holds, to ask the API what it now reports. */
export async function sessionToken(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find(c => c.name === 'auth-token')
  if (!cookie) throw new Error('no auth-token cookie in the browser')
  return cookie.value
}

/** Collects console errors and uncaught exceptions of a page (failed resource loads excluded). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', error => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text())
  })
  return errors
}

/** Waits until Nuxt has hydrated the page, so clicks reach Vue's handlers. */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const app = (window as unknown as { useNuxtApp?: () => { isHydrating?: boolean } }).useNuxtApp
    const root = document.querySelector('#__nuxt') as (Element & { __vue_app__?: unknown }) | null
    return Boolean(root?.__vue_app__) && !(app?.().isHydrating)
  })
}

/**
 * Waits until a tag box shows the suggestions for what it holds: they arrive a moment
 * after each key and can move the buttons below the box, so a click aimed before
 * would land on a suggestion.
 */
export async function tagSuggestionsSettled(page: Page, inputId: string): Promise<void> {
  await page.waitForSelector(`.tag-input:has(#${inputId}):not([aria-busy])`)
}

export async function goto(page: Page, path: string) {
  const response = await page.goto(path)
  await hydrated(page)
  return response
}

/** Creates an upload through the API (link, or a fresh noise image) and returns its id. */
export async function createUpload(user: TestUser, options: { link?: string, image?: Buffer, description?: string, tags?: string, isPrivate?: boolean } = {}): Promise<string> {
  const form = new FormData()
  form.set('description', options.description ?? `Test upload ${randomUUID().slice(0, 8)}`)
  if (options.tags) form.set('tags', options.tags)
  if (options.isPrivate) form.set('is_private', 'true')
  if (options.link) {
    form.set('upload_type', 'link')
    form.set('external_url', options.link)
  }
  else {
    form.set('upload_type', 'image')
    form.set('file', new Blob([new Uint8Array(options.image ?? await noisePng())], { type: 'image/png' }), 'picture.png')
  }
  const response = await api('/api/upload', { method: 'POST', body: form, token: user.token })
  expect(response.status, JSON.stringify(response.body)).toBe(201)
  return response.body.upload.id as string
}

/** A public (or private) link upload written straight into the server's database: a fixture, not the flow under test. */
export function seedLink(owner: TestUser, options: { url?: string, description?: string, tags?: string[], isPrivate?: boolean, upvotes?: number, downvotes?: number } = {}): Promise<string> {
  return seedUpload(owner, {
    uploadType: 'link',
    externalUrl: options.url ?? `https://example.com/${randomUUID()}`,
    description: options.description ?? `Seeded link ${randomUUID().slice(0, 8)}`,
    tags: options.tags,
    isPrivate: options.isPrivate,
    upvotes: options.upvotes,
    downvotes: options.downvotes,
  })
}

/** The upload as the API reports it to `user` (or anonymously). */
export async function fetchUpload(id: string, user?: TestUser) {
  return api(`/api/upload/${id}`, { token: user?.token })
}

/** A TOTP code of `secret` for the step `stepOffset` steps from now. */
export function totp(secret: string, stepOffset = 0): string {
  const generator = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' })
  return generator.generate({ timestamp: Date.now() + stepOffset * 30_000 })
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true })
}

/** The answer of the next POST /api/duel the page sends. */
export const duelJudged = (page: Page) => page.waitForResponse(response => response.url().endsWith('/api/duel') && response.request().method() === 'POST')

/**
 * Waits for the result of the pair just judged to show, then to go. The answer reaches the
 * test before the page has shown it, so waiting only for it to be gone would pass at once.
 */
export async function duelResultPassed(page: Page) {
  await page.locator('[data-testid=duel-change]').first().waitFor()
  await page.locator('[data-testid=duel-change]').first().waitFor({ state: 'detached' })
}

export { registerUser }
