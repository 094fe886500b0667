import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Executor } from '../../server/database/port'
import { sql } from '../../server/database/sql'
import { registerAccount, verifyPassword } from '../../server/services/accounts'
import { passwordResetMail, sendMail } from '../../server/services/mail'
import { createPasswordResetToken, resetPassword, RESET_TOKEN_TTL_MS } from '../../server/services/passwords'
import { createSession } from '../../server/services/sessions'
import { testDatabase } from '../support/database'

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0)

async function withUser() {
  const db = await testDatabase()
  const user = await registerAccount(db, { email: 'reset@unit.test', username: 'reset_unit', password: 'correct horse battery' }, false)
  return { db, user }
}
const passwordHashOf = async (db: Executor, id: string) =>
  (await db.get<{ password_hash: string }>(sql`SELECT password_hash FROM users WHERE id = ${id}`))!.password_hash

describe('password reset tokens', () => {
  it('is null for an unknown e-mail', async () => {
    const { db } = await withUser()
    expect(await createPasswordResetToken(db, 'nobody@unit.test', T0)).toBeNull()
  })

  it('works until one hour has passed, then is 400 Invalid or expired token', async () => {
    const { db, user } = await withUser()
    const expired = (await createPasswordResetToken(db, user.email, T0))!
    await expect(resetPassword(db, { token: expired.token, password: 'new password!' }, T0 + RESET_TOKEN_TTL_MS))
      .rejects.toMatchObject({ statusCode: 400, message: 'Invalid or expired token' })
    const live = (await createPasswordResetToken(db, user.email, T0))!
    await expect(resetPassword(db, { token: live.token, password: 'new password!' }, T0 + RESET_TOKEN_TTL_MS - 1))
      .resolves.toEqual({ message: 'Password has been reset' })
    expect(await verifyPassword(await passwordHashOf(db, user.id), 'new password!')).toBe(true)
  })

  it('is single use, stored hashed, and a new request voids the older token', async () => {
    const { db, user } = await withUser()
    const older = (await createPasswordResetToken(db, user.email, T0))!
    const newer = (await createPasswordResetToken(db, user.email, T0 + 1000))!
    expect(newer.token).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(await db.all(sql`SELECT * FROM password_reset_tokens`))).not.toContain(newer.token)
    await expect(resetPassword(db, { token: older.token, password: 'new password!' }, T0 + 2000)).rejects.toMatchObject({ statusCode: 400 })
    await resetPassword(db, { token: newer.token, password: 'new password!' }, T0 + 2000)
    await expect(resetPassword(db, { token: newer.token, password: 'another one!' }, T0 + 3000)).rejects.toMatchObject({ statusCode: 400, message: 'Invalid or expired token' })
    expect(await verifyPassword(await passwordHashOf(db, user.id), 'new password!')).toBe(true)
  })

  it('revokes every session of the user', async () => {
    const { db, user } = await withUser()
    await createSession(db, 'a-unit-test-secret-of-enough-length', user.id)
    await createSession(db, 'a-unit-test-secret-of-enough-length', user.id)
    const { token } = (await createPasswordResetToken(db, user.email))!
    await resetPassword(db, { token, password: 'new password!' })
    expect(await db.get(sql`SELECT count(*) AS n FROM sessions WHERE user_id = ${user.id} AND revoked_at IS NULL`)).toEqual({ n: 0 })
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
