import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { registerAccount } from '../../server/services/accounts'
import { actorFromApiToken, generateApiToken, listApiTokens, revokeApiToken } from '../../server/services/api-tokens'
import { createSession } from '../../server/services/sessions'
import { testDatabase } from '../support/database'

const DAY = 86_400_000

async function withUser() {
  const db = await testDatabase()
  const user = await registerAccount(db, { email: 'tokens@unit.test', username: 'tokens_unit', password: 'correct horse battery' }, false)
  return { db, user }
}

describe('actorFromApiToken (what requireApiToken checks)', () => {
  it('answers the owner for a valid token and records lastUsedAt', async () => {
    const { db, user } = await withUser()
    const { id, token } = await generateApiToken(db, user.id, { name: 'ci', expiresInDays: 30 })
    const now = Date.now() + 1000
    const actor = await actorFromApiToken(db, token, [], now)
    expect(actor).toEqual({ id: user.id, username: 'tokens_unit', email: 'tokens@unit.test', isAdmin: false, shadowBanned: false, sessionId: undefined, tokenId: id })
    expect((await listApiTokens(db, user.id)).tokens[0]!.lastUsedAt).toBe(new Date(now).toISOString())
  })

  it('rejects an expired token (clock moved past expiresAt)', async () => {
    const { db, user } = await withUser()
    const { token, expiresAt } = await generateApiToken(db, user.id, { name: 'ci', expiresInDays: 1 })
    expect(await actorFromApiToken(db, token, [], Date.parse(expiresAt) - 1)).not.toBeNull()
    expect(await actorFromApiToken(db, token, [], Date.parse(expiresAt))).toBeNull()
    expect(await actorFromApiToken(db, token, [], Date.parse(expiresAt) + DAY)).toBeNull()
  })

  it('rejects a revoked token and keeps the others', async () => {
    const { db, user } = await withUser()
    const revoked = await generateApiToken(db, user.id, { name: 'old', expiresInDays: 30 })
    const kept = await generateApiToken(db, user.id, { name: 'new', expiresInDays: 30 })
    expect(await revokeApiToken(db, user.id, revoked.id)).toEqual({ success: true })
    expect(await actorFromApiToken(db, revoked.token, [])).toBeNull()
    expect((await actorFromApiToken(db, kept.token, []))?.tokenId).toBe(kept.id)
  })

  it('rejects malformed and unknown tokens', async () => {
    const { db, user } = await withUser()
    const { token } = await generateApiToken(db, user.id, { name: 'ci', expiresInDays: 30 })
    for (const bad of ['', token.slice(1), `${token}0`, token.toUpperCase(), `${token.slice(0, 63)}g`, randomBytes(32).toString('hex')]) {
      expect(await actorFromApiToken(db, bad, [])).toBeNull()
    }
  })

  it('rejects a session JWT in place of an API token', async () => {
    const { db, user } = await withUser()
    const { token: jwt } = await createSession(db, 'a-unit-test-secret-of-enough-length', user.id)
    expect(await actorFromApiToken(db, jwt, [])).toBeNull()
  })

  it('marks an admin from the admin e-mail list once the address is verified', async () => {
    const { db, user } = await withUser()
    const { token } = await generateApiToken(db, user.id, { name: 'ci', expiresInDays: 30 })
    expect((await actorFromApiToken(db, token, ['tokens@unit.test']))?.isAdmin).toBe(false)
    await db.run(sql`UPDATE users SET email_verified = 1 WHERE id = ${user.id}`)
    expect((await actorFromApiToken(db, token, ['tokens@unit.test']))?.isAdmin).toBe(true)
  })
})

describe('revokeApiToken', () => {
  it('is a 404 for another user\'s token', async () => {
    const { db, user } = await withUser()
    const other = await registerAccount(db, { email: 'other@unit.test', username: 'other_unit', password: 'correct horse battery' }, false)
    const { id } = await generateApiToken(db, user.id, { name: 'ci', expiresInDays: 30 })
    await expect(revokeApiToken(db, other.id, id)).rejects.toMatchObject({ statusCode: 404, message: 'Token not found' })
    expect((await listApiTokens(db, user.id)).tokens).toHaveLength(1)
  })
})
