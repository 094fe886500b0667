import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/database/connection'
import type { Database } from '../../server/database/port'
import { sql } from '../../server/database/sql'
import { createTestDatabase, dropTestDatabase } from '../support/postgres'

/**
 * Prepared statements on PostgreSQL (server/database/postgres.ts): one per
 * query text and connection, and no more than NAMED_MAX (2000) of them
 * whatever texts the requests make; past that, a statement runs unnamed.
 * PostgreSQL keeps one plan for a statement after five runs planned for their
 * values, except for a `sql.replanned` one, which always runs unnamed. The names are
 * kept per process, so this file runs in a module graph of its own (the
 * `unit-isolated` project, vitest.config.ts), where no other file has named any.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL prepared statements', () => {
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

  it('plans a statement once after five runs, and a replanned one for its values every run, unnamed', async () => {
    const statement = (text: string) => db.get<{ generic_plans: string | number, custom_plans: string | number }>(sql`SELECT generic_plans, custom_plans
      FROM pg_prepared_statements WHERE statement = ${text}`)
    const since = (value: number) => sql`SELECT count(*) AS n FROM pg_class WHERE relpages >= ${value}`
    for (let i = 0; i < 8; i++) await db.get(since(i))
    const kept = await statement('SELECT count(*) AS n FROM pg_class WHERE relpages >= $1')
    expect(Number(kept!.custom_plans)).toBe(5)
    expect(Number(kept!.generic_plans)).toBe(3)
    for (let i = 0; i < 8; i++) await db.get(sql`SELECT count(*) AS n FROM pg_class WHERE true${sql.replanned(sql` AND relpages >= ${i}`)}`)
    expect(await statement('SELECT count(*) AS n FROM pg_class WHERE true AND relpages >= $1')).toBeUndefined()
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
