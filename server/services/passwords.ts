import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { Executor } from '../database/port'
import { sql } from '../database/sql'
import { apiError } from './errors'
import { hashPassword, verifyPassword } from './accounts'
import { isMfaEnabled, requireMfaCode } from './mfa'
import { revokeUserSessions } from './sessions'

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000
export const FORGOT_PASSWORD_MESSAGE = 'If an account with that email exists, a password reset link has been sent'
export const RESET_PASSWORD_MESSAGE = 'Password has been reset'
export const CHANGE_PASSWORD_MESSAGE = 'Password has been changed'

const hashResetToken = (token: string) => createHash('sha256').update(token).digest('hex')

/**
 * POST /api/auth/change-password: checks the current password (and the MFA
 * code when MFA is on), stores the new hash and revokes every other session.
 */
export async function changePassword(
  db: Executor,
  actor: { id: string, sessionId?: string },
  input: { currentPassword: string, newPassword: string, mfaCode?: string },
  now = Date.now(),
) {
  const { password_hash: current } = (await db.get<{ password_hash: string | null }>(sql`SELECT password_hash FROM users WHERE id = ${actor.id}`))!
  if (!await verifyPassword(current, input.currentPassword)) {
    // A reset that completed since the caller's session was checked changed the hash and ended the session.
    await requireLiveSession(db, actor)
    throw apiError(400, 'Current password is incorrect')
  }
  await requireMfaCode(db, actor.id, input.mfaCode, now)
  const passwordHash = await hashPassword(input.newPassword)
  await db.transaction(async (tx) => {
    // A reset (or another change) may have completed while the hash was computed:
    // the caller's session must still be live and the hash the one checked above.
    await requireLiveSession(tx, actor)
    const swapped = await tx.run(sql`UPDATE users SET password_hash = ${passwordHash} WHERE id = ${actor.id} AND password_hash = ${current}`)
    if (swapped.changes !== 1) {
      // On PostgreSQL a reset can commit between that check and this update (which then
      // waits for it and finds another hash): it ended the session too, and says so first.
      await requireLiveSession(tx, actor)
      throw apiError(400, 'Current password is incorrect')
    }
    await revokeUserSessions(tx, actor.id, actor.sessionId)
  })
  return { success: true as const, message: CHANGE_PASSWORD_MESSAGE }
}

/** 401 when the caller's session (if the caller has one) was revoked since it was checked. */
async function requireLiveSession(db: Executor, actor: { sessionId?: string }): Promise<void> {
  if (!actor.sessionId) return
  const live = await db.get(sql`SELECT 1 AS live FROM sessions WHERE id = ${actor.sessionId} AND revoked_at IS NULL`)
  if (!live) throw apiError(401, 'Invalid or expired token')
}

/**
 * POST /api/auth/forgot-password: for a known e-mail, voids the user's older
 * reset tokens and stores a new one (32 random bytes, hashed, 1 hour). The raw
 * token is returned for the e-mail; null for an unknown e-mail.
 */
export async function createPasswordResetToken(db: Executor, email: string, now = Date.now()): Promise<{ to: string, token: string } | null> {
  const user = await db.get<{ id: string, email: string }>(sql`SELECT id, email FROM users WHERE email = ${email}`)
  if (!user) return null
  const token = randomBytes(32).toString('hex')
  await db.transaction(async (tx) => {
    await tx.run(sql`DELETE FROM password_reset_tokens WHERE user_id = ${user.id}`)
    await tx.run(sql`INSERT INTO password_reset_tokens (id, user_id, token_hash, expires_at, created_at)
      VALUES (${randomUUID()}, ${user.id}, ${hashResetToken(token)}, ${new Date(now + RESET_TOKEN_TTL_MS).toISOString()}, ${new Date(now).toISOString()})`)
  })
  return { to: user.email, token }
}

/** The reset token row a live, unused `token` names, or undefined. */
function liveResetToken(db: Executor, token: string, nowIso: string) {
  return db.get<{ id: string, user_id: string }>(sql`SELECT id, user_id FROM password_reset_tokens
    WHERE token_hash = ${hashResetToken(token)} AND used_at IS NULL AND expires_at > ${nowIso}`)
}

/**
 * POST /api/auth/reset-password/check: whether the token would be accepted
 * and whether its account must also send an MFA code, so the page can ask for
 * the code before the first submit. Reads only: the token stays usable.
 */
export async function resetTokenStatus(db: Executor, token: string, now = Date.now()) {
  const row = await liveResetToken(db, token, new Date(now).toISOString())
  if (!row) return { valid: false, mfaRequired: false }
  return { valid: true, mfaRequired: await isMfaEnabled(db, row.user_id) }
}

/**
 * POST /api/auth/reset-password: a live, unused token (and the MFA code when
 * MFA is on) sets the new password, uses the token up and revokes every session.
 */
export async function resetPassword(db: Executor, input: { token: string, password: string, mfaCode?: string }, now = Date.now()) {
  const nowIso = new Date(now).toISOString()
  const row = await liveResetToken(db, input.token, nowIso)
  if (!row) throw apiError(400, 'Invalid or expired token')
  if (!input.mfaCode && await isMfaEnabled(db, row.user_id)) throw apiError(400, 'MFA code required')
  const passwordHash = await hashPassword(input.password)
  await db.transaction(async (tx) => {
    // Conditional, so two concurrent resets with one token cannot both succeed. Only the one
    // that takes the token checks the MFA code, in the same transaction: a reset that loses
    // the race leaves its backup code unused, and a wrong code gives the token back.
    const used = await tx.run(sql`UPDATE password_reset_tokens SET used_at = ${nowIso} WHERE id = ${row.id} AND used_at IS NULL`)
    if (used.changes !== 1) throw apiError(400, 'Invalid or expired token')
    await requireMfaCode(tx, row.user_id, input.mfaCode, now)
    await tx.run(sql`UPDATE users SET password_hash = ${passwordHash} WHERE id = ${row.user_id}`)
    await revokeUserSessions(tx, row.user_id)
  })
  return { message: RESET_PASSWORD_MESSAGE }
}
