import { openDatabase } from '../database/connection'
import type { Database } from '../database/port'
import { SqliteDatabase } from '../database/sqlite'

let database: Database | undefined

/**
 * The data-access port of this process: PostgreSQL when `NUXT_DATABASE_URL`
 * is set, else the embedded SQLite file `<data>/app.sqlite`. The list cache
 * keys on the database's own data version (PostgreSQL's current snapshot,
 * SQLite's WAL-index header), which every instance's commit moves, so it
 * holds its rule across instances with or without Redis.
 */
export function useDB(): Database {
  if (!database) {
    const config = useRuntimeConfig()
    ensureDataDirs()
    database = openDatabase({ url: String(config.databaseUrl || ''), sqliteFile: dataPath('app.sqlite'), poolMax: Number(config.databasePoolMax) || 10 })
    if (database instanceof SqliteDatabase) database.startCheckpoints()
  }
  return database
}

/** Closes the pool or file (at shutdown). */
export async function closeDB(): Promise<void> {
  const open = database
  database = undefined
  await open?.close()
}
