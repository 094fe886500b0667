import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { Executor, Row } from '../database/port'
import type { users } from '../database/schema-postgres'
import { sql } from '../database/sql'
import { Secret, TOTP } from 'otpauth'
import sharp from 'sharp'
import { apiError } from './errors'
import { verifyPassword } from './accounts'
import { openTotpSecret, sealTotpSecret } from './totp-secrets'

/** TOTP issuer shown in authenticator apps (docs/behaviour.md, Names and configuration). */
export const MFA_ISSUER = 'Does It Fuck?'
export const BACKUP_CODE_COUNT = 10
const PERIOD = 30
/** Steps accepted either side of the current one. */
const WINDOW = 1

const TOTP_PATTERN = /^\d{6}$/
const BACKUP_PATTERN = /^[0-9A-F]{16}$/

function totp(secret: string, label: string) {
  return new TOTP({ issuer: MFA_ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) })
}

export function hashBackupCode(code: string): string {
  return createHash('sha256').update(normaliseBackupCode(code)).digest('hex')
}

/** `a1b2-c3d4 e5f6...` → `A1B2C3D4E5F6...` (dashes, spaces and case do not matter). */
function normaliseBackupCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase()
}

/** XXXX-XXXX-XXXX-XXXX from 8 random bytes. */
function newBackupCode(): string {
  return randomBytes(8).toString('hex').toUpperCase().match(/.{4}/g)!.join('-')
}

/** Side of the QR code image in pixels, with a quiet zone of 2 modules. */
const QR_WIDTH = 240
const QR_MARGIN = 2

/**
 * `text` as a QR code PNG data URL. Only the module matrix is computed on
 * the event loop (about 1 ms); scaling and PNG encoding run in libvips'
 * threads. qrcode's own PNG encoder held the loop for 12-15 ms per code, so
 * ten concurrent set-ups stalled every other request for over 100 ms.
 */
async function qrCodeDataUrl(text: string): Promise<string> {
  const { default: QRCode } = await import('qrcode')
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' })
  const side = modules.size + 2 * QR_MARGIN
  const pixels = Buffer.alloc(side * side, 255)
  for (let y = 0; y < modules.size; y++) {
    for (let x = 0; x < modules.size; x++) {
      if (modules.get(y, x)) pixels[(y + QR_MARGIN) * side + x + QR_MARGIN] = 0
    }
  }
  const png = await sharp(pixels, { raw: { width: side, height: side, channels: 1 } })
    .resize(QR_WIDTH, QR_WIDTH, { kernel: 'nearest' }).png().toBuffer()
  return `data:image/png;base64,${png.toString('base64')}`
}

type MfaRow = Pick<Row<typeof users>, 'email' | 'username' | 'mfa_enabled' | 'mfa_secret'>

async function mfaRow(db: Executor, userId: string): Promise<MfaRow> {
  return (await db.get<MfaRow>(sql`SELECT email, username, mfa_enabled, mfa_secret FROM users WHERE id = ${userId}`))!
}

/**
 * Starts (or restarts) MFA setup: a new secret kept pending until verified and
 * 10 new backup codes (stored hashed). 409 when MFA is already on.
 */
export async function setupMfa(db: Executor, userId: string) {
  const row = await mfaRow(db, userId)
  if (row.mfa_enabled) throw apiError(409, 'MFA is already enabled')
  const secret = new Secret({ size: 20 }).base32
  const otpauthUrl = totp(secret, row.email ?? row.username).toString()
  const backupCodes = Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode)
  const qrCode = await qrCodeDataUrl(otpauthUrl)
  await db.transaction(async (tx) => {
    // Only while MFA is off: a verify that completed meanwhile keeps its secret.
    const pending = await tx.run(sql`UPDATE users SET mfa_secret = ${sealTotpSecret(secret, userId)}, mfa_last_step = NULL
      WHERE id = ${userId} AND mfa_enabled = 0`)
    if (pending.changes !== 1) throw apiError(409, 'MFA is already enabled')
    await tx.run(sql`DELETE FROM mfa_backup_codes WHERE user_id = ${userId}`)
    for (const code of backupCodes) {
      await tx.run(sql`INSERT INTO mfa_backup_codes (id, user_id, code_hash) VALUES (${randomUUID()}, ${userId}, ${hashBackupCode(code)})`)
    }
  })
  return { qrCode, secret, otpauthUrl, backupCodes }
}

/**
 * Checks a 6-digit TOTP code against the user's secret (±1 step) and records
 * its step, so the same code (or an older one) is never accepted again.
 * `stored` is the row's mfa_secret (sealed): the write names it, so a secret
 * replaced meanwhile makes the check fail.
 */
async function consumeTotp(db: Executor, userId: string, stored: string, code: string, now: number): Promise<boolean> {
  if (!TOTP_PATTERN.test(code)) return false
  const generator = totp(openTotpSecret(stored, userId), 'check')
  // validate() answers the step offset (0 for the current step, so compare with null).
  const delta = generator.validate({ token: code, timestamp: now, window: WINDOW })
  if (delta === null) return false
  const step = generator.counter({ timestamp: now }) + delta
  // One conditional UPDATE, so two concurrent requests cannot both use the code.
  const result = await db.run(sql`UPDATE users SET mfa_last_step = ${step}
    WHERE id = ${userId} AND mfa_secret = ${stored} AND (mfa_last_step IS NULL OR mfa_last_step < ${step})`)
  return result.changes === 1
}

/** Marks an unused backup code of the user as used; false when there is none. */
async function consumeBackupCode(db: Executor, userId: string, code: string, now: number): Promise<boolean> {
  if (!BACKUP_PATTERN.test(normaliseBackupCode(code))) return false
  const result = await db.run(sql`UPDATE mfa_backup_codes SET used_at = ${new Date(now).toISOString()}
    WHERE user_id = ${userId} AND code_hash = ${hashBackupCode(code)} AND used_at IS NULL`)
  return result.changes === 1
}

/**
 * The MFA check of a user with MFA on: a TOTP code (each accepted once) or an
 * unused backup code (consumed). False when MFA is off or the code is wrong.
 * Used by login, change-password, reset-password, MFA disable and the OAuth MFA step.
 */
export async function verifyMfaCode(db: Executor, userId: string, code: string, now = Date.now()): Promise<boolean> {
  const row = await mfaRow(db, userId)
  if (!row?.mfa_enabled || !row.mfa_secret) return false
  const trimmed = code.trim()
  return TOTP_PATTERN.test(trimmed)
    ? consumeTotp(db, userId, row.mfa_secret, trimmed, now)
    : consumeBackupCode(db, userId, trimmed, now)
}

/** True when the user has MFA on (so login and password changes need a code). */
export async function isMfaEnabled(db: Executor, userId: string): Promise<boolean> {
  return (await mfaRow(db, userId))?.mfa_enabled === 1
}

/**
 * Throws the 400 the password endpoints answer when MFA is on and the code is
 * missing (`MFA code required`) or wrong (`Invalid MFA code`).
 */
export async function requireMfaCode(db: Executor, userId: string, code: string | undefined, now = Date.now()): Promise<void> {
  if (!await isMfaEnabled(db, userId)) return
  if (!code) throw apiError(400, 'MFA code required')
  if (!await verifyMfaCode(db, userId, code, now)) throw apiError(400, 'Invalid MFA code')
}

/** Confirms a pending setup with a TOTP code from the authenticator and turns MFA on. */
export async function enableMfa(db: Executor, userId: string, code: string, now = Date.now()) {
  const row = await mfaRow(db, userId)
  if (row.mfa_enabled) throw apiError(409, 'MFA is already enabled')
  if (!row.mfa_secret) throw apiError(400, 'MFA setup has not been started')
  await db.transaction(async (tx) => {
    // The code and the switch-on both name the secret that was checked: a setup
    // that replaced it meanwhile makes this verify fail instead of enabling MFA
    // with a secret nobody has seen.
    if (!await consumeTotp(tx, userId, row.mfa_secret!, code.trim(), now)) throw apiError(400, 'Invalid MFA code')
    const enabled = await tx.run(sql`UPDATE users SET mfa_enabled = 1 WHERE id = ${userId} AND mfa_secret = ${row.mfa_secret} AND mfa_enabled = 0`)
    if (enabled.changes !== 1) throw apiError(400, 'Invalid MFA code')
  })
  return { success: true as const, mfaEnabled: true }
}

/** Turns MFA off after the password and a current code: secret and backup codes are removed. */
export async function disableMfa(db: Executor, userId: string, input: { password: string, mfaCode: string }, now = Date.now()) {
  if (!await isMfaEnabled(db, userId)) throw apiError(400, 'MFA is not enabled')
  const { password_hash: passwordHash } = (await db.get<{ password_hash: string | null }>(sql`SELECT password_hash FROM users WHERE id = ${userId}`))!
  if (!await verifyPassword(passwordHash, input.password)) throw apiError(400, 'Password is incorrect')
  if (!await verifyMfaCode(db, userId, input.mfaCode, now)) throw apiError(400, 'Invalid MFA code')
  await db.transaction(async (tx) => {
    await tx.run(sql`UPDATE users SET mfa_enabled = 0, mfa_secret = NULL, mfa_last_step = NULL WHERE id = ${userId}`)
    await tx.run(sql`DELETE FROM mfa_backup_codes WHERE user_id = ${userId}`)
  })
  return { success: true as const, mfaEnabled: false }
}
