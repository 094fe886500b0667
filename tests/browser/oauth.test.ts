import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newContext } from '../support/browser'
import { startOAuthMock, type OAuthMock } from '../support/oauth-mock'
import { startServer, type RunningServer } from '../support/server'
import { registerUser, type TestUser } from '../support/api'
import { enableMfa } from '../support/accounts'
import { auditPage } from './audit'
import { hydrated } from './helpers'

describe('sign-in with GitHub in Chromium', () => {
  let browser: Browser
  let mock: OAuthMock
  let server: RunningServer

  beforeAll(async () => {
    mock = await startOAuthMock()
    server = await startServer(mock.env)
    browser = await launchBrowser()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await mock?.stop()
  })

  it('clicks the GitHub button through to the signed-in home page', async () => {
    const login = `octo_${randomUUID().slice(0, 8)}`
    mock.setUser('github', { id: 583231, login, email: null }, [{ email: `${login}@oauth.test`, primary: true, verified: true }])
    const context = await newContext(browser, server.url)
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', error => errors.push(error.message))

    await page.goto('/login')
    const buttons = page.locator('.oauth-button')
    await buttons.first().waitFor()
    expect((await buttons.allTextContents()).map(text => text.trim())).toEqual(['Continue with GitHub', 'Continue with Google', 'Continue with Discord'])

    await Promise.all([
      page.waitForURL(`${server.url}/`),
      page.getByRole('link', { name: 'Continue with GitHub' }).click(),
    ])
    await expect(page.title()).resolves.toContain('Does It Fuck?')
    const cookies = await context.cookies(server.url)
    const session = cookies.find(cookie => cookie.name === 'auth-token')
    expect(session?.httpOnly).toBe(true)
    expect(session?.sameSite).toBe('Lax')
    const profile = await page.request.get('/api/profile')
    expect(profile.status()).toBe(200)
    expect((await profile.json()).user).toMatchObject({ username: login, email: `${login}@oauth.test` })
    expect(errors).toEqual([])
    await context.close()
  })

  it('shows provider buttons and linked accounts that pass the accessibility audit in both themes', async () => {
    const user = await registerUser({}, server.url)
    for (const theme of ['light', 'dark']) {
      const context = await newContext(browser, server.url)
      await context.addCookies([{ name: 'theme', value: theme, url: server.url }])
      const page = await context.newPage()
      await page.goto('/login')
      await page.locator('.oauth-button').first().waitFor()
      expect(await auditPage(page)).toEqual([])
      await context.addCookies([{ name: 'auth-token', value: user.token, url: server.url, httpOnly: true, sameSite: 'Lax' }])
      await page.goto('/settings')
      await page.locator('.linked-accounts__link a[data-provider=github]').waitFor()
      await expect(page.innerText('.linked-accounts__link')).resolves.toBe('Link GitHub\nLink Google\nLink Discord')
      expect(await auditPage(page)).toEqual([])
      await context.close()
    }
  })

  it('asks an account with two-step verification on for its code after GitHub, in plain words', async () => {
    const login = `octo_${randomUUID().slice(0, 8)}`
    mock.setUser('github', { id: 700_000 + Math.floor(Math.random() * 100_000), login, email: null }, [{ email: `${login}@oauth.test`, primary: true, verified: true }])
    const signIn = async () => {
      const context = await newContext(browser, server.url)
      const page = await context.newPage()
      await page.goto('/login')
      await page.locator('.oauth-button').first().waitFor()
      await page.getByRole('link', { name: 'Continue with GitHub' }).click()
      return { context, page }
    }
    // The first sign-in makes the account; two-step verification is then turned on through the API.
    const first = await signIn()
    await first.page.waitForURL(`${server.url}/`)
    const token = (await first.context.cookies(server.url)).find(cookie => cookie.name === 'auth-token')!.value
    const { backupCodes } = await enableMfa({ token } as TestUser, server.url)
    await first.context.close()

    const { context, page } = await signIn()
    await page.waitForURL(`${server.url}/auth/mfa`)
    await hydrated(page)
    await page.fill('#mfa-code', '000000')
    await page.click('button[type=submit]')
    await expect(page.locator('[data-testid=form-error]').innerText()).resolves.toBe('Invalid two-step verification code')
    await page.fill('#mfa-code', backupCodes[0]!)
    await Promise.all([page.waitForURL(`${server.url}/`), page.click('button[type=submit]')])
    const profile = await page.request.get('/api/profile')
    expect(profile.status()).toBe(200)
    expect((await profile.json()).user.username).toBe(login)
    await context.close()
  })
})
