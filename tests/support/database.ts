import { openMigrated } from '../../scripts/lib/database'
import type { SqliteDatabase } from '../../server/database/sqlite'

/**
 * A real SQLite database built from drizzle/sqlite (in memory unless a data
 * dir is given), through the same port the server uses.
 */
export async function testDatabase(dataDir = ':memory:'): Promise<SqliteDatabase> {
  return await openMigrated({ dataDir }) as SqliteDatabase
}
