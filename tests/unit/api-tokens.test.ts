import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { registerAccount } from '../../server/services/accounts'
import { actorFromApiToken, generateApiToken, listApiTokens, revokeApiToken } from '../../server/services/api-tokens'
import { createSession } from '../../server/services/sessions'
import { testDatabase } from '../support/database'

const DAY = 86_400_000

async function withUser() {
  const { sqlite } = testDatabase()
  const user = await registerAccount(sqlite, { email: 'tokens@unit.test', username: 'tokens_unit', password: 'correct horse battery' }, false)
  return { sqlite, user }
}

describe('actorFromApiToken (what requireApiToken checks)', () => {
  it('answers the owner for a valid token and records lastUsedAt', async () => {
    const { sqlite, user } = await withUser()
    const { id, token } = generateApiToken(sqlite, user.id, { name: 'ci', expiresInDays: 30 })
    const now = Date.now() + 1000
    const actor = actorFromApiToken(sqlite, token, [], now)
    expect(actor).toEqual({ id: user.id, username: 'tokens_unit', email: 'tokens@unit.test', isAdmin: false, shadowBanned: false, sessionId: undefined, tokenId: id })
    expect(listApiTokens(sqlite, user.id).tokens[0]!.lastUsedAt).toBe(new Date(now).toISOString())
  })

  it('rejects an expired token (clock moved past expiresAt)', async () => {
    const { sqlite, user } = await withUser()
    const { token, expiresAt } = generateApiToken(sqlite, user.id, { name: 'ci', expiresInDays: 1 })
    expect(actorFromApiToken(sqlite, token, [], Date.parse(expiresAt) - 1)).not.toBeNull()
    expect(actorFromApiToken(sqlite, token, [], Date.parse(expiresAt))).toBeNull()
    expect(actorFromApiToken(sqlite, token, [], Date.parse(expiresAt) + DAY)).toBeNull()
  })

  it('rejects a revoked token and keeps the others', async () => {
    const { sqlite, user } = await withUser()
    const revoked = generateApiToken(sqlite, user.id, { name: 'old', expiresInDays: 30 })
    const kept = generateApiToken(sqlite, user.id, { name: 'new', expiresInDays: 30 })
    expect(revokeApiToken(sqlite, user.id, revoked.id)).toEqual({ success: true })
    expect(actorFromApiToken(sqlite, revoked.token, [])).toBeNull()
    expect(actorFromApiToken(sqlite, kept.token, [])?.tokenId).toBe(kept.id)
  })

  it('rejects malformed and unknown tokens', async () => {
    const { sqlite, user } = await withUser()
    const { token } = generateApiToken(sqlite, user.id, { name: 'ci', expiresInDays: 30 })
    for (const bad of ['', token.slice(1), `${token}0`, token.toUpperCase(), `${token.slice(0, 63)}g`, randomBytes(32).toString('hex')]) {
      expect(actorFromApiToken(sqlite, bad, [])).toBeNull()
    }
  })

  it('rejects a session JWT in place of an API token', async () => {
    const { sqlite, user } = await withUser()
    const { token: jwt } = await createSession(sqlite, 'a-unit-test-secret-of-enough-length', user.id)
    expect(actorFromApiToken(sqlite, jwt, [])).toBeNull()
  })

  it('marks an admin from the admin e-mail list', async () => {
    const { sqlite, user } = await withUser()
    const { token } = generateApiToken(sqlite, user.id, { name: 'ci', expiresInDays: 30 })
    expect(actorFromApiToken(sqlite, token, ['tokens@unit.test'])?.isAdmin).toBe(true)
  })
})

describe('revokeApiToken', () => {
  it('is a 404 for another user\'s token', async () => {
    const { sqlite, user } = await withUser()
    const other = await registerAccount(sqlite, { email: 'other@unit.test', username: 'other_unit', password: 'correct horse battery' }, false)
    const { id } = generateApiToken(sqlite, user.id, { name: 'ci', expiresInDays: 30 })
    expect(() => revokeApiToken(sqlite, other.id, id)).toThrow(expect.objectContaining({ statusCode: 404, message: 'Token not found' }))
    expect(listApiTokens(sqlite, user.id).tokens).toHaveLength(1)
  })
})
