import { openDatabase } from '../database/connection'
import type { Database } from '../database/port'

let database: Database | undefined

/**
 * The data-access port of this process: PostgreSQL when `NUXT_DATABASE_URL`
 * is set, else the embedded SQLite file `<data>/app.sqlite`.
 */
export function useDB(): Database {
  if (!database) {
    const config = useRuntimeConfig()
    ensureDataDirs()
    database = openDatabase({ url: String(config.databaseUrl || ''), sqliteFile: dataPath('app.sqlite'), poolMax: Number(config.databasePoolMax) || 10 })
  }
  return database
}

/** Closes the pool or file (at shutdown). */
export async function closeDB(): Promise<void> {
  const open = database
  database = undefined
  await open?.close()
}
