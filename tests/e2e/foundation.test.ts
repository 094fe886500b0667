import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Validator } from '@seriousme/openapi-schema-validator'
import { api, registerUser } from '../support/api'
import { sql } from '../../server/database/sql'
import { databaseOf, storedSecrets } from '../support/seed'
import { restartableDatabase } from '../support/postgres'
import { startServer, type RunningServer } from '../support/server'
import { sharedServer } from '../support/shared-server'

describe('error shape', () => {
  it('answers an unknown /api route with a JSON 404', async () => {
    const response = await api('/api/does-not-exist')
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toContain('application/json')
    expect(response.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Not found' })
  })

  it('answers a wrong method with 405 and Allow', async () => {
    const response = await api('/api/openapi.json', { method: 'DELETE' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
    expect(response.body).toEqual({ statusCode: 405, statusMessage: 'Method Not Allowed', message: 'Method not allowed' })
    // A static path beside an `{id}` route is that route alone: its DELETE never reaches the id's handler.
    const generate = await api('/api/auth/tokens/generate', { method: 'DELETE' })
    expect([generate.status, generate.headers.get('allow')]).toEqual([405, 'POST'])
    const preview = await api('/api/comments/preview', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect([preview.status, preview.headers.get('allow')]).toEqual([405, 'POST'])
  })

  it('answers malformed JSON with 400 and no stack', async () => {
    const response = await api('/api/auth', { method: 'POST', body: '{not json', headers: { 'content-type': 'application/json' } })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid JSON body' })
    // Every body is an object: anything else was read as `{}` (or as an object with no fields).
    for (const body of ['[]', 'null', '"x"', '5', '[{"action":"login"}]']) {
      const refused = await api('/api/auth', { method: 'POST', body, headers: { 'content-type': 'application/json' } })
      expect([body, refused.status, refused.body]).toEqual([body, 400, { statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid body' }])
    }
  })

  it('reads a JSON body whatever the Content-Type parameters, and keeps only the fields the schema names', async () => {
    const charset = { 'content-type': 'application/json; charset=utf-8' }
    const malformed = await api('/api/auth', { method: 'POST', body: 'not json', headers: charset })
    expect(malformed.status).toBe(400)
    expect(malformed.body).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid JSON body' })
    const name = `proto_${Date.now()}`
    const registered = await api('/api/auth', {
      method: 'POST',
      headers: charset,
      body: `{"action":"register","email":"${name}@example.test","username":"${name}","password":"long enough password","__proto__":{"isAdmin":true},"isAdmin":true}`,
    })
    expect(registered.status).toBe(201)
    expect(registered.body.user.username).toBe(name)
    const profile = await api('/api/profile', { token: registered.body.token })
    expect(profile.status).toBe(200)
    expect(profile.body.user.isAdmin).toBe(false)
  })

  it('answers a validation failure with 400, the first message and per-field data', async () => {
    const response = await api('/api/auth', { method: 'POST', body: { action: 'register', email: 'nope', username: 'x', password: 'short' } })
    expect(response.status).toBe(400)
    expect(response.body.statusMessage).toBe('Bad Request')
    expect(response.body.message).toBe('Invalid email')
    expect(response.body.data.issues.map((i: { path: string }) => i.path)).toEqual(['email', 'username', 'password'])
    expect(JSON.stringify(response.body)).not.toMatch(/at .*\.m?js|stack/i)
  })
})

describe('HTTP caching', () => {
  it('sets a strong ETag and answers If-None-Match with a bodiless 304', async () => {
    const first = await api('/api/openapi.json')
    expect(first.status).toBe(200)
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[\w-]+"$/)
    expect(first.headers.get('cache-control')).toBe('no-cache')
    const second = await api('/api/openapi.json', { headers: { 'if-none-match': etag } })
    expect(second.status).toBe(304)
    expect(second.body).toBe('')
    const other = await api('/api/openapi.json', { headers: { 'if-none-match': '"something-else"' } })
    expect(other.status).toBe(200)
  })

  it('marks caller-specific answers private', async () => {
    const user = await registerUser()
    const profile = await api('/api/profile', { token: user.token })
    expect(profile.status).toBe(200)
    expect(profile.headers.get('cache-control')).toBe('private, max-age=30')
    expect(profile.headers.get('etag')).toBeTruthy()
  })
})

describe('cross-site requests', () => {
  it('refuses a cookie-authenticated POST from another origin', async () => {
    const user = await registerUser()
    const response = await api('/api/auth/logout', { method: 'POST', token: user.token, headers: { origin: 'https://evil.example' } })
    expect(response.status).toBe(403)
    expect(response.body).toEqual({ statusCode: 403, statusMessage: 'Forbidden', message: 'Cross-site request blocked' })
  })

  it('lets the same origin and scripts without Origin through', async () => {
    const user = await registerUser()
    const { baseURL } = sharedServer()
    const same = await api('/api/auth/logout', { method: 'POST', token: user.token, headers: { origin: baseURL } })
    expect(same.status).toBe(200)
    const other = await registerUser()
    const script = await api('/api/auth/logout', { method: 'POST', token: other.token })
    expect(script.status).toBe(200)
  })

  it('sets security headers and a hash-based CSP on pages', async () => {
    const page = await api('/')
    expect(page.status).toBe(200)
    const csp = page.headers.get('content-security-policy')!
    expect(csp).toMatch(/script-src 'self' 'sha256-[\w+/]+={0,2}'(;|$)/)
    expect(csp).toContain(`frame-ancestors 'none'`)
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
  })
})

describe('OpenAPI', () => {
  it('serves a valid OpenAPI 3.1 document', async () => {
    const response = await api('/api/openapi.json')
    expect(response.body.openapi).toBe('3.1.0')
    const validator = new Validator()
    const result = await validator.validate(response.body)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(Object.keys(response.body.components.securitySchemes).sort()).toEqual(['apiToken', 'cookie', 'jwt'])
  })
})

describe('rate limits (own server, small limits)', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({
      NUXT_RATE_LIMIT_ENABLED: 'true',
      NUXT_RATE_LIMIT_GENERAL_MAX: '3',
      NUXT_RATE_LIMIT_GENERAL_WINDOW_SECONDS: '60',
      NUXT_RATE_LIMIT_AUTH_MAX: '2',
    })
  })
  afterAll(() => server.stop())

  it('counts general requests, then answers 429 with Retry-After', async () => {
    const seen: (string | null)[] = []
    for (let i = 0; i < 3; i++) {
      const response = await api('/api/openapi.json', { baseURL: server.url })
      expect(response.status).toBe(200)
      expect(response.headers.get('ratelimit-limit')).toBe('3')
      seen.push(response.headers.get('ratelimit-remaining'))
    }
    expect(seen).toEqual(['2', '1', '0'])
    const limited = await api('/api/openapi.json', { baseURL: server.url })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(limited.body).toEqual({ statusCode: 429, statusMessage: 'Too Many Requests', message: 'Too many requests, please try again later' })
  })

  it('does not reset the limit for a spoofed X-Forwarded-For', async () => {
    const spoofed = await api('/api/openapi.json', { baseURL: server.url, headers: { 'x-forwarded-for': '203.0.113.7' } })
    expect(spoofed.status).toBe(429)
  })

  it('counts POST /api/auth in its own category', async () => {
    const body = { action: 'login', email: 'nobody@e2e.test', password: 'whatever1' }
    const first = await api('/api/auth', { method: 'POST', body, baseURL: server.url })
    expect(first.status).toBe(401)
    expect(first.headers.get('ratelimit-limit')).toBe('2')
    await api('/api/auth', { method: 'POST', body, baseURL: server.url })
    const third = await api('/api/auth', { method: 'POST', body, baseURL: server.url })
    expect(third.status).toBe(429)
  })
})

describe('data dir, migrations and secrets across restarts', () => {
  it('migrates an empty data dir, keeps secrets (0600) and sessions across a restart', async () => {
    // An empty database on PostgreSQL too (a test server's own starts migrated).
    const first = await startServer({}, { databaseUrl: await restartableDatabase({ empty: true }) })
    const dataDir = first.dataDir
    try {
      expect(first.output()).toMatch(/\[db\] applied [1-9]\d* migration\(s\) \((sqlite|postgres)\)/)
      const secretsFile = join(dataDir, 'secrets.json')
      if (first.databaseUrl) expect(existsSync(secretsFile)).toBe(false) // kept in the database, for every instance
      else {
        expect(statSync(secretsFile).mode & 0o777).toBe(0o600)
        // The database holds hashes and (encrypted) TOTP secrets: it and its WAL are its owner's only.
        for (const file of ['app.sqlite', 'app.sqlite-wal']) expect(statSync(join(dataDir, file)).mode & 0o777, file).toBe(0o600)
      }
      const secrets = await storedSecrets(first)
      const user = await registerUser({}, first.url)
      // Rows no request can use any more, removed at the next start (server/services/housekeeping.ts);
      // a session ended a day ago stays, listed in the account's data export.
      const day = 24 * 60 * 60 * 1000
      const ago = (days: number) => new Date(Date.now() - days * day).toISOString()
      const { db } = databaseOf(first)
      for (const [id, expires, revoked] of [['expired-long-ago', ago(31), null], ['revoked-long-ago', ago(-1), ago(31)], ['revoked-yesterday', ago(-1), ago(1)]]) {
        await db.run(sql`INSERT INTO sessions (id, user_id, created_at, expires_at, revoked_at) VALUES (${id}, ${user.id}, ${ago(40)}, ${expires}, ${revoked})`)
      }
      await db.run(sql`INSERT INTO password_reset_tokens (id, user_id, token_hash, expires_at) VALUES ('expired-reset', ${user.id}, 'h1', ${ago(1 / 24)})`)
      await db.run(sql`INSERT INTO request_keys (user_id, key, fingerprint, answer, created_at) VALUES
        (${user.id}, 'old-key', 'f', '{}', ${ago(2)}), (${user.id}, 'new-key', 'f', '{}', ${ago(0.5)})`)
      // SQLite: the server's checkpoint worker copies those commits from the WAL into the
      // database with no request to run it (docs/database.md, "The two engines").
      if (!first.databaseUrl) await expect.poll(() => walCheckpointed(join(dataDir, 'app.sqlite-shm')), { timeout: 5000 }).toBe(true)
      await first.stop({ keepData: true })

      const second = await startServer({}, { dataDir, databaseUrl: first.databaseUrl })
      try {
        expect(second.output()).not.toContain('applied')
        expect(await storedSecrets(second)).toEqual(secrets)
        const profile = await api('/api/profile', { token: user.token, baseURL: second.url })
        expect(profile.status).toBe(200)
        expect(profile.body.user.username).toBe(user.username)
        const left = async () => ({
          sessions: (await db.all<{ id: string }>(sql`SELECT id FROM sessions WHERE id IN ('expired-long-ago', 'revoked-long-ago', 'revoked-yesterday') ORDER BY id`)).map(row => row.id),
          resets: (await db.all(sql`SELECT id FROM password_reset_tokens WHERE user_id = ${user.id}`)).length,
          keys: (await db.all<{ key: string }>(sql`SELECT key FROM request_keys WHERE user_id = ${user.id}`)).map(row => row.key),
        })
        await expect.poll(left).toEqual({ sessions: ['revoked-yesterday'], resets: 0, keys: ['new-key'] })
        await expect.poll(() => second.output()).toContain('[housekeeping] removed rows no request can use any more: sessions 2, password_reset_tokens 1, request_keys 1')
      }
      finally {
        await second.stop()
      }
    }
    finally {
      await first.stop()
    }
  })
})

/** Whether every frame in the WAL is copied into the database: the WAL index's mxFrame (offset 16) equals the checkpoint's nBackfill (offset 96). */
function walCheckpointed(shmFile: string): boolean {
  const shm = readFileSync(shmFile)
  const frames = shm.readUInt32LE(16)
  return frames > 0 && shm.readUInt32LE(96) === frames
}
