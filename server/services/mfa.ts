import { createHash } from 'node:crypto'
import type Database from 'better-sqlite3'
import * as OTPAuth from 'otpauth'

// Stand-in for local testing of the OAuth MFA step only: the accounts work owns
// services/mfa.ts and its version replaces this one on merge (same signature).

const PERIOD_SECONDS = 30

/**
 * True when `code` is a current TOTP code (SHA1, 6 digits, 30 s, ±1 step) not
 * used before, or an unused backup code, of a user with MFA on. A TOTP step is
 * accepted once; a backup code works once.
 */
export function verifyMfaCode(sqlite: Database.Database, userId: string, code: string, now = Date.now()): boolean {
  const row = sqlite.prepare('SELECT mfa_secret FROM users WHERE id = ? AND mfa_enabled = 1').get(userId) as { mfa_secret: string | null } | undefined
  if (!row?.mfa_secret) return false
  const candidate = code.trim()
  if (/^\d{6}$/.test(candidate)) {
    const totp = new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: OTPAuth.Secret.fromBase32(row.mfa_secret) })
    const delta = totp.validate({ token: candidate, timestamp: now, window: 1 })
    if (delta === null) return false
    const step = Math.floor(now / 1000 / PERIOD_SECONDS) + delta
    return sqlite.prepare('UPDATE users SET mfa_last_step = ? WHERE id = ? AND (mfa_last_step IS NULL OR mfa_last_step < ?)')
      .run(step, userId, step).changes === 1
  }
  const hash = createHash('sha256').update(candidate.toLowerCase()).digest('hex')
  return sqlite.prepare('UPDATE mfa_backup_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL')
    .run(new Date(now).toISOString(), userId, hash).changes > 0
}
