import { describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { registerAccount } from '../../server/services/accounts'
import { enableMfa, setupMfa, verifyMfaCode } from '../../server/services/mfa'
import { useTotpKey } from '../../server/services/totp-secrets'
import { totpCode } from '../support/accounts'
import { testDatabase } from '../support/database'

useTotpKey('a unit test key of at least thirty-two characters')

// A fixed clock at the start of a 30-second step.
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0)
const STEP = 30_000

async function mfaUser() {
  const db = await testDatabase()
  const user = await registerAccount(db, { email: 'mfa@unit.test', username: 'mfa_unit', password: 'correct horse battery' }, false)
  const setup = await setupMfa(db, user.id)
  await enableMfa(db, user.id, totpCode(setup.secret, T0), T0)
  return { db, userId: user.id, ...setup }
}

describe('verifyMfaCode', () => {
  it('is false while MFA is only set up, not verified', async () => {
    const db = await testDatabase()
    const user = await registerAccount(db, { email: 'pending@unit.test', username: 'pending', password: 'correct horse battery' }, false)
    const setup = await setupMfa(db, user.id)
    expect(await verifyMfaCode(db, user.id, totpCode(setup.secret, T0), T0)).toBe(false)
    expect(await verifyMfaCode(db, user.id, setup.backupCodes[0]!, T0)).toBe(false)
  })

  it('accepts a code once (replay rejected), then the next step\'s code', async () => {
    const { db, userId, secret } = await mfaUser()
    // T0's code was used to verify the setup.
    expect(await verifyMfaCode(db, userId, totpCode(secret, T0), T0)).toBe(false)
    const next = totpCode(secret, T0 + STEP)
    expect(await verifyMfaCode(db, userId, next, T0 + STEP)).toBe(true)
    expect(await verifyMfaCode(db, userId, next, T0 + STEP)).toBe(false)
    expect(await verifyMfaCode(db, userId, next, T0 + 2 * STEP)).toBe(false)
    expect(await verifyMfaCode(db, userId, totpCode(secret, T0 + 2 * STEP), T0 + 2 * STEP)).toBe(true)
  })

  it('accepts ±1 step of clock drift, not 2', async () => {
    const { db, userId, secret } = await mfaUser()
    const now = T0 + 10 * STEP
    expect(await verifyMfaCode(db, userId, totpCode(secret, now - 2 * STEP), now)).toBe(false)
    expect(await verifyMfaCode(db, userId, totpCode(secret, now - STEP), now)).toBe(true)
    expect(await verifyMfaCode(db, userId, totpCode(secret, now + 2 * STEP), now)).toBe(false)
    expect(await verifyMfaCode(db, userId, totpCode(secret, now + STEP), now)).toBe(true)
    // After a code from step now+1, the current step's code is older: rejected.
    expect(await verifyMfaCode(db, userId, totpCode(secret, now), now)).toBe(false)
  })

  it('accepts each backup code once, ignoring case, dashes and spaces', async () => {
    const { db, userId, backupCodes } = await mfaUser()
    expect(await verifyMfaCode(db, userId, backupCodes[0]!, T0)).toBe(true)
    expect(await verifyMfaCode(db, userId, backupCodes[0]!, T0)).toBe(false)
    expect(await verifyMfaCode(db, userId, ` ${backupCodes[1]!.replace(/-/g, '').toLowerCase()} `, T0)).toBe(true)
    expect(await verifyMfaCode(db, userId, '0000-0000-0000-0000', T0)).toBe(false)
    expect(await verifyMfaCode(db, userId, 'not a code', T0)).toBe(false)
  })

  it('stores backup codes hashed and never the raw value', async () => {
    const { db, userId, backupCodes } = await mfaUser()
    const stored = JSON.stringify(await db.all(sql`SELECT * FROM mfa_backup_codes WHERE user_id = ${userId}`))
    expect(await db.get(sql`SELECT count(*) AS n FROM mfa_backup_codes WHERE user_id = ${userId}`)).toEqual({ n: 10 })
    for (const code of backupCodes) {
      expect(stored).not.toContain(code)
      expect(stored).not.toContain(code.replace(/-/g, ''))
    }
  })

  it('does not accept one user\'s backup code for another user', async () => {
    const first = await mfaUser()
    const user = await registerAccount(first.db, { email: 'other@unit.test', username: 'other_unit', password: 'correct horse battery' }, false)
    const setup = await setupMfa(first.db, user.id)
    await enableMfa(first.db, user.id, totpCode(setup.secret, T0), T0)
    expect(await verifyMfaCode(first.db, user.id, first.backupCodes[0]!, T0)).toBe(false)
  })
})
