import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, newContext } from '../support/browser'
import { api } from '../support/api'
import { goto, registerUser, signedInContext, totp } from './helpers'
import { sharedServer } from '../support/shared-server'

describe('two-step verification in the browser', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('is set up in settings, then asked for at the next sign-in', async () => {
    const user = await registerUser()
    const context = await signedInContext(browser, user)
    const page = await context.newPage()

    await goto(page, '/settings')
    // Pressed from the keyboard, the button goes with the step it starts: the keyboard goes on in its section.
    await page.focus('[data-testid=mfa-start]')
    await page.keyboard.press('Enter')
    await page.locator('[data-testid=mfa-qr]').waitFor()
    await page.waitForFunction(() => document.activeElement?.id === 'mfa', null, { timeout: 2000 })
    await expect(page.locator('[data-testid=mfa-qr]').getAttribute('src')).resolves.toMatch(/^data:image\/png;base64,/)
    const secret = (await page.innerText('[data-testid=mfa-secret]'))!.trim()
    expect(secret).toMatch(/^[A-Z2-7]+=*$/)
    const backupCodes = await page.locator('[data-testid=backup-codes] code').allTextContents()
    expect(backupCodes).toHaveLength(10)
    for (const code of backupCodes) expect(code).toMatch(/^[0-9a-f]{4}(-[0-9a-f]{4}){3}$/i)

    // Typed as authenticator apps show it, in two groups.
    const code = totp(secret)
    await page.fill('#mfa-verify-code', `${code.slice(0, 3)} ${code.slice(3)}`)
    await page.click('button:has-text("Verify and turn on")')
    await page.waitForFunction(() => document.querySelector('[data-testid=mfa-message]')?.textContent?.includes('is on'))
    // The codes stay visible once more after confirming, then never again.
    await expect(page.locator('[data-testid=backup-codes-saved] code').count()).resolves.toBe(10)
    // Dismissed from the keyboard, they go with the button: the keyboard goes on in its section.
    await page.focus('[data-testid=backup-codes-saved] button:has-text("I have saved them")')
    await page.keyboard.press('Enter')
    await page.locator('[data-testid=backup-codes-saved]').waitFor({ state: 'detached' })
    await page.waitForFunction(() => document.activeElement?.id === 'mfa', null, { timeout: 2000 })
    const profile = await api('/api/profile', { token: user.token })
    expect(profile.body.user.mfaEnabled).toBe(true)

    // Sign out, then sign in through the MFA step.
    await page.click('[data-testid=settings-sign-out]')
    await page.waitForURL(url => url.pathname === '/')
    await context.clearCookies()
    const fresh = await newContext(browser, sharedServer().baseURL)
    const login = await fresh.newPage()
    await goto(login, '/login')
    await login.fill('#email', user.email)
    await login.fill('#password', user.password)
    await login.click('button[type=submit]')
    await login.locator('[data-testid=mfa-step]').waitFor()
    await expect((await fresh.cookies()).some(c => c.name === 'auth-token')).toBe(false)

    // A wrong code is refused; the next step's code (never used) is accepted.
    await login.fill('#mfa-code', '000000')
    await login.click('[data-testid=mfa-step] button[type=submit]')
    await login.locator('[data-testid=form-error]').waitFor()
    await expect(login.innerText('[data-testid=form-error]')).resolves.toBe('Invalid two-step verification code')
    // Spaces around or inside a pasted code are not part of it.
    const next = totp(secret, 1)
    await login.fill('#mfa-code', ` ${next.slice(0, 3)} ${next.slice(3)} `)
    await login.click('[data-testid=mfa-step] button[type=submit]')
    await login.waitForURL(url => url.pathname === '/')
    await expect(login.innerText('[data-testid=header-user]')).resolves.toContain(user.username)
    const cookie = (await fresh.cookies()).find(c => c.name === 'auth-token')
    expect(cookie).toBeDefined()
    const after = await api('/api/profile', { token: cookie!.value })
    expect(after.status).toBe(200)
    expect(after.body.user.username).toBe(user.username)
    await context.close()
    await fresh.close()
  })
})
