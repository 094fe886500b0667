import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import type { Executor } from '../database/port'
import { sql } from '../database/sql'

/**
 * TOTP secrets at rest: `users.mfa_secret` holds `v1:` and, base64url,
 * a 12-byte IV, the AES-256-GCM ciphertext of the base32 secret and its
 * 16-byte tag, with the user id as associated data (a value copied onto
 * another row does not open). The key is derived (HKDF-SHA-256) from the
 * generated `totpKey` secret, or NUXT_TOTP_KEY. A value without the prefix
 * is a base32 secret stored before encryption (base32 has no colon), read
 * as is until the start-up step seals it.
 */
const PREFIX = 'v1:'
const IV_BYTES = 12
const TAG_BYTES = 16

let key: Buffer | undefined

/** Sets the key of this process (at start, once the secrets are loaded). */
export function useTotpKey(secret: string): void {
  key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'does-it-fuck totp secret v1', 32))
}

function currentKey(): Buffer {
  if (!key) throw new Error('The TOTP key is not loaded')
  return key
}

/** The value to store for `secret` (base32) on `userId`'s row. */
export function sealTotpSecret(secret: string, userId: string): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', currentKey(), iv)
  cipher.setAAD(Buffer.from(userId, 'utf8'))
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
  return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')
}

/** The base32 secret behind a stored value (sealed, or plain from before encryption). */
export function openTotpSecret(stored: string, userId: string): string {
  if (!stored.startsWith(PREFIX)) return stored
  const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url')
  try {
    const decipher = createDecipheriv('aes-256-gcm', currentKey(), raw.subarray(0, IV_BYTES))
    decipher.setAAD(Buffer.from(userId, 'utf8'))
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES))
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8')
  }
  catch {
    // Never the value itself in the message: only that the key does not open it.
    throw new Error('A stored TOTP secret cannot be decrypted: the TOTP key (NUXT_TOTP_KEY or totpKey in secrets) has changed')
  }
}

/**
 * At start: seals every TOTP secret still stored in plain. Each row is
 * replaced only if it still holds the value read, so a concurrent set-up
 * or disable wins. Answers how many were sealed.
 */
export async function sealPlainTotpSecrets(db: Executor): Promise<number> {
  const rows = await db.all<{ id: string, mfa_secret: string }>(sql`SELECT id, mfa_secret FROM users
    WHERE mfa_secret IS NOT NULL AND mfa_secret NOT LIKE ${`${PREFIX}%`}`)
  let sealed = 0
  for (const row of rows) {
    const result = await db.run(sql`UPDATE users SET mfa_secret = ${sealTotpSecret(row.mfa_secret, row.id)}
      WHERE id = ${row.id} AND mfa_secret = ${row.mfa_secret}`)
    sealed += result.changes
  }
  return sealed
}
