import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/database/connection'
import type { Database } from '../../server/database/port'
import { sql } from '../../server/database/sql'
import { createTestDatabase, dropTestDatabase } from '../support/postgres'
import { testEngine } from '../support/server'

/**
 * A deadlock on PostgreSQL rolls back the transaction it ends, so the data
 * port runs it again (server/database/postgres.ts): a transaction from its
 * start, a statement outside one as it was. Here a statement and a
 * transaction take two rows in opposite orders; the statement waits first,
 * and only its session looks for deadlocks soon (the transaction's looks
 * after 20 s), so PostgreSQL ends the statement, and it must still succeed.
 */
describe.skipIf(testEngine() !== 'postgres')('PostgreSQL deadlocks', () => {
  let url: string
  let db: Database

  beforeAll(async () => {
    url = await createTestDatabase()
    const setup = openDatabase({ url, sqliteFile: '', poolMax: 1 })
    await setup.exec(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET deadlock_timeout = '2s';
      CREATE TABLE probe (id text PRIMARY KEY, n integer NOT NULL); INSERT INTO probe VALUES ('x', 0), ('y', 0)`)
    await setup.close()
    db = openDatabase({ url, sqliteFile: '', poolMax: 3 })
  })

  afterAll(async () => {
    await db?.close()
    if (url) await dropTestDatabase(url)
  })

  it('runs a statement outside a transaction again when a deadlock ended it', async () => {
    let attempts = 0
    let statement: Promise<{ changes: number }> | undefined
    const transaction = db.transaction(async (tx) => {
      attempts++
      // Whichever session looks first is the one ended; on a busy machine
      // the transaction could otherwise look first.
      await tx.run(sql`SET LOCAL deadlock_timeout = '20s'`)
      await tx.run(sql`UPDATE probe SET n = n + 1 WHERE id = 'x'`)
      if (attempts === 1) {
        // y, then x: it takes y and waits for the transaction's x.
        statement = db.run(sql`WITH first AS (UPDATE probe SET n = n + 1 WHERE id = 'y' RETURNING id)
          UPDATE probe SET n = n + 1 WHERE id = 'x' AND EXISTS (SELECT 1 FROM first)`)
        for (let i = 0; i < 1000; i++) {
          const waiting = await db.get<{ n: number }>(sql`SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'WITH first AS%'`)
          if (waiting!.n === 1) break
          await new Promise(resolve => setTimeout(resolve, 10))
        }
      }
      await tx.run(sql`UPDATE probe SET n = n + 1 WHERE id = 'y'`)
    })
    await transaction
    expect(await statement).toEqual({ changes: 1 })
    expect(attempts).toBe(1)
    expect(await db.all(sql`SELECT id, n FROM probe ORDER BY id`)).toEqual([{ id: 'x', n: 2 }, { id: 'y', n: 2 }])
  })
})
