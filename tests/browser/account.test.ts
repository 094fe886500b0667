import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, newContext } from '../support/browser'
import { api, type TestUser } from '../support/api'
import { enableMfa, outboxFiles, totpCode, waitForOutboxMail, decodeQuotedPrintable } from '../support/accounts'
import { goto, registerUser, sessionToken, signedInContext, watchErrors } from './helpers'
import { sharedServer } from '../support/shared-server'

/** A second session of `user`, as another device would hold it. */
async function otherSession(user: TestUser, mfaCode?: string): Promise<string> {
  const response = await api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: user.password, ...(mfaCode ? { mfaCode } : {}) } })
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body.token as string
}

async function loginStatus(email: string, password: string, mfaCode?: string) {
  return api('/api/auth', { method: 'POST', body: { action: 'login', email, password, ...(mfaCode ? { mfaCode } : {}) } })
}

/** Signs in through /login (and its MFA step when `mfaCode` is given); ends on `/`. */
async function signInThroughForm(page: Page, email: string, password: string, mfaCode?: string) {
  await goto(page, '/login')
  await page.fill('#email', email)
  await page.fill('#password', password)
  await page.click('button[type=submit]')
  if (mfaCode) {
    await page.locator('[data-testid=mfa-step]').waitFor()
    await page.fill('#mfa-code', mfaCode)
    await page.click('[data-testid=mfa-step] button[type=submit]')
  }
  await page.waitForURL(url => url.pathname === '/')
}

describe('account flows in the browser', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('changes the password in settings: the old one fails, the new one works, other sessions end', async () => {
    const user = await registerUser()
    const other = await otherSession(user)
    const context = await signedInContext(browser, user)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, '/settings')

    // A wrong current password is refused with the server's message and changes nothing.
    await page.fill('#current-password', 'not my password')
    await page.fill('#new-password', 'a brand new secret')
    await page.fill('#confirm-password', 'a brand new secret')
    await page.focus('#password button[type=submit]')
    await page.keyboard.press('Enter')
    await page.locator('#password [role=alert]').waitFor()
    await expect(page.innerText('#password [role=alert]')).resolves.toBe('Current password is incorrect')
    // The button, disabled while the request ran, has the keyboard back (not the page's body).
    await page.waitForFunction(() => document.activeElement?.matches('#password button[type=submit]'), null, { timeout: 2000 })
    expect((await api('/api/profile', { token: other })).status).toBe(200)

    // Mismatched repeats are caught in the page before anything is sent.
    await page.fill('#current-password', user.password)
    await page.fill('#confirm-password', 'something else')
    await page.click('#password button[type=submit]')
    await expect(page.innerText('#confirm-password ~ .field-error')).resolves.toBe('Passwords do not match')
    // Refused in the page: the keyboard is put on the field, whose description is its error.
    await page.waitForFunction(() => document.activeElement?.id === 'confirm-password')

    await page.fill('#confirm-password', 'a brand new secret')
    await page.click('#password button[type=submit]')
    await page.locator('#password [role=status]').waitFor()
    await expect(page.inputValue('#current-password')).resolves.toBe('')

    expect((await loginStatus(user.email, user.password)).status).toBe(401)
    const fresh = await loginStatus(user.email, 'a brand new secret')
    expect(fresh.status).toBe(200)
    expect(fresh.body.user.username).toBe(user.username)
    // The other device is signed out; this browser stays signed in.
    expect((await api('/api/profile', { token: other })).status).toBe(401)
    const mine = await api('/api/profile', { token: await sessionToken(context) })
    expect(mine.status).toBe(200)
    await goto(page, '/settings')
    await expect(page.innerText('[data-testid=profile-username]')).resolves.toBe(user.username)
    expect(errors).toEqual([])
    await context.close()
  })

  it('asks for the MFA code when changing the password of an MFA account', async () => {
    const user = await enableMfa(await registerUser())
    const context = await signedInContext(browser, user)
    const page = await context.newPage()
    await goto(page, '/settings')
    await page.fill('#current-password', user.password)
    await page.fill('#new-password', 'another new secret')
    await page.fill('#confirm-password', 'another new secret')
    await page.click('#password button[type=submit]')
    await expect(page.innerText('#password-mfa ~ .field-error')).resolves.toBe('Enter your two-step verification code')
    await page.fill('#password-mfa', user.backupCodes[0]!)
    await page.click('#password button[type=submit]')
    await page.locator('#password [role=status]').waitFor()
    expect((await loginStatus(user.email, user.password)).status).toBe(401)
    const answer = await loginStatus(user.email, 'another new secret')
    expect(answer.status).toBe(200)
    expect(answer.body.mfaRequired).toBe(true)
    await context.close()
  })

  it('turns two-step verification off in settings', async () => {
    const user = await enableMfa(await registerUser())
    const context = await signedInContext(browser, user)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, '/settings')
    await expect(page.innerText('#mfa')).resolves.toContain('Signing in asks for a code')

    // A wrong password keeps it on.
    await page.fill('#mfa-disable-password', 'wrong password')
    await page.fill('#mfa-disable-code', user.backupCodes[0]!)
    await page.click('#mfa button[type=submit]')
    await page.locator('[data-testid=mfa-message][role=alert]').waitFor()
    expect((await api('/api/profile', { token: user.token })).body.user.mfaEnabled).toBe(true)

    await page.fill('#mfa-disable-password', user.password)
    await page.fill('#mfa-disable-code', totpCode(user.secret, user.verifiedAt + 30_000))
    await page.click('#mfa button[type=submit]')
    await page.waitForFunction(() => document.querySelector('[data-testid=mfa-message]')?.textContent?.includes('is off'))
    await page.locator('[data-testid=mfa-start]').waitFor()
    expect((await api('/api/profile', { token: user.token })).body.user.mfaEnabled).toBe(false)
    const login = await loginStatus(user.email, user.password)
    expect(login.status).toBe(200)
    expect(login.body.mfaRequired).toBe(false)
    expect(typeof login.body.token).toBe('string')
    expect(errors).toEqual([])
    await context.close()
  })

  for (const withMfa of [false, true]) {
    it(`resets a forgotten password from the mailed link${withMfa ? ' (account with MFA)' : ''}`, async () => {
      const registered = await registerUser()
      const mfa = withMfa ? await enableMfa(registered) : null
      const user = mfa ?? registered
      const other = await otherSession(user, mfa?.backupCodes[1])
      const dataDir = sharedServer().dataDir
      const context = await newContext(browser, sharedServer().baseURL)
      const page = await context.newPage()
      const errors = watchErrors(page)

      await goto(page, '/login')
      await page.click('a[href="/forgot-password"]')
      await page.waitForURL(url => url.pathname === '/forgot-password')
      const before = outboxFiles(dataDir)
      await page.fill('#email', user.email.toUpperCase())
      await page.click('button[type=submit]')
      await page.locator('[role=status]').waitFor()
      await expect(page.innerText('[role=status]')).resolves.toContain('an e-mail with a reset link is on its way')

      const mail = decodeQuotedPrintable((await waitForOutboxMail(dataDir, user.email, before, 'reset')).raw)
      const link = new URL(mail.match(/https?:\/\/\S+\/reset-password\?token=[0-9a-f]{64}/)![0])
      const checked = page.waitForResponse(response => response.url().endsWith('/api/auth/reset-password/check'))
      await goto(page, `${link.pathname}${link.search}`)
      await expect(page.innerText('h1')).resolves.toBe('Choose a new password')
      expect((await (await checked).json())).toEqual({ valid: true, mfaRequired: Boolean(mfa) })

      // The page reads from the token whether the account needs a code, and asks for it before any submit.
      if (mfa) {
        await page.locator('#mfa-code').waitFor()
        await expect(page.innerText('[data-testid=reset-mfa-note]')).resolves.toBe('This account uses two-step verification: enter a code as well.')
      }
      else {
        await expect(page.locator('#mfa-code').count()).resolves.toBe(0)
      }
      await page.locator('button:has-text("two-step verification")').waitFor({ state: 'detached' })
      expect((await api('/api/profile', { token: other })).status).toBe(200)
      await page.fill('#password', 'reset to this one')
      await page.fill('#confirm', 'reset to this one')
      if (mfa) await page.fill('#mfa-code', totpCode(mfa.secret, mfa.verifiedAt + 30_000))
      await page.click('button[type=submit]')
      await page.locator('[role=status]').waitFor()
      await expect(page.innerText('[role=status]')).resolves.toContain('Password has been reset')

      // Every earlier session is revoked; the old password fails, the link is used up.
      expect((await api('/api/profile', { token: user.token })).status).toBe(401)
      expect((await api('/api/profile', { token: other })).status).toBe(401)
      expect((await loginStatus(user.email, user.password)).status).toBe(401)
      const again = await api('/api/auth/reset-password', { method: 'POST', body: { token: link.searchParams.get('token'), password: 'yet another one' } })
      expect(again.status).toBe(400)
      expect(again.body.message).toBe('Invalid or expired token')

      await page.click('[role=status] a[href="/login"]')
      await page.waitForURL(url => url.pathname === '/login')
      await signInThroughForm(page, user.email, 'reset to this one', mfa?.backupCodes[3])
      await expect(page.innerText('[data-testid=header-user]')).resolves.toContain(user.username)
      const profile = await api('/api/profile', { token: await sessionToken(context) })
      expect(profile.status).toBe(200)
      expect(profile.body.user.username).toBe(user.username)
      expect(errors).toEqual([])
      await context.close()
    })
  }

  it('refuses an unknown reset token on the page before anything is typed', async () => {
    const context = await newContext(browser, sharedServer().baseURL)
    const page = await context.newPage()
    await goto(page, `/reset-password?token=${'0'.repeat(64)}`)
    await page.locator('[data-testid=reset-token-invalid]').waitFor()
    await expect(page.innerText('[role=alert]')).resolves.toBe('This reset link is invalid, expired or already used. Request a new one.')
    await expect(page.locator('#password').count()).resolves.toBe(0)
    await page.click('[role=alert] a[href="/forgot-password"]')
    await page.waitForURL(url => url.pathname === '/forgot-password')
    await goto(page, '/reset-password')
    await expect(page.innerText('[role=alert]')).resolves.toContain('This page needs the link from your reset e-mail.')

    // The token's check failed (offline a moment): the page offers the code's field on request, and
    // the keyboard goes on in it as its button goes.
    await page.route('**/api/auth/reset-password/check', route => route.abort())
    await goto(page, `/reset-password?token=${'1'.repeat(64)}`)
    const ask = page.locator('button:has-text("My account uses two-step verification")')
    await ask.focus()
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => document.activeElement?.id === 'mfa-code')
    await expect(ask.count()).resolves.toBe(0)
    await context.close()
  })

  it('signs out from the header: the session is revoked and the header offers sign-in', async () => {
    const user = await registerUser()
    const context = await signedInContext(browser, user)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, '/settings')
    await page.click('[data-testid=header-user]')
    await page.click('[data-testid=header-sign-out]')
    await page.waitForURL(url => url.pathname === '/')
    await page.locator('header a[href="/login"]').waitFor()
    await expect(page.locator('[data-testid=header-user]').count()).resolves.toBe(0)
    expect((await context.cookies()).some(c => c.name === 'auth-token' && c.value)).toBe(false)
    expect((await api('/api/profile', { token: user.token })).status).toBe(401)
    // Signed-in pages now send the browser to sign in.
    await goto(page, '/settings')
    expect(new URL(page.url()).pathname).toBe('/login')
    expect(errors).toEqual([])
    await context.close()
  })

  it('asks an unverified account to confirm its address, sends a new link, and confirms it from the mail (phone width)', async () => {
    const user = await registerUser()
    const dataDir = sharedServer().dataDir
    await waitForOutboxMail(dataDir, user.email, undefined, 'verification')
    const context = await signedInContext(browser, user, { mobile: true })
    const page = await context.newPage()
    const errors = watchErrors(page)
    await goto(page, '/')
    const banner = page.locator('[data-testid=verify-email-banner]')
    await expect(banner.innerText()).resolves.toContain(`Please confirm your e-mail address: open the link we sent to ${user.email}.`)

    // By keyboard: the button is reachable and says what happened.
    const before = outboxFiles(dataDir)
    await page.locator('[data-testid=verify-email-resend]').focus()
    await page.keyboard.press('Enter')
    await expect(page.locator('[data-testid=verify-email-outcome]').filter({ hasText: 'on its way' }).innerText())
      .resolves.toBe(`A new link is on its way to ${user.email}. Earlier links no longer work.`)
    const mail = decodeQuotedPrintable((await waitForOutboxMail(dataDir, user.email, before, 'verification')).raw)
    const link = new URL(mail.match(/https?:\/\/\S+\/verify-email\?token=[0-9a-f]{64}/)![0])

    await goto(page, `${link.pathname}${link.search}`)
    const result = page.locator('[data-testid=verify-email-result]')
    await expect(result.innerText()).resolves.toContain('Your e-mail address is confirmed.')
    await banner.waitFor({ state: 'detached' })
    expect((await api('/api/profile', { token: user.token })).body.user.emailVerified).toBe(true)

    // The same link again: used up, and the page says so.
    await goto(page, `${link.pathname}${link.search}`)
    await expect(result.innerText()).resolves.toContain('This link is invalid, expired or already used (Invalid or expired token).')
    expect(errors.filter(error => !error.includes('400'))).toEqual([])
    await context.close()
  })
})
