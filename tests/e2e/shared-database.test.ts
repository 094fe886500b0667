import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { createTestDatabase, dropTestDatabase } from '../support/postgres'
import { startServer, testEngine, type RunningServer } from '../support/server'
import { openDatabase } from '../../server/database/connection'
import { sql } from '../../server/database/sql'

/**
 * Several instances on one PostgreSQL database, each with a data dir of its
 * own: they start together and migrate once, and agree on the generated
 * secrets (kept in the database), so a session made on one is valid on all.
 */
describe.skipIf(testEngine() !== 'postgres')('instances sharing one PostgreSQL database', () => {
  let databaseUrl: string
  let servers: RunningServer[] = []

  beforeAll(async () => {
    databaseUrl = await createTestDatabase()
    servers = await Promise.all([1, 2, 3].map(() => startServer({ NUXT_DATABASE_URL: databaseUrl })))
  })

  afterAll(async () => {
    await Promise.all(servers.map(server => server.stop()))
    if (databaseUrl) await dropTestDatabase(databaseUrl)
  })

  it('migrate once when they start together', async () => {
    const applied = servers.filter(server => /\[db\] applied \d+ migration\(s\) \(postgres\)/.test(server.output()))
    expect(applied).toHaveLength(1)
    const db = openDatabase({ url: databaseUrl, sqliteFile: '', poolMax: 1 })
    try {
      const journal = await db.all<{ hash: string }>(sql`SELECT hash FROM "__drizzle_migrations"`)
      const secrets = await db.all<{ name: string }>(sql`SELECT name FROM app_secrets ORDER BY name`)
      expect(journal.length).toBeGreaterThanOrEqual(2)
      expect(new Set(journal.map(row => row.hash)).size).toBe(journal.length)
      expect(secrets.map(row => row.name)).toEqual(['ipHashSecret', 'sessionPassword', 'sessionSecret', 'totpKey'])
    }
    finally {
      await db.close()
    }
  })

  it('agree on the generated secrets: a session from one instance is valid on the others', async () => {
    const [first, second, third] = servers
    const user = await registerUser({}, first!.url)
    for (const server of [second!, third!]) {
      const profile = await api('/api/profile', { token: user.token, baseURL: server.url })
      expect(profile.status).toBe(200)
      expect(profile.body.user.id).toBe(user.id)
    }
    const logout = await api('/api/auth/logout', { method: 'POST', token: user.token, baseURL: second!.url })
    expect(logout.status).toBe(200)
    expect((await api('/api/profile', { token: user.token, baseURL: third!.url })).status).toBe(401)
  })
})
