import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/database/connection'
import { DatabaseUnavailableError, type Database } from '../../server/database/port'
import { sql } from '../../server/database/sql'
import { adminDatabaseUrl, createTestDatabase, dropTestDatabase, onCluster } from '../support/postgres'

/**
 * A PostgreSQL server that refuses the pool a new connection for want of
 * resources (class 53: here a role at its connection limit, as a cluster at
 * max_connections refuses everyone) is unavailable for that request, as a
 * server that is gone: the request answers 503 with Retry-After instead of
 * 500 (server/database/postgres.ts, docs/behaviour.md "Errors").
 */
describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL refusing a connection', () => {
  const role = `dif_limited_${randomBytes(4).toString('hex')}`
  let url: string
  let db: Database | undefined

  const asAdmin = (text: string) => onCluster(adminDatabaseUrl(), client => client.query(text))

  beforeAll(async () => {
    url = await createTestDatabase()
    await asAdmin(`CREATE ROLE "${role}" LOGIN CONNECTION LIMIT 1`)
  })

  afterAll(async () => {
    await db?.close()
    if (url) await dropTestDatabase(url)
    await asAdmin(`DROP ROLE IF EXISTS "${role}"`)
  })

  it('is the database being unavailable, with the server\'s reason, and the pool goes on once a connection is free', async () => {
    const limited = new URL(url)
    limited.username = role
    db = openDatabase({ url: limited.toString(), sqliteFile: '', poolMax: 2 })
    const opened = db
    await opened.transaction(async (tx) => {
      // The role's one connection is this transaction's: the pool's second is refused.
      await tx.get(sql`SELECT 1 AS one`)
      const refused = await opened.get(sql`SELECT 2 AS two`).then(() => null, (error: unknown) => error)
      expect(refused).toBeInstanceOf(DatabaseUnavailableError)
      const driver = (refused as DatabaseUnavailableError).driverError as { code?: string, message?: string }
      expect(driver.code).toBe('53300')
      expect(driver.message).toBe(`too many connections for role "${role}"`)
    })
    expect(await opened.get(sql`SELECT 3 AS three`)).toEqual({ three: 3 })
  })
})
