import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/database/connection'
import { findDrift } from '../../server/database/kept-counts'
import type { Database } from '../../server/database/port'
import { sql } from '../../server/database/sql'
import { seedBulk } from '../../scripts/lib/seed'
import { seedDatabase } from '../../scripts/seed'
import { testDatabase } from '../support/database'
import { createTestDatabase, dropTestDatabase } from '../support/postgres'

/**
 * The benches and `npm run seed` load uploads, links and votes in bulk, past
 * some of the triggers: every kept count and copy must still equal its
 * recount, or the benches rank uploads by values the site would never hold.
 */
const engines = ['SQLite', ...(process.env.TEST_DATABASE_URL ? ['PostgreSQL'] : [])]

describe.each(engines)('the bulk seed on %s', (engine) => {
  let db: Database
  let url: string | undefined

  afterAll(async () => {
    await db?.close()
    if (url) await dropTestDatabase(url)
  })

  it('leaves every kept count and copy equal to its recount', async () => {
    if (engine === 'SQLite') db = await testDatabase()
    else {
      url = await createTestDatabase(undefined, { migrated: true })
      db = openDatabase({ url, sqliteFile: '', poolMax: 2 })
    }
    await seedBulk(db, { uploads: 300, tags: 40 })
    expect(await findDrift(db)).toEqual([])
    // The copies are not all zeros: the links rank by the votes the seed gave.
    const voted = await db.get<{ n: number | string }>(sql`SELECT count(*) AS n FROM upload_tags WHERE upload_upvotes > 0`)
    expect(Number(voted?.n)).toBeGreaterThan(100)
  }, 60_000)
})

describe('npm run seed', () => {
  it('refuses a database that already holds accounts, writing nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dif-seed-'))
    try {
      const first = await seedDatabase({ dataDir }, { uploads: 5, users: 2, tags: 3, emptyOnly: true })
      expect(first.uploads).toBe(5)
      await expect(seedDatabase({ dataDir }, { uploads: 5, users: 2, tags: 3, emptyOnly: true })).rejects.toThrow(
        `The database already holds a site (${first.users} accounts): seed writes made-up accounts and uploads for benchmarks; point it at an empty data dir or database`)
      const db = openDatabase({ sqliteFile: join(dataDir, 'app.sqlite') })
      expect(await db.get(sql`SELECT count(*) AS n FROM uploads`)).toEqual({ n: 5 })
      await db.close()
    }
    finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
