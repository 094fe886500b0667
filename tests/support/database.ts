import { openMigrated } from '../../scripts/lib/database'
import { openDatabase } from '../../server/database/connection'
import type { Database } from '../../server/database/port'
import type { SqliteDatabase } from '../../server/database/sqlite'
import { createTestDatabase, dropTestDatabase } from './postgres'

/**
 * A real SQLite database built from drizzle/sqlite (in memory unless a data
 * dir is given), through the same port the server uses.
 */
export async function testDatabase(dataDir = ':memory:'): Promise<SqliteDatabase> {
  return await openMigrated({ dataDir }) as SqliteDatabase
}

/**
 * The engines a test of the database runs on, for `describe.each`: SQLite
 * always, PostgreSQL when TEST_DATABASE_URL names a cluster. `open` gives a
 * migrated, empty database and how to close it (on PostgreSQL, dropped).
 */
export const TEST_ENGINES: { name: string, open: () => Promise<{ db: Database, close: () => Promise<void> }> }[] = [
  { name: 'SQLite', open: async () => {
    const db = await testDatabase()
    return { db, close: () => db.close() }
  } },
  ...process.env.TEST_DATABASE_URL
    ? [{ name: 'PostgreSQL', open: async () => {
        const url = await createTestDatabase(undefined, { migrated: true })
        const db = openDatabase({ url, sqliteFile: '', poolMax: 2 })
        return { db, close: async () => {
          await db.close()
          await dropTestDatabase(url)
        } }
      } }]
    : [],
]
