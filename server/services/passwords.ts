import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type Database from 'better-sqlite3'
import { apiError } from '../utils/errors'
import { hashPassword, verifyPassword } from './accounts'
import { requireMfaCode } from './mfa'
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
  sqlite: Database.Database,
  actor: { id: string, sessionId?: string },
  input: { currentPassword: string, newPassword: string, mfaCode?: string },
  now = Date.now(),
) {
  const { password_hash: current } = sqlite.prepare('SELECT password_hash FROM users WHERE id = ?').get(actor.id) as { password_hash: string | null }
  if (!await verifyPassword(current, input.currentPassword)) throw apiError(400, 'Current password is incorrect')
  requireMfaCode(sqlite, actor.id, input.mfaCode, now)
  const passwordHash = await hashPassword(input.newPassword)
  sqlite.transaction(() => {
    sqlite.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(passwordHash, actor.id)
    revokeUserSessions(sqlite, actor.id, actor.sessionId)
  })()
  return { success: true as const, message: CHANGE_PASSWORD_MESSAGE }
}

/**
 * POST /api/auth/forgot-password: for a known e-mail, voids the user's older
 * reset tokens and stores a new one (32 random bytes, hashed, 1 hour). The raw
 * token is returned for the e-mail; null for an unknown e-mail.
 */
export function createPasswordResetToken(sqlite: Database.Database, email: string, now = Date.now()): { to: string, token: string } | null {
  const user = sqlite.prepare('SELECT id, email FROM users WHERE email = ?').get(email) as { id: string, email: string } | undefined
  if (!user) return null
  const token = randomBytes(32).toString('hex')
  sqlite.transaction(() => {
    sqlite.prepare('DELETE FROM password_reset_tokens WHERE user_id = ?').run(user.id)
    sqlite.prepare('INSERT INTO password_reset_tokens (id, user_id, token_hash, expires_at, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(randomUUID(), user.id, hashResetToken(token), new Date(now + RESET_TOKEN_TTL_MS).toISOString(), new Date(now).toISOString())
  })()
  return { to: user.email, token }
}

/**
 * POST /api/auth/reset-password: a live, unused token (and the MFA code when
 * MFA is on) sets the new password, uses the token up and revokes every session.
 */
export async function resetPassword(sqlite: Database.Database, input: { token: string, password: string, mfaCode?: string }, now = Date.now()) {
  const nowIso = new Date(now).toISOString()
  const tokenHash = hashResetToken(input.token)
  const row = sqlite.prepare('SELECT id, user_id FROM password_reset_tokens WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?')
    .get(tokenHash, nowIso) as { id: string, user_id: string } | undefined
  if (!row) throw apiError(400, 'Invalid or expired token')
  requireMfaCode(sqlite, row.user_id, input.mfaCode, now)
  const passwordHash = await hashPassword(input.password)
  sqlite.transaction(() => {
    // Conditional, so two concurrent resets with one token cannot both succeed.
    const used = sqlite.prepare('UPDATE password_reset_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL').run(nowIso, row.id)
    if (used.changes !== 1) throw apiError(400, 'Invalid or expired token')
    sqlite.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(passwordHash, row.user_id)
    revokeUserSessions(sqlite, row.user_id)
  })()
  return { message: RESET_PASSWORD_MESSAGE }
}
