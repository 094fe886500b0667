import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/database/connection'
import type { Database } from '../../server/database/port'
import { sql } from '../../server/database/sql'
import { createTestDatabase, dropTestDatabase } from '../support/postgres'
import { testEngine } from '../support/server'

/**
 * Prepared statements on PostgreSQL (server/database/postgres.ts): one per
 * query text and connection, and no more than NAMED_MAX (2000) of them
 * whatever texts the requests make; past that, a statement runs unnamed.
 */
describe.skipIf(testEngine() !== 'postgres')('PostgreSQL prepared statements', () => {
  let url: string
  let db: Database

  beforeAll(async () => {
    url = await createTestDatabase()
    // One connection, so pg_prepared_statements shows everything it prepared.
    db = openDatabase({ url, sqliteFile: '', poolMax: 1 })
  })

  afterAll(async () => {
    await db?.close()
    if (url) await dropTestDatabase(url)
  })

  it('keeps at most 2000 per connection and answers every text past them', async () => {
    const prepared = async () => Number((await db.get<{ n: string | number }>(sql`SELECT count(*) AS n FROM pg_prepared_statements`))!.n)
    for (let i = 0; i < 2100; i++) {
      const row = await db.get<{ n: number }>(sql`SELECT ${sql.raw(String(i))} + ${1} AS n`)
      expect(row!.n).toBe(i + 1)
    }
    const held = await prepared()
    expect(held).toBeGreaterThanOrEqual(2000)
    expect(held).toBeLessThanOrEqual(2001)
    // A text past the limit runs again, unnamed, with its own values.
    expect((await db.get<{ n: number }>(sql`SELECT ${sql.raw('2099')} + ${5} AS n`))!.n).toBe(2104)
    expect(await prepared()).toBe(held)
  })
})
