import { afterEach, describe, expect, it, vi } from 'vitest'
import { sql } from '../../server/database/sql'
import { actorFromSessionToken, createSession, revokeSession, SESSION_TTL_SECONDS } from '../../server/services/sessions'
import { testDatabase } from '../support/database'

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256-0123456789'

async function setup() {
  const db = await testDatabase()
  await db.run(sql`INSERT INTO users (id, email, username) VALUES ('u1', 'one@unit.test', 'one')`)
  return db
}

describe('session JWTs', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('accepts a valid token again and again (remembered after the first check)', async () => {
    const db = await setup()
    const { token, sessionId } = await createSession(db, SECRET, 'u1')
    for (let i = 0; i < 3; i++) {
      const actor = await actorFromSessionToken(db, SECRET, token, [])
      expect(actor).toEqual({ id: 'u1', username: 'one', email: 'one@unit.test', isAdmin: false, shadowBanned: false, sessionId })
    }
  })

  it('refuses a remembered token once it has expired', async () => {
    const db = await setup()
    const { token } = await createSession(db, SECRET, 'u1')
    expect(await actorFromSessionToken(db, SECRET, token, [])).not.toBeNull()
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + (SESSION_TTL_SECONDS + 1) * 1000)
    expect(await actorFromSessionToken(db, SECRET, token, [])).toBeNull()
  })

  it('refuses a remembered token whose session was revoked', async () => {
    const db = await setup()
    const { token, sessionId } = await createSession(db, SECRET, 'u1')
    expect(await actorFromSessionToken(db, SECRET, token, [])).not.toBeNull()
    await revokeSession(db, sessionId)
    expect(await actorFromSessionToken(db, SECRET, token, [])).toBeNull()
  })

  it('refuses a remembered token under another key, and unsigned or tampered tokens', async () => {
    const db = await setup()
    const { token } = await createSession(db, SECRET, 'u1')
    expect(await actorFromSessionToken(db, SECRET, token, [])).not.toBeNull()
    expect(await actorFromSessionToken(db, `${SECRET}-rotated`, token, [])).toBeNull()
    const [, payload] = token.split('.')
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`
    expect(await actorFromSessionToken(db, SECRET, unsigned, [])).toBeNull()
    expect(await actorFromSessionToken(db, SECRET, `${token.slice(0, -2)}xx`, [])).toBeNull()
  })
})
