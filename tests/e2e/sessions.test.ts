import { describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { enableMfa, totpCode } from '../support/accounts'
import { api, registerUser, type TestUser } from '../support/api'
import { expectMatchesOpenApi } from '../support/openapi'
import { serverDatabase } from '../support/seed'

/** A new session of `user` through the password login, as a client with this User-Agent. */
async function login(user: TestUser, userAgent: string, mfaCode?: string): Promise<string> {
  const response = await api('/api/auth', {
    method: 'POST',
    headers: { 'user-agent': userAgent },
    body: { action: 'login', email: user.email, password: user.password, ...(mfaCode ? { mfaCode } : {}) },
  })
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body.token
}

const sessionIdOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string

const expectError = (response: { status: number, body: unknown }, status: number, message: string) => {
  expect(response.status).toBe(status)
  expect(response.body).toEqual({ statusCode: status, statusMessage: expect.any(String), message })
}

describe('GET /api/auth/sessions', () => {
  it('lists the caller\'s live sessions with their User-Agent, the current one marked, not cached', async () => {
    const user = await registerUser()
    const other = await registerUser()
    const phone = await login(user, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1')
    const laptop = await login(user, 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36')
    await login(other, 'not mine')
    const response = await api('/api/auth/sessions', { token: laptop })
    expect(response.status).toBe(200)
    await expectMatchesOpenApi('GET', '/api/auth/sessions', response)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const sessions = response.body.sessions as { id: string, createdAt: string, lastSeenAt: string, userAgent: string | null, current: boolean }[]
    expect(sessions).toHaveLength(3)
    const byId = new Map(sessions.map(s => [s.id, s]))
    expect(byId.get(sessionIdOf(laptop))).toEqual({
      id: sessionIdOf(laptop), createdAt: expect.any(String), lastSeenAt: expect.any(String),
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36', current: true,
    })
    expect(byId.get(sessionIdOf(phone))).toMatchObject({ userAgent: expect.stringContaining('iPhone'), current: false })
    // The registration's own session (registered through Node's fetch).
    expect(byId.get(sessionIdOf(user.token))).toMatchObject({ current: false })
    expect(sessions.filter(s => s.current)).toHaveLength(1)
    for (const session of sessions) expect(Date.parse(session.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(session.createdAt))
  })

  it('leaves out sessions that were signed out or have expired', async () => {
    const user = await registerUser()
    const gone = await login(user, 'signed out')
    const expired = await login(user, 'expired')
    expect((await api('/api/auth/logout', { method: 'POST', token: gone })).status).toBe(200)
    await serverDatabase().db.run(sql`UPDATE sessions SET expires_at = ${new Date(Date.now() - 1000).toISOString()} WHERE id = ${sessionIdOf(expired)}`)
    const response = await api('/api/auth/sessions', { token: user.token })
    expect(response.body.sessions.map((s: { id: string }) => s.id)).toEqual([sessionIdOf(user.token)])
  })

  it('keeps at most 256 characters of the User-Agent', async () => {
    const user = await registerUser()
    const token = await login(user, `Agent/${'x'.repeat(400)}`)
    const current = (await api('/api/auth/sessions', { token })).body.sessions.find((s: { current: boolean }) => s.current)
    expect(current.userAgent).toBe(`Agent/${'x'.repeat(250)}`)
  })

  it('records the User-Agent of every kind of sign-in: registration and the MFA step', async () => {
    const registration = await api('/api/auth', {
      method: 'POST',
      headers: { 'user-agent': 'Registering/1.0' },
      body: { action: 'register', email: `ua_${Date.now()}@e2e.test`, username: `ua_${Date.now()}`, password: 'correct horse battery' },
    })
    expect(registration.status).toBe(201)
    const listed = (await api('/api/auth/sessions', { token: registration.body.token })).body.sessions
    expect(listed).toEqual([expect.objectContaining({ userAgent: 'Registering/1.0', current: true })])

    const user = await enableMfa(await registerUser())
    const token = await login(user, 'MfaClient/2.0', totpCode(user.secret, user.verifiedAt + 30_000))
    const current = (await api('/api/auth/sessions', { token })).body.sessions.find((s: { current: boolean }) => s.current)
    expect(current.userAgent).toBe('MfaClient/2.0')
  })

  it('answers 401 without a session, and for a JWT bearer (cookie only)', async () => {
    const user = await registerUser()
    const anonymous = await api('/api/auth/sessions')
    expectError(anonymous, 401, 'Authentication required')
    await expectMatchesOpenApi('GET', '/api/auth/sessions', anonymous)
    expectError(await api('/api/auth/sessions', { bearer: user.token }), 401, 'Authentication required')
  })
})

describe('DELETE /api/auth/sessions/{id}', () => {
  it('revokes another session: its JWT then gets 401 everywhere, the caller\'s stays valid', async () => {
    const user = await registerUser()
    const stolen = await login(user, 'somewhere else')
    const response = await api(`/api/auth/sessions/${sessionIdOf(stolen)}`, { method: 'DELETE', token: user.token })
    expect(response.status).toBe(200)
    await expectMatchesOpenApi('DELETE', '/api/auth/sessions/{id}', response)
    expect(response.body).toEqual({ success: true })
    expect(response.headers.get('set-cookie')).toBeNull()
    for (const path of ['/api/profile', '/api/auth/sessions', '/api/auth/passkeys']) {
      expectError(await api(path, { token: stolen }), 401, 'Invalid or expired token')
    }
    expectError(await api('/api/auth/tokens', { bearer: stolen }), 401, 'Invalid or expired token')
    expect((await api('/api/profile', { token: user.token })).status).toBe(200)
    const left = (await api('/api/auth/sessions', { token: user.token })).body.sessions
    expect(left.map((s: { id: string }) => s.id)).toEqual([sessionIdOf(user.token)])
    expectError(await api(`/api/auth/sessions/${sessionIdOf(stolen)}`, { method: 'DELETE', token: user.token }), 404, 'Session not found')
  })

  it('revokes the current session and clears its cookie', async () => {
    const user = await registerUser()
    const response = await api(`/api/auth/sessions/${sessionIdOf(user.token)}`, { method: 'DELETE', token: user.token })
    expect(response.status).toBe(200)
    expect(response.headers.get('set-cookie')).toMatch(/^auth-token=;.*Max-Age=0/i)
    expectError(await api('/api/profile', { token: user.token }), 401, 'Invalid or expired token')
  })

  it('answers 404 for another user\'s session (and leaves it) and for an unknown id', async () => {
    const owner = await registerUser()
    const intruder = await registerUser()
    const response = await api(`/api/auth/sessions/${sessionIdOf(owner.token)}`, { method: 'DELETE', token: intruder.token })
    expectError(response, 404, 'Session not found')
    await expectMatchesOpenApi('DELETE', '/api/auth/sessions/{id}', response)
    expect((await api('/api/profile', { token: owner.token })).status).toBe(200)
    expectError(await api('/api/auth/sessions/00000000-0000-4000-8000-000000000000', { method: 'DELETE', token: owner.token }), 404, 'Session not found')
  })

  it('answers 400 for a malformed id and 401 without a session', async () => {
    const user = await registerUser()
    const malformed = await api('/api/auth/sessions/not-a-uuid', { method: 'DELETE', token: user.token })
    expect(malformed.status).toBe(400)
    expect(malformed.body.message).toBe('Invalid ID')
    expectError(await api(`/api/auth/sessions/${sessionIdOf(user.token)}`, { method: 'DELETE' }), 401, 'Authentication required')
  })
})

describe('last seen', () => {
  const lastSeen = async (sessionId: string) =>
    (await serverDatabase().db.get<{ last_seen_at: string }>(sql`SELECT last_seen_at FROM sessions WHERE id = ${sessionId}`))!.last_seen_at

  it('is written at most once a minute: two requests in a row write it once', async () => {
    const user = await registerUser()
    const id = sessionIdOf(user.token)
    const old = new Date(Date.now() - 5 * 60_000).toISOString()
    await serverDatabase().db.run(sql`UPDATE sessions SET last_seen_at = ${old} WHERE id = ${id}`)

    const before = Date.now()
    expect((await api('/api/profile', { token: user.token })).status).toBe(200)
    const first = await lastSeen(id)
    expect(Date.parse(first)).toBeGreaterThanOrEqual(before - 1000)
    expect(Date.parse(first)).toBeLessThanOrEqual(Date.now())

    expect((await api('/api/profile', { token: user.token })).status).toBe(200)
    expect((await api('/api/auth/sessions', { token: user.token })).status).toBe(200)
    expect(await lastSeen(id)).toBe(first)
    const listed = (await api('/api/auth/sessions', { token: user.token })).body.sessions[0]
    expect(listed.lastSeenAt).toBe(first)
  })

  it('is written again once the stored time is over a minute old', async () => {
    const user = await registerUser()
    const id = sessionIdOf(user.token)
    const recent = new Date(Date.now() - 30_000).toISOString()
    await serverDatabase().db.run(sql`UPDATE sessions SET last_seen_at = ${recent} WHERE id = ${id}`)
    await api('/api/profile', { token: user.token })
    expect(await lastSeen(id)).toBe(recent)
    const stale = new Date(Date.now() - 61_000).toISOString()
    await serverDatabase().db.run(sql`UPDATE sessions SET last_seen_at = ${stale} WHERE id = ${id}`)
    await api('/api/profile', { token: user.token })
    expect(Date.parse(await lastSeen(id))).toBeGreaterThan(Date.parse(stale) + 60_000)
  })

  it('starts at sign-in', async () => {
    const user = await registerUser()
    const row = await serverDatabase().db.get<{ created_at: string, last_seen_at: string }>(sql`SELECT created_at, last_seen_at FROM sessions WHERE id = ${sessionIdOf(user.token)}`)
    expect(row!.last_seen_at).toBe(row!.created_at)
  })
})
