import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { registerAccount, verifyPassword } from '../../server/services/accounts'
import { passwordResetMail, sendMail } from '../../server/services/mail'
import { createPasswordResetToken, resetPassword, RESET_TOKEN_TTL_MS } from '../../server/services/passwords'
import { createSession } from '../../server/services/sessions'
import { testDatabase } from '../support/database'

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0)

async function withUser() {
  const { sqlite } = testDatabase()
  const user = await registerAccount(sqlite, { email: 'reset@unit.test', username: 'reset_unit', password: 'correct horse battery' }, false)
  return { sqlite, user }
}
const passwordHashOf = (sqlite: ReturnType<typeof testDatabase>['sqlite'], id: string) =>
  (sqlite.prepare('SELECT password_hash FROM users WHERE id = ?').get(id) as { password_hash: string }).password_hash

describe('password reset tokens', () => {
  it('is null for an unknown e-mail', async () => {
    const { sqlite } = await withUser()
    expect(createPasswordResetToken(sqlite, 'nobody@unit.test', T0)).toBeNull()
  })

  it('works until one hour has passed, then is 400 Invalid or expired token', async () => {
    const { sqlite, user } = await withUser()
    const expired = createPasswordResetToken(sqlite, user.email, T0)!
    await expect(resetPassword(sqlite, { token: expired.token, password: 'new password!' }, T0 + RESET_TOKEN_TTL_MS))
      .rejects.toMatchObject({ statusCode: 400, message: 'Invalid or expired token' })
    const live = createPasswordResetToken(sqlite, user.email, T0)!
    await expect(resetPassword(sqlite, { token: live.token, password: 'new password!' }, T0 + RESET_TOKEN_TTL_MS - 1))
      .resolves.toEqual({ message: 'Password has been reset' })
    expect(await verifyPassword(passwordHashOf(sqlite, user.id), 'new password!')).toBe(true)
  })

  it('is single use, stored hashed, and a new request voids the older token', async () => {
    const { sqlite, user } = await withUser()
    const older = createPasswordResetToken(sqlite, user.email, T0)!
    const newer = createPasswordResetToken(sqlite, user.email, T0 + 1000)!
    expect(newer.token).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(sqlite.prepare('SELECT * FROM password_reset_tokens').all())).not.toContain(newer.token)
    await expect(resetPassword(sqlite, { token: older.token, password: 'new password!' }, T0 + 2000)).rejects.toMatchObject({ statusCode: 400 })
    await resetPassword(sqlite, { token: newer.token, password: 'new password!' }, T0 + 2000)
    await expect(resetPassword(sqlite, { token: newer.token, password: 'another one!' }, T0 + 3000)).rejects.toMatchObject({ statusCode: 400, message: 'Invalid or expired token' })
    expect(await verifyPassword(passwordHashOf(sqlite, user.id), 'new password!')).toBe(true)
  })

  it('revokes every session of the user', async () => {
    const { sqlite, user } = await withUser()
    await createSession(sqlite, 'a-unit-test-secret-of-enough-length', user.id)
    await createSession(sqlite, 'a-unit-test-secret-of-enough-length', user.id)
    const { token } = createPasswordResetToken(sqlite, user.email)!
    await resetPassword(sqlite, { token, password: 'new password!' })
    expect(sqlite.prepare('SELECT count(*) AS n FROM sessions WHERE user_id = ? AND revoked_at IS NULL').get(user.id)).toEqual({ n: 0 })
  })
})

describe('sendMail without SMTP', () => {
  it('writes one .eml with a plain-text and an HTML part', async () => {
    const outboxDir = join(mkdtempSync(join(tmpdir(), 'dif-mail-')), 'outbox')
    const mail = passwordResetMail('someone@unit.test', 'https://dif.example/', 'ab'.repeat(32))
    expect(mail.link).toBe(`https://dif.example/reset-password?token=${'ab'.repeat(32)}`)
    const sent = await sendMail({ smtpUrl: '', from: 'Does It Fuck? <no-reply@localhost>', outboxDir }, mail)
    expect(readdirSync(outboxDir)).toHaveLength(1)
    const raw = readFileSync(sent.file!, 'utf8')
    expect(raw).toMatch(/^To: someone@unit\.test$/m)
    expect(raw).toMatch(/Content-Type: multipart\/alternative/)
    expect(raw).toMatch(/Content-Type: text\/plain/)
    expect(raw).toMatch(/Content-Type: text\/html/)
  })
})
