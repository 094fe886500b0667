import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { createTestDatabase, dropTestDatabase } from '../support/postgres'
import { startServer, testEngine, type RunningServer } from '../support/server'
import { startTcpProxy } from '../support/tcp-proxy'
import { postUpload } from '../support/uploads'

/**
 * PostgreSQL lost and back: the server reaches its database through a TCP
 * proxy that the test cuts (every connection dropped, new ones refused) and
 * restores. SQLite is a file inside the process and cannot be lost this way;
 * another process can hold its write lock (below).
 */
describe.skipIf(testEngine() !== 'postgres')('a lost PostgreSQL connection', () => {
  let databaseUrl: string
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>
  let server: RunningServer

  beforeAll(async () => {
    databaseUrl = await createTestDatabase()
    const target = new URL(databaseUrl)
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) })
    const viaProxy = new URL(databaseUrl)
    viaProxy.port = String(proxy.port)
    server = await startServer({ NUXT_DATABASE_URL: viaProxy.toString() })
  })

  afterAll(async () => {
    await server?.stop()
    await proxy?.close()
    if (databaseUrl) await dropTestDatabase(databaseUrl)
  })

  it('answers 503 (JSON, or an HTML page for pages) while the database is gone, writes nothing half, and recovers without a restart', async () => {
    const user = await registerUser({}, server.url)
    const before = await api('/api/uploads/filtered', { baseURL: server.url })
    expect(before.status).toBe(200)
    expect(before.body.total).toBe(0)

    await proxy.cut()
    for (const response of [
      await api('/api/profile', { token: user.token, baseURL: server.url }),
      await api('/api/uploads/filtered?tags=cats', { baseURL: server.url }),
      await postUpload(user, { upload_type: 'link', external_url: 'https://example.com/lost', description: 'written while the database was away' }, undefined, server.url),
    ]) {
      expect(response.status, server.output()).toBe(503)
      expect(response.body).toEqual({ statusCode: 503, statusMessage: 'Service Unavailable', message: 'The database is unavailable, please try again shortly', requestId: response.headers.get('x-request-id') })
      expect(response.headers.get('retry-after')).toBe('5')
    }

    // Pages (with and without a cookie), feeds and the sitemap say the same: come back shortly.
    for (const [path, token] of [['/', undefined], ['/', user.token], [`/user/${user.username}`, undefined], ['/tags/cats', user.token]] as const) {
      const page = await api(path, { baseURL: server.url, token, headers: { accept: 'text/html' } })
      expect(page.status, `${path} ${server.output()}`).toBe(503)
      expect(page.headers.get('retry-after'), path).toBe('5')
      expect(page.headers.get('content-type'), path).toContain('text/html')
      expect(page.body, path).toContain('data-testid="error-page"')
    }
    for (const path of ['/feeds/recent.atom', '/feeds/top.json', '/feeds/tag/cats.atom', `/feeds/user/${user.username}.json`, '/sitemap.xml', '/sitemaps/uploads-1.xml']) {
      const response = await api(path, { baseURL: server.url })
      expect(response.status, `${path} ${server.output()}`).toBe(503)
      expect(response.headers.get('retry-after'), path).toBe('5')
      expect(response.headers.get('cache-control'), path).toBe('no-store')
      expect(response.body, path).toEqual({ statusCode: 503, statusMessage: 'Service Unavailable', message: 'The database is unavailable, please try again shortly', requestId: response.headers.get('x-request-id') })
    }

    const health = await api('/api/health', { baseURL: server.url })
    expect(health.status).toBe(503)
    expect(health.body).toEqual({ status: 'error', database: 'error', redis: 'off', storage: 'ok' })

    await proxy.restore()
    let profile = await api('/api/profile', { token: user.token, baseURL: server.url })
    for (let attempt = 0; profile.status !== 200 && attempt < 20; attempt++) {
      await new Promise(r => setTimeout(r, 250))
      profile = await api('/api/profile', { token: user.token, baseURL: server.url })
    }
    expect(profile.status).toBe(200)
    expect(profile.body.stats).toEqual({ uploads: 0, votes: 0 })
    expect((await api('/api/health', { baseURL: server.url })).body.status).toBe('ok')
    const after = await api('/api/uploads/filtered', { baseURL: server.url })
    expect(after.body.total).toBe(0)
    expect(server.process.exitCode).toBeNull()
    expect(server.output()).not.toMatch(/\n\s+at /)
  })
})

/**
 * SQLite's file write-locked by another process (a script, the sqlite3 shell
 * in a transaction) for longer than the server's busy timeout (5 s): a write
 * answers 503 with Retry-After, as a lost PostgreSQL does, not 500, and the
 * log line says why. Once the lock is gone, the same write goes through.
 */
describe.skipIf(testEngine() !== 'sqlite')('SQLite locked by another process', () => {
  let server: RunningServer | undefined

  afterAll(async () => {
    await server?.stop()
  })

  it('answers a write 503 once the busy timeout has passed, writes nothing, and writes again once the lock is gone', async () => {
    const running = server = await startServer()
    const user = await registerUser({}, running.url)
    const link = { upload_type: 'link', external_url: 'https://example.com/locked', description: 'written while another process held the lock' }
    const other = new BetterSqlite3(join(running.dataDir, 'app.sqlite'))
    try {
      other.exec('BEGIN IMMEDIATE')
      const refused = await postUpload(user, link, undefined, running.url)
      expect(refused.status, running.output()).toBe(503)
      expect(refused.body).toEqual({ statusCode: 503, statusMessage: 'Service Unavailable', message: 'The database is unavailable, please try again shortly', requestId: refused.headers.get('x-request-id') })
      expect(refused.headers.get('retry-after')).toBe('5')
      // The log is written after the answer: wait for its line (up to 5 s).
      for (let tries = 0; tries < 50 && !running.output().includes('"reason":"database is locked"'); tries++) await new Promise(resolve => setTimeout(resolve, 100))
      expect(running.output()).toContain('"reason":"database is locked"')
    }
    finally {
      if (other.inTransaction) other.exec('ROLLBACK')
      other.close()
    }
    expect((await api('/api/uploads/filtered', { baseURL: running.url })).body.total).toBe(0)
    const made = await postUpload(user, link, undefined, running.url)
    expect(made.status, running.output()).toBe(201)
    expect((await api('/api/uploads/filtered', { baseURL: running.url })).body.total).toBe(1)
    expect(running.output()).not.toMatch(/\n\s+at /)

    // A fault that is no outage (a table renamed by hand under the server): a 500 in the error
    // shape with its request id, for a feed as for the API, never the HTML error page.
    const hand = new BetterSqlite3(join(running.dataDir, 'app.sqlite'))
    try {
      hand.exec('ALTER TABLE users RENAME TO users_away')
      for (const path of [`/feeds/user/${user.username}.atom`, '/api/profile']) {
        const broken = await api(path, { token: user.token, baseURL: running.url })
        expect(broken.status, path).toBe(500)
        expect(broken.headers.get('content-type'), path).toMatch(/^application\/json/)
        expect(broken.body, path).toEqual({ statusCode: 500, statusMessage: 'Internal Server Error', message: 'Internal server error', requestId: broken.headers.get('x-request-id') })
      }
    }
    finally {
      hand.exec('ALTER TABLE users_away RENAME TO users')
      hand.close()
    }
    expect((await api(`/feeds/user/${user.username}.atom`, { baseURL: running.url })).status).toBe(200)
  })
})
