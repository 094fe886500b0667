import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { decodeQuotedPrintable, outboxFiles, verificationTokenOf, waitForOutboxMail } from '../support/accounts'
import { expectMatchesOpenApi } from '../support/openapi'
import { serverDatabase } from '../support/seed'
import { sharedServer } from '../support/shared-server'

const verify = (token: unknown) => api('/api/auth/verify-email', { method: 'POST', body: { token } })
const resend = (user: Pick<TestUser, 'token'>, as: 'cookie' | 'bearer' = 'cookie') =>
  api('/api/auth/verify-email/resend', { method: 'POST', ...(as === 'cookie' ? { token: user.token } : { bearer: user.token }) })
const profileOf = async (user: Pick<TestUser, 'token'>) => (await api('/api/profile', { token: user.token })).body.user
const registrationToken = async (user: Pick<TestUser, 'email'>) => verificationTokenOf((await waitForOutboxMail(sharedServer().dataDir, user.email)).raw)
const invalid = { statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid or expired token' }

describe('POST /api/auth/verify-email', () => {
  it('mails a link and a token at registration, which verify the address once', async () => {
    const user = await registerUser()
    expect(await profileOf(user)).toMatchObject({ emailVerified: false, isAdmin: false })
    const { raw } = await waitForOutboxMail(sharedServer().dataDir, user.email)
    const token = verificationTokenOf(raw)
    expect(token).toMatch(/^[0-9a-f]{64}$/)
    expect(raw).toMatch(/^Subject: Confirm your Does It Fuck\? e-mail address$/m)
    const mail = decodeQuotedPrintable(raw)
    expect(mail).toContain(`${sharedServer().baseURL}/verify-email?token=${token}`)
    expect(mail).toContain(`<a href="${sharedServer().baseURL}/verify-email?token=${token}">`)
    // Only its hash is stored, valid 24 hours.
    const row = await serverDatabase().db.get<{ token_hash: string, expires_at: string, created_at: string }>(sql`SELECT token_hash, expires_at, created_at
      FROM email_verification_tokens WHERE user_id = ${user.id}`)
    expect(row!.token_hash).not.toBe(token)
    expect(Date.parse(row!.expires_at) - Date.parse(row!.created_at)).toBe(24 * 60 * 60 * 1000)

    const response = await verify(token)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true })
    await expectMatchesOpenApi('post', '/api/auth/verify-email', response)
    const profile = await api('/api/profile', { token: user.token })
    expect(profile.body.user).toMatchObject({ emailVerified: true, isAdmin: false })
    await expectMatchesOpenApi('get', '/api/profile', profile)

    const again = await verify(token)
    expect(again.status).toBe(400)
    expect(again.body).toEqual(invalid)
  })

  it('answers 400 for an unknown, malformed, missing or expired token', async () => {
    const unknown = await verify('f'.repeat(64))
    expect(unknown.status).toBe(400)
    expect(unknown.body).toEqual(invalid)
    // What cannot be a token at all is refused by the body's check, with its field named.
    for (const token of ['not a token', '', 42, 'x'.repeat(300)]) {
      const response = await verify(token)
      expect(response.status, String(token)).toBe(400)
      expect(response.body, String(token)).toMatchObject(invalid)
    }
    const missing = await api('/api/auth/verify-email', { method: 'POST', body: {} })
    expect(missing.status).toBe(400)
    expect(missing.body.message).toBe('Token is required')

    const user = await registerUser()
    const token = await registrationToken(user)
    await serverDatabase().db.run(sql`UPDATE email_verification_tokens SET expires_at = ${new Date(Date.now() - 1000).toISOString()} WHERE user_id = ${user.id}`)
    const expired = await verify(token)
    expect(expired.status).toBe(400)
    expect(expired.body).toEqual(invalid)
    expect((await profileOf(user)).emailVerified).toBe(false)
  })

  it('accepts one of many requests sending the same token at once', async () => {
    const user = await registerUser()
    const token = await registrationToken(user)
    const answers = await Promise.all(Array.from({ length: 8 }, () => verify(token)))
    expect(answers.map(answer => answer.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400])
    for (const answer of answers.filter(answer => answer.status === 400)) expect(answer.body).toEqual(invalid)
    const row = await serverDatabase().db.get<{ used: number }>(sql`SELECT count(*) AS used FROM email_verification_tokens
      WHERE user_id = ${user.id} AND used_at IS NOT NULL`)
    expect(Number(row!.used)).toBe(1)
  })
})

describe('POST /api/auth/verify-email/resend', () => {
  it('mails a new token and voids the older ones; the JWT as a bearer is for the token endpoints only', async () => {
    const user = await registerUser()
    const first = await registrationToken(user)
    const bearer = await resend(user, 'bearer')
    expect(bearer.status).toBe(401)
    expect(bearer.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Authentication required' })
    const before = outboxFiles(sharedServer().dataDir)
    const response = await resend(user)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true })
    await expectMatchesOpenApi('post', '/api/auth/verify-email/resend', response)
    const second = verificationTokenOf((await waitForOutboxMail(sharedServer().dataDir, user.email, before)).raw)
    expect(second).not.toBe(first)
    expect((await verify(first)).body).toEqual(invalid)

    const afterSecond = outboxFiles(sharedServer().dataDir)
    expect((await resend(user)).status).toBe(200)
    const third = verificationTokenOf((await waitForOutboxMail(sharedServer().dataDir, user.email, afterSecond)).raw)
    expect((await verify(second)).status).toBe(400)
    expect((await verify(third)).status).toBe(200)
    expect((await profileOf(user)).emailVerified).toBe(true)
  })

  it('answers 409 once the address is verified, and sends nothing', async () => {
    const user = await registerUser()
    expect((await verify(await registrationToken(user))).status).toBe(200)
    const before = outboxFiles(sharedServer().dataDir)
    const response = await resend(user)
    expect(response.status).toBe(409)
    expect(response.body).toEqual({ statusCode: 409, statusMessage: 'Conflict', message: 'Email already verified' })
    await expectMatchesOpenApi('post', '/api/auth/verify-email/resend', response)
    await new Promise(resolve => setTimeout(resolve, 200))
    const newMails = [...outboxFiles(sharedServer().dataDir)].filter(file => !before.has(file))
      .map(file => readFileSync(join(sharedServer().dataDir, 'outbox', file), 'utf8'))
    expect(newMails.filter(mail => mail.includes(`To: ${user.email}`))).toEqual([])
  })

  it('answers 401 signed out or with a revoked session', async () => {
    const anonymous = await api('/api/auth/verify-email/resend', { method: 'POST' })
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Authentication required' })
    const user = await registerUser()
    await api('/api/auth/logout', { method: 'POST', token: user.token })
    const revoked = await resend(user)
    expect(revoked.status).toBe(401)
    expect(revoked.body.message).toBe('Invalid or expired token')
  })
})
