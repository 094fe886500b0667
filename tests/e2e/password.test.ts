import { describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { decodeQuotedPrintable, enableMfa, outboxFiles, requestResetToken, waitForOutboxMail } from '../support/accounts'
import { expectMatchesOpenApi } from '../support/openapi'
import { sharedServer } from '../support/shared-server'

const login = (email: string, password: string) => api('/api/auth', { method: 'POST', body: { action: 'login', email, password } })
const loginToken = async (user: TestUser) => (await login(user.email, user.password)).body.token as string
const FORGOT_MESSAGE = 'If an account with that email exists, a password reset link has been sent'

describe('POST /api/auth/change-password', () => {
  const change = (token: string | undefined, body: Record<string, unknown>) => api('/api/auth/change-password', { method: 'POST', token, body })

  it('changes the password and revokes the caller\'s other sessions only', async () => {
    const user = await registerUser()
    const other = await loginToken(user)
    const response = await change(user.token, { currentPassword: user.password, newPassword: 'a brand new secret', confirmPassword: 'a brand new secret' })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true, message: 'Password has been changed' })
    expect((await api('/api/profile', { token: user.token })).status).toBe(200)
    const revoked = await api('/api/profile', { token: other })
    expect(revoked.status).toBe(401)
    expect(revoked.body.message).toBe('Invalid or expired token')
    expect((await login(user.email, user.password)).status).toBe(401)
    expect((await login(user.email, 'a brand new secret')).status).toBe(200)
  })

  it.each([
    [{ currentPassword: 'wrong password', newPassword: 'a brand new secret', confirmPassword: 'a brand new secret' }, 'Current password is incorrect'],
    [{ newPassword: 'a brand new secret', confirmPassword: 'another secret!' }, 'Passwords do not match'],
    [{ newPassword: 'short', confirmPassword: 'short' }, 'Password must be 8 to 256 characters'],
    [{ newPassword: 'n'.repeat(257), confirmPassword: 'n'.repeat(257) }, 'Password must be 8 to 256 characters'],
    [{ currentPassword: '', newPassword: 'a brand new secret', confirmPassword: 'a brand new secret' }, 'Current password is required'],
  ])('answers 400 for %j and keeps the password', async (fields, message) => {
    const user = await registerUser()
    const response = await change(user.token, { currentPassword: user.password, ...fields })
    expect(response.status).toBe(400)
    expect(response.body.statusMessage).toBe('Bad Request')
    expect(response.body.message).toBe(message)
    expect((await login(user.email, user.password)).status).toBe(200)
  })

  it('refuses the current password as the new one, and ends no session', async () => {
    const user = await registerUser()
    const other = await loginToken(user)
    const response = await change(user.token, { currentPassword: user.password, newPassword: user.password, confirmPassword: user.password })
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: 'New password must differ from the current one' })
    expect((await api('/api/profile', { token: other })).status).toBe(200)
    expect((await login(user.email, user.password)).status).toBe(200)
  })

  it('answers 401 without a session, before looking at the body', async () => {
    const response = await change(undefined, {})
    expect(response.status).toBe(401)
    expect(response.body.message).toBe('Authentication required')
  })

  it('needs an MFA code when MFA is on', async () => {
    const user = await enableMfa(await registerUser())
    const body = { currentPassword: user.password, newPassword: 'a brand new secret', confirmPassword: 'a brand new secret' }
    const missing = await change(user.token, body)
    expect(missing.status).toBe(400)
    expect(missing.body.message).toBe('MFA code required')
    const wrong = await change(user.token, { ...body, mfaCode: '000000' })
    expect(wrong.status).toBe(400)
    expect(wrong.body.message).toBe('Invalid MFA code')
    const ok = await change(user.token, { ...body, mfaCode: user.backupCodes[0] })
    expect(ok.status).toBe(200)
  })
})

describe('POST /api/auth/forgot-password', () => {
  it('answers the same 200 for a known and an unknown address', async () => {
    const user = await registerUser()
    const known = await api('/api/auth/forgot-password', { method: 'POST', body: { email: user.email.toUpperCase() } })
    const unknown = await api('/api/auth/forgot-password', { method: 'POST', body: { email: 'nobody-at-all@e2e.test' } })
    for (const response of [known, unknown]) {
      expect(response.status).toBe(200)
      expect(response.body).toEqual({ message: FORGOT_MESSAGE })
    }
  })

  it('writes an .eml with a text and an HTML part holding the link and the token', async () => {
    const user = await registerUser()
    const before = outboxFiles(sharedServer().dataDir)
    await api('/api/auth/forgot-password', { method: 'POST', body: { email: user.email } })
    const { raw } = await waitForOutboxMail(sharedServer().dataDir, user.email, before, 'reset')
    const mail = decodeQuotedPrintable(raw)
    expect(raw).toMatch(/^Subject: Reset your Does It Fuck\? password$/m)
    expect(raw).toMatch(/^From: "Does It Fuck\?" <no-reply@localhost>$/m)
    expect(raw).toMatch(/Content-Type: multipart\/alternative/)
    expect(raw).toMatch(/Content-Type: text\/plain/)
    expect(raw).toMatch(/Content-Type: text\/html/)
    const token = mail.match(/reset token: ([0-9a-f]{64})/)![1]
    expect(mail).toContain(`${sharedServer().baseURL}/reset-password?token=${token}`)
    expect(mail).toContain(`<a href="${sharedServer().baseURL}/reset-password?token=${token}">`)
  })

  it('answers 400 for an invalid address', async () => {
    const response = await api('/api/auth/forgot-password', { method: 'POST', body: { email: 'not-an-email' } })
    expect(response.status).toBe(400)
    expect(response.body.message).toBe('Invalid email')
  })
})

describe('POST /api/auth/reset-password', () => {
  const reset = (body: Record<string, unknown>) => api('/api/auth/reset-password', { method: 'POST', body })

  it('sets the new password, revokes every session and uses the token up', async () => {
    const user = await registerUser()
    const other = await loginToken(user)
    const token = await requestResetToken(sharedServer().dataDir, user.email)
    const response = await reset({ token, password: 'reset to this one' })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ message: 'Password has been reset' })
    for (const session of [user.token, other]) {
      const after = await api('/api/profile', { token: session })
      expect(after.status).toBe(401)
      expect(after.body.message).toBe('Invalid or expired token')
    }
    expect((await login(user.email, user.password)).status).toBe(401)
    expect((await login(user.email, 'reset to this one')).status).toBe(200)

    const reused = await reset({ token, password: 'and once more please' })
    expect(reused.status).toBe(400)
    expect(reused.body).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid or expired token' })
  })

  it('voids an older token when a new one is requested', async () => {
    const user = await registerUser()
    const older = await requestResetToken(sharedServer().dataDir, user.email)
    const newer = await requestResetToken(sharedServer().dataDir, user.email)
    expect(newer).not.toBe(older)
    expect((await reset({ token: older, password: 'reset to this one' })).status).toBe(400)
    expect((await reset({ token: newer, password: 'reset to this one' })).status).toBe(200)
  })

  it.each([
    [{ token: 'f'.repeat(64), password: 'reset to this one' }, 'Invalid or expired token'],
    [{ token: '', password: 'reset to this one' }, 'Invalid or expired token'],
    [{ token: 42, password: 'reset to this one' }, 'Invalid or expired token'],
  ])('answers 400 for %j', async (body, message) => {
    const response = await reset(body)
    expect(response.status).toBe(400)
    expect(response.body.message).toBe(message)
  })

  it('checks the password policy and keeps the token for a retry', async () => {
    const user = await registerUser()
    const token = await requestResetToken(sharedServer().dataDir, user.email)
    const short = await reset({ token, password: 'short' })
    expect(short.status).toBe(400)
    expect(short.body.message).toBe('Password must be 8 to 256 characters')
    expect((await reset({ token, password: 'long enough now' })).status).toBe(200)
  })

  it('needs an MFA code when MFA is on, and keeps the token after a missing or wrong one', async () => {
    const user = await enableMfa(await registerUser())
    const token = await requestResetToken(sharedServer().dataDir, user.email)
    const missing = await reset({ token, password: 'reset to this one' })
    expect(missing.status).toBe(400)
    expect(missing.body.message).toBe('MFA code required')
    const wrong = await reset({ token, password: 'reset to this one', mfaCode: '000000' })
    expect(wrong.status).toBe(400)
    expect(wrong.body.message).toBe('Invalid MFA code')
    const ok = await reset({ token, password: 'reset to this one', mfaCode: user.backupCodes[0] })
    expect(ok.status).toBe(200)
    expect((await api('/api/profile', { token: user.token })).status).toBe(401)
  })
})

describe('POST /api/auth/reset-password/check', () => {
  const check = (body: unknown) => api('/api/auth/reset-password/check', { method: 'POST', body })
  const reset = (body: Record<string, unknown>) => api('/api/auth/reset-password', { method: 'POST', body })

  it('says a live token is valid, without MFA, and leaves it usable', async () => {
    const user = await registerUser()
    const token = await requestResetToken(sharedServer().dataDir, user.email)
    for (let i = 0; i < 2; i++) {
      const response = await check({ token })
      expect(response.status).toBe(200)
      expect(response.body).toEqual({ valid: true, mfaRequired: false })
      await expectMatchesOpenApi('POST', '/api/auth/reset-password/check', response)
    }
    // The check neither used the token up nor revoked anything.
    expect((await api('/api/profile', { token: user.token })).status).toBe(200)
    expect((await reset({ token, password: 'reset to this one' })).status).toBe(200)
    expect((await check({ token })).body).toEqual({ valid: false, mfaRequired: false })
  })

  it('says an MFA account\'s token needs a code (read from the token, nothing else sent)', async () => {
    const user = await enableMfa(await registerUser())
    const token = await requestResetToken(sharedServer().dataDir, user.email)
    const response = await check({ token })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ valid: true, mfaRequired: true })
    expect((await reset({ token, password: 'reset to this one', mfaCode: user.backupCodes[0] })).status).toBe(200)
  })

  it('answers valid: false for an unknown or voided token, never revealing MFA', async () => {
    const user = await enableMfa(await registerUser())
    const older = await requestResetToken(sharedServer().dataDir, user.email)
    await requestResetToken(sharedServer().dataDir, user.email)
    for (const token of [older, 'f'.repeat(64)]) {
      const response = await check({ token })
      expect(response.status).toBe(200)
      expect(response.body).toEqual({ valid: false, mfaRequired: false })
    }
  })

  it.each([
    [{}, 'Token is required'],
    [{ token: '' }, 'Invalid or expired token'],
    [{ token: 42 }, 'Invalid or expired token'],
    [{ token: 'f'.repeat(257) }, 'Invalid or expired token'],
  ])('answers 400 for %j', async (body, message) => {
    const response = await check(body)
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message })
    await expectMatchesOpenApi('POST', '/api/auth/reset-password/check', response)
  })
})
