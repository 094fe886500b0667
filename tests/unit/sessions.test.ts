import { afterEach, describe, expect, it, vi } from 'vitest'
import { sql } from '../../server/database/sql'
import { actorFromSessionToken, createSession, listSessions, revokeSession, revokeUserSession, SESSION_TTL_SECONDS } from '../../server/services/sessions'
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

describe('sessions list and last seen', () => {
  const lastSeen = async (db: Awaited<ReturnType<typeof setup>>, id: string) =>
    (await db.get<{ last_seen_at: string }>(sql`SELECT last_seen_at FROM sessions WHERE id = ${id}`))!.last_seen_at

  it('writes last_seen_at at most once a minute', async () => {
    const db = await setup()
    // Ten minutes ago, so the JWT (checked against the real clock) is still valid.
    const start = Date.now() - 10 * 60_000
    const iso = (ms: number) => new Date(ms).toISOString()
    const { token, sessionId } = await createSession(db, SECRET, 'u1', { nowMs: start })
    expect(await lastSeen(db, sessionId)).toBe(iso(start))
    expect(await actorFromSessionToken(db, SECRET, token, [], start + 59_000)).not.toBeNull()
    expect(await lastSeen(db, sessionId)).toBe(iso(start))
    expect(await actorFromSessionToken(db, SECRET, token, [], start + 61_000)).not.toBeNull()
    expect(await lastSeen(db, sessionId)).toBe(iso(start + 61_000))
    expect(await actorFromSessionToken(db, SECRET, token, [], start + 100_000)).not.toBeNull()
    expect(await lastSeen(db, sessionId)).toBe(iso(start + 61_000))
  })

  it('keeps 256 characters of the User-Agent and lists live sessions, the current one marked', async () => {
    const db = await setup()
    const now = Date.now()
    const a = await createSession(db, SECRET, 'u1', { userAgent: 'é'.repeat(300), nowMs: now - 2000 })
    const b = await createSession(db, SECRET, 'u1', { userAgent: 'B', nowMs: now - 1000 })
    const gone = await createSession(db, SECRET, 'u1', { nowMs: now })
    await revokeSession(db, gone.sessionId)
    const { sessions } = await listSessions(db, 'u1', b.sessionId, now)
    expect(sessions.map(s => [s.id, s.current])).toEqual([[b.sessionId, true], [a.sessionId, false]])
    expect(sessions[1]!.userAgent).toBe('é'.repeat(256))
  })

  it('revokes only the owner\'s live sessions', async () => {
    const db = await setup()
    await db.run(sql`INSERT INTO users (id, email, username) VALUES ('u2', 'two@unit.test', 'two')`)
    const { token, sessionId } = await createSession(db, SECRET, 'u1')
    await expect(revokeUserSession(db, 'u2', sessionId)).rejects.toMatchObject({ statusCode: 404 })
    expect(await actorFromSessionToken(db, SECRET, token, [])).not.toBeNull()
    await expect(revokeUserSession(db, 'u1', sessionId)).resolves.toEqual({ success: true })
    expect(await actorFromSessionToken(db, SECRET, token, [])).toBeNull()
    await expect(revokeUserSession(db, 'u1', sessionId)).rejects.toMatchObject({ statusCode: 404 })
  })
})
