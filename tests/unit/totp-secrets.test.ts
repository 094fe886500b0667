import { describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { registerAccount } from '../../server/services/accounts'
import { enableMfa, setupMfa, verifyMfaCode } from '../../server/services/mfa'
import { openTotpSecret, sealPlainTotpSecrets, sealTotpSecret, useTotpKey } from '../../server/services/totp-secrets'
import { totpCode } from '../support/accounts'
import { testDatabase } from '../support/database'

const KEY = 'a unit test key of at least thirty-two characters'
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0)
const STEP = 30_000

useTotpKey(KEY)

async function account(name: string) {
  const db = await testDatabase()
  const user = await registerAccount(db, { email: `${name}@unit.test`, username: name, password: 'correct horse battery' }, false)
  const stored = async () => (await db.get<{ mfa_secret: string | null }>(sql`SELECT mfa_secret FROM users WHERE id = ${user.id}`))!.mfa_secret
  return { db, userId: user.id, stored }
}

describe('TOTP secrets at rest', () => {
  it('stores an AES-256-GCM sealed value, not the base32 secret, and it still verifies', async () => {
    const { db, userId, stored } = await account('sealed')
    const setup = await setupMfa(db, userId)
    const value = (await stored())!
    expect(value).not.toBe(setup.secret)
    expect(value).not.toContain(setup.secret)
    expect(value).toMatch(/^v1:[\w-]+$/)
    // 12-byte IV + 20 bytes of base32 secret as text (32 characters) + 16-byte tag.
    expect(Buffer.from(value.slice(3), 'base64url')).toHaveLength(12 + 32 + 16)
    expect(openTotpSecret(value, userId)).toBe(setup.secret)

    expect(await enableMfa(db, userId, totpCode(setup.secret, T0), T0)).toEqual({ success: true, mfaEnabled: true })
    expect(await verifyMfaCode(db, userId, totpCode(setup.secret, T0 + STEP), T0 + STEP)).toBe(true)
    expect(await verifyMfaCode(db, userId, '000000', T0 + 2 * STEP)).toBe(false)
  })

  it('seals each value with its own IV, bound to its user', async () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
    const a = sealTotpSecret(secret, 'user-a')
    expect(sealTotpSecret(secret, 'user-a')).not.toBe(a)
    expect(openTotpSecret(a, 'user-a')).toBe(secret)
    // Copied onto another row, it does not open; the message never carries the value.
    expect(() => openTotpSecret(a, 'user-b')).toThrow(/cannot be decrypted/)
    try {
      openTotpSecret(a, 'user-b')
    }
    catch (error) {
      expect(String((error as Error).message)).not.toContain(secret)
    }
  })

  it('does not open under another key', () => {
    const sealed = sealTotpSecret('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 'user-a')
    useTotpKey('another key entirely, also long enough to pass')
    try {
      expect(() => openTotpSecret(sealed, 'user-a')).toThrow(/TOTP key/)
    }
    finally {
      useTotpKey(KEY)
    }
  })

  it('keeps a plain secret from before encryption readable, and seals it at start', async () => {
    const { db, userId, stored } = await account('legacy')
    const secret = 'KRUGS4ZANFZSAYJAONSWG4TFOQQGC3TE'
    await db.run(sql`UPDATE users SET mfa_enabled = 1, mfa_secret = ${secret} WHERE id = ${userId}`)
    expect(await verifyMfaCode(db, userId, totpCode(secret, T0), T0)).toBe(true)

    expect(await sealPlainTotpSecrets(db)).toBe(1)
    const value = (await stored())!
    expect(value).toMatch(/^v1:/)
    expect(value).not.toContain(secret)
    expect(await verifyMfaCode(db, userId, totpCode(secret, T0 + STEP), T0 + STEP)).toBe(true)
    expect(await sealPlainTotpSecrets(db)).toBe(0)
    expect(await stored()).toBe(value)
  })
})
