import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, registerUser } from '../support/api'
import { serverDatabase } from '../support/seed'

const generate = (jwt: string, body: unknown = { name: 'CI' }) => api('/api/auth/tokens/generate', { method: 'POST', bearer: jwt, body })

describe('POST /api/auth/tokens/generate', () => {
  it('answers 201 with id, a 64-hex token, name and expiresAt one year ahead', async () => {
    const user = await registerUser()
    const before = Date.now()
    const response = await generate(user.token, { name: '  CI uploader  ' })
    expect(response.status).toBe(201)
    expect(Object.keys(response.body).sort()).toEqual(['expiresAt', 'id', 'name', 'token'])
    expect(response.body.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(response.body.token).toMatch(/^[0-9a-f]{64}$/)
    expect(response.body.name).toBe('CI uploader')
    const expires = Date.parse(response.body.expiresAt)
    expect(expires).toBeGreaterThanOrEqual(before + 365 * 86400_000)
    expect(expires).toBeLessThanOrEqual(Date.now() + 365 * 86400_000)
  })

  it('takes expiresInDays and accepts the JWT as the cookie too', async () => {
    const user = await registerUser()
    const response = await api('/api/auth/tokens/generate', { method: 'POST', token: user.token, body: { name: 'short', expiresInDays: 1 } })
    expect(response.status).toBe(201)
    expect(Date.parse(response.body.expiresAt) - Date.now()).toBeLessThanOrEqual(86400_000)
    expect(Date.parse(response.body.expiresAt) - Date.now()).toBeGreaterThan(86000_000)
  })

  it('stores only the SHA-256 hash of the token', async () => {
    const user = await registerUser()
    const { body } = await generate(user.token)
    const row = (await serverDatabase().db.get<Record<string, unknown>>(sql`SELECT * FROM api_tokens WHERE id = ${body.id}`))!
    expect(row.token_hash).toBe(createHash('sha256').update(body.token).digest('hex'))
    expect(JSON.stringify(row)).not.toContain(body.token)
  })

  it.each([
    [{}, 'Name is required'],
    [{ name: '   ' }, 'Name must be 1 to 100 characters'],
    [{ name: 'x'.repeat(101) }, 'Name must be 1 to 100 characters'],
    [{ name: 'x', expiresInDays: 0 }, 'expiresInDays must be an integer from 1 to 3650'],
    [{ name: 'x', expiresInDays: 3651 }, 'expiresInDays must be an integer from 1 to 3650'],
    [{ name: 'x', expiresInDays: 1.5 }, 'expiresInDays must be an integer from 1 to 3650'],
    [{ name: 'x', expiresInDays: '30' }, 'expiresInDays must be an integer from 1 to 3650'],
  ])('answers 400 for %j', async (body, message) => {
    const user = await registerUser()
    const response = await generate(user.token, body)
    expect(response.status).toBe(400)
    expect(response.body.message).toBe(message)
  })

  it('answers 401 without a JWT, before validating the body', async () => {
    const response = await api('/api/auth/tokens/generate', { method: 'POST', body: {} })
    expect(response.status).toBe(401)
    expect(response.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Authentication required' })
  })

  it('answers 401 for an API token in place of the JWT', async () => {
    const user = await registerUser()
    const { body } = await generate(user.token)
    for (const response of [await generate(body.token), await api('/api/auth/tokens', { bearer: body.token })]) {
      expect(response.status).toBe(401)
      expect(response.body.message).toBe('Invalid or expired token')
    }
  })
})

describe('GET /api/auth/tokens', () => {
  it('lists the caller\'s tokens newest first, never their values, not cached', async () => {
    const user = await registerUser()
    const other = await registerUser()
    const first = (await generate(user.token, { name: 'first' })).body
    const second = (await generate(user.token, { name: 'second', expiresInDays: 30 })).body
    await generate(other.token, { name: 'not mine' })
    const response = await api('/api/auth/tokens', { bearer: user.token })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(response.body.tokens).toEqual([
      { id: second.id, name: 'second', createdAt: expect.any(String), expiresAt: second.expiresAt, lastUsedAt: null },
      { id: first.id, name: 'first', createdAt: expect.any(String), expiresAt: first.expiresAt, lastUsedAt: null },
    ])
    const raw = JSON.stringify(response.body)
    expect(raw).not.toContain(first.token)
    expect(raw).not.toContain(second.token)
    const byCookie = await api('/api/auth/tokens', { token: user.token })
    expect(byCookie.body).toEqual(response.body)
  })

  it('answers an empty list for a new account and 401 without a JWT', async () => {
    const user = await registerUser()
    expect((await api('/api/auth/tokens', { bearer: user.token })).body).toEqual({ tokens: [] })
    expect((await api('/api/auth/tokens')).status).toBe(401)
  })
})

describe('DELETE /api/auth/tokens/{id}', () => {
  it('revokes one token without touching the others or the account', async () => {
    const user = await registerUser()
    const keep = (await generate(user.token, { name: 'keep' })).body
    const drop = (await generate(user.token, { name: 'drop' })).body
    const response = await api(`/api/auth/tokens/${drop.id}`, { method: 'DELETE', bearer: user.token })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true })
    const list = await api('/api/auth/tokens', { bearer: user.token })
    expect(list.body.tokens.map((t: { id: string }) => t.id)).toEqual([keep.id])
    expect((await api('/api/profile', { token: user.token })).status).toBe(200)
    const again = await api(`/api/auth/tokens/${drop.id}`, { method: 'DELETE', bearer: user.token })
    expect(again.status).toBe(404)
  })

  it('answers 404 for another user\'s token (and leaves it) and for an unknown id', async () => {
    const owner = await registerUser()
    const intruder = await registerUser()
    const token = (await generate(owner.token)).body
    const response = await api(`/api/auth/tokens/${token.id}`, { method: 'DELETE', bearer: intruder.token })
    expect(response.status).toBe(404)
    expect(response.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Token not found' })
    expect((await api('/api/auth/tokens', { bearer: owner.token })).body.tokens).toHaveLength(1)
    const unknown = await api('/api/auth/tokens/00000000-0000-4000-8000-000000000000', { method: 'DELETE', bearer: owner.token })
    expect(unknown.status).toBe(404)
  })

  it('answers 400 for a malformed id and 401 without a JWT', async () => {
    const user = await registerUser()
    const malformed = await api('/api/auth/tokens/not-a-uuid', { method: 'DELETE', bearer: user.token })
    expect(malformed.status).toBe(400)
    expect(malformed.body.message).toBe('Invalid ID')
    const anonymous = await api('/api/auth/tokens/00000000-0000-4000-8000-000000000000', { method: 'DELETE' })
    expect(anonymous.status).toBe(401)
  })
})
