import { afterEach, describe, expect, it, vi } from 'vitest'
import { actorFromSessionToken, createSession, revokeSession, SESSION_TTL_SECONDS } from '../../server/services/sessions'
import { testDatabase } from '../support/database'

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256-0123456789'

function setup() {
  const { sqlite } = testDatabase()
  sqlite.prepare(`INSERT INTO users (id, email, username) VALUES ('u1', 'one@unit.test', 'one')`).run()
  return sqlite
}

describe('session JWTs', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('accepts a valid token again and again (remembered after the first check)', async () => {
    const sqlite = setup()
    const { token, sessionId } = await createSession(sqlite, SECRET, 'u1')
    for (let i = 0; i < 3; i++) {
      const actor = await actorFromSessionToken(sqlite, SECRET, token, [])
      expect(actor).toEqual({ id: 'u1', username: 'one', email: 'one@unit.test', isAdmin: false, shadowBanned: false, sessionId })
    }
  })

  it('refuses a remembered token once it has expired', async () => {
    const sqlite = setup()
    const { token } = await createSession(sqlite, SECRET, 'u1')
    expect(await actorFromSessionToken(sqlite, SECRET, token, [])).not.toBeNull()
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + (SESSION_TTL_SECONDS + 1) * 1000)
    expect(await actorFromSessionToken(sqlite, SECRET, token, [])).toBeNull()
  })

  it('refuses a remembered token whose session was revoked', async () => {
    const sqlite = setup()
    const { token, sessionId } = await createSession(sqlite, SECRET, 'u1')
    expect(await actorFromSessionToken(sqlite, SECRET, token, [])).not.toBeNull()
    revokeSession(sqlite, sessionId)
    expect(await actorFromSessionToken(sqlite, SECRET, token, [])).toBeNull()
  })

  it('refuses a remembered token under another key, and unsigned or tampered tokens', async () => {
    const sqlite = setup()
    const { token } = await createSession(sqlite, SECRET, 'u1')
    expect(await actorFromSessionToken(sqlite, SECRET, token, [])).not.toBeNull()
    expect(await actorFromSessionToken(sqlite, `${SECRET}-rotated`, token, [])).toBeNull()
    const [, payload] = token.split('.')
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`
    expect(await actorFromSessionToken(sqlite, SECRET, unsigned, [])).toBeNull()
    expect(await actorFromSessionToken(sqlite, SECRET, `${token.slice(0, -2)}xx`, [])).toBeNull()
  })
})
