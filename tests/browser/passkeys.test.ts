import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { enableMfa } from '../support/accounts'
import { api, registerUser, type TestUser } from '../support/api'
import { CHROMIUM_PATH } from '../support/browser'
import { freePort, startServer, type RunningServer } from '../support/server'
import { hydrated, watchErrors } from './helpers'

/**
 * Passkeys in real Chromium with a virtual authenticator (CDP WebAuthn domain).
 * WebAuthn needs a secure context and a domain name as RP ID, so this file runs
 * its own server whose site URL is http://localhost:<port> (an IP address is
 * not a valid RP ID); Chromium resolves localhost to the 127.0.0.1 it listens on.
 */
describe('passkeys in the browser', () => {
  let browser: Browser
  let server: RunningServer
  let site: string

  beforeAll(async () => {
    const port = await freePort()
    site = `http://localhost:${port}`
    server = await startServer({ PORT: String(port), NUXT_PUBLIC_SITE_URL: site })
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
        '--host-resolver-rules=MAP localhost 127.0.0.1',
      ],
    })
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  /** A page signed in as `user`, with a platform authenticator that verifies its user (fingerprint, PIN). */
  async function signedInPage(user: TestUser): Promise<{ context: BrowserContext, page: Page, errors: string[] }> {
    const context = await browser.newContext({ baseURL: site, viewport: { width: 1280, height: 900 } })
    await context.addCookies([{ name: 'auth-token', value: user.token, url: site, httpOnly: true, sameSite: 'Lax' }])
    const page = await context.newPage()
    const errors = watchErrors(page)
    const cdp = await context.newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    })
    return { context, page, errors }
  }

  async function goto(page: Page, path: string) {
    await page.goto(path)
    await hydrated(page)
  }

  /** Adds a passkey named `name` in settings, then signs out there. */
  async function addPasskeyAndSignOut(page: Page, name: string) {
    await goto(page, '/settings')
    await page.fill('#passkey-name', name)
    await page.click('[data-testid=passkey-add]')
    await page.waitForFunction(() => document.querySelector('[data-testid=passkey-message]')?.textContent?.includes('added'))
    await page.locator('[data-testid=passkey-list] tbody tr', { hasText: name }).waitFor()
    await expect(page.locator('[data-testid=passkey-list] tbody tr').allTextContents()).resolves.toEqual([expect.stringContaining(name)])
    await page.click('[data-testid=settings-sign-out]')
    await page.waitForURL(url => url.pathname === '/')
  }

  /** On /login, signs in with the passkey and lands on the home page signed in as `user`. */
  async function signInWithPasskey(page: Page, context: BrowserContext, user: TestUser) {
    await goto(page, '/login')
    await page.click('[data-testid=passkey-sign-in]')
    await page.waitForURL(url => url.pathname === '/')
    await expect(page.innerText('[data-testid=header-user]')).resolves.toContain(user.username)
    const cookie = (await context.cookies()).find(c => c.name === 'auth-token')
    expect(cookie).toBeDefined()
    const profile = await api('/api/profile', { token: cookie!.value, baseURL: server.url })
    expect(profile.status).toBe(200)
    expect(profile.body.user.id).toBe(user.id)
    return cookie!.value
  }

  it('registers a passkey in settings, then signs in with it on /login without a password', async () => {
    const user = await registerUser({}, server.url)
    const { context, page, errors } = await signedInPage(user)
    await addPasskeyAndSignOut(page, 'Test laptop')
    expect((await context.cookies()).some(c => c.name === 'auth-token')).toBe(false)

    const token = await signInWithPasskey(page, context, user)
    const passkeys = await api('/api/auth/passkeys', { token, baseURL: server.url })
    expect(passkeys.body.passkeys).toEqual([expect.objectContaining({ name: 'Test laptop', lastUsedAt: expect.any(String) })])
    // The new session is listed in settings as this browser.
    await goto(page, '/settings')
    await page.locator('[data-testid=session-current]').waitFor()
    const current = page.locator('[data-testid=session-list] tr[data-current=true]')
    await expect(current.innerText()).resolves.toContain('Chrome on Linux')
    expect(errors).toEqual([])
    await context.close()
  })

  it('signs an MFA account in without the code step', async () => {
    const user = await enableMfa(await registerUser({}, server.url), server.url)
    const { context, page, errors } = await signedInPage(user)
    await addPasskeyAndSignOut(page, 'Phone')

    await goto(page, '/login')
    await page.click('[data-testid=passkey-sign-in]')
    await page.waitForURL(url => url.pathname === '/')
    expect(await page.locator('[data-testid=mfa-step]').count()).toBe(0)
    await expect(page.innerText('[data-testid=header-user]')).resolves.toContain(user.username)
    expect(errors).toEqual([])
    await context.close()
  })

  it('deletes a passkey in settings; signing in with it is then refused', async () => {
    const user = await registerUser({}, server.url)
    const { context, page } = await signedInPage(user)
    await goto(page, '/settings')
    await page.fill('#passkey-name', 'Old key')
    await page.click('[data-testid=passkey-add]')
    await page.locator('[data-testid=passkey-list]').waitFor()
    // Asked first; then said, and the keyboard goes on at the name of a new one.
    await page.click('button[aria-label="Delete passkey Old key"]')
    await page.click('[data-testid=confirm-delete-passkey]')
    await page.waitForFunction(() => !document.querySelector('[data-testid=passkey-list]'))
    await page.waitForFunction(() => document.querySelector('[data-testid=passkey-message]')?.textContent?.includes('Passkey “Old key” deleted.'))
    await page.waitForFunction(() => document.activeElement?.id === 'passkey-name')
    await page.click('[data-testid=settings-sign-out]')
    await page.waitForURL(url => url.pathname === '/')

    await goto(page, '/login')
    await page.click('[data-testid=passkey-sign-in]')
    await page.locator('[data-testid=form-error]').waitFor()
    await expect(page.innerText('[data-testid=form-error]')).resolves.toContain('Unknown passkey')
    expect(page.url()).toContain('/login')
    await context.close()
  })

  it('signs this browser out when its own session is revoked in settings, and another one stays listed until revoked', async () => {
    const user = await registerUser({}, server.url)
    const elsewhere = await api('/api/auth', { method: 'POST', headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1' }, body: { action: 'login', email: user.email, password: user.password }, baseURL: server.url })
    const { context, page } = await signedInPage(user)
    await goto(page, '/settings')
    await page.locator('[data-testid=session-list]').waitFor()
    await expect(page.locator('[data-testid=session-list] tbody tr').count()).resolves.toBe(2)
    // Pressed from the keyboard, the button goes with its row: the keyboard stays in the section.
    await page.focus('button[aria-label^="Sign out Safari on iOS"]')
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=session-list] tbody tr').length === 1)
    await page.waitForFunction(() => document.activeElement?.id === 'sessions', null, { timeout: 2000 })
    expect((await api('/api/profile', { token: elsewhere.body.token, baseURL: server.url })).status).toBe(401)

    await page.click('button[aria-label="Sign out this browser"]')
    await page.waitForURL(url => url.pathname === '/login')
    expect((await api('/api/profile', { token: user.token, baseURL: server.url })).status).toBe(401)
    expect((await context.cookies()).some(c => c.name === 'auth-token')).toBe(false)
    await context.close()
  })
})
