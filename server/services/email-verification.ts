import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { Executor } from '../database/port'
import { FOR_UPDATE, sql } from '../database/sql'
import { syncAdminFlagOf } from './accounts'
import { apiError } from './errors'

export const EMAIL_VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000

const hashVerificationToken = (token: string) => createHash('sha256').update(token).digest('hex')

/**
 * Stores a new verification token for the account (32 random bytes, hashed,
 * 24 h) and voids its older ones; returns the raw token and the address to
 * mail it to. 409 when the address is already verified, 400 when the account
 * has no address (an external sign-in whose provider gave none verified).
 */
export function createEmailVerificationToken(db: Executor, userId: string, now = Date.now()): Promise<{ to: string, token: string }> {
  return db.transaction(async (tx) => {
    // The user row is locked, so two resends at once leave exactly one live token.
    const user = await tx.get<{ email: string | null, email_verified: number }>(sql`SELECT email, email_verified FROM users
      WHERE id = ${userId}${FOR_UPDATE}`)
    if (!user) throw apiError(401, 'Invalid or expired token')
    if (user.email_verified === 1) throw apiError(409, 'Email already verified')
    if (!user.email) throw apiError(400, 'No email address to verify')
    const token = randomBytes(32).toString('hex')
    await tx.run(sql`DELETE FROM email_verification_tokens WHERE user_id = ${userId}`)
    await tx.run(sql`INSERT INTO email_verification_tokens (id, user_id, token_hash, expires_at, created_at)
      VALUES (${randomUUID()}, ${userId}, ${hashVerificationToken(token)}, ${new Date(now + EMAIL_VERIFICATION_TTL_MS).toISOString()}, ${new Date(now).toISOString()})`)
    return { to: user.email, token }
  })
}

/**
 * POST /api/auth/verify-email: a live, unused token marks its account's
 * address verified and is used up (a conditional update, so of two requests
 * with one token exactly one succeeds, on either engine). An address listed
 * as an admin's becomes admin now.
 */
export async function verifyEmail(db: Executor, token: string, adminEmails: string[], now = Date.now()) {
  const nowIso = new Date(now).toISOString()
  await db.transaction(async (tx) => {
    const used = await tx.get<{ user_id: string }>(sql`UPDATE email_verification_tokens SET used_at = ${nowIso}
      WHERE token_hash = ${hashVerificationToken(token)} AND used_at IS NULL AND expires_at > ${nowIso} RETURNING user_id`)
    if (!used) throw apiError(400, 'Invalid or expired token')
    await tx.run(sql`UPDATE users SET email_verified = 1 WHERE id = ${used.user_id}`)
    await syncAdminFlagOf(tx, used.user_id, adminEmails)
  })
  return { success: true as const }
}
