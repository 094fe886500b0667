import type { Database } from './port'
import { PostgresDatabase } from './postgres'
import { SqliteDatabase } from './sqlite'

export interface ConnectionOptions {
  /** `postgres://…` (NUXT_DATABASE_URL); empty = SQLite at `sqliteFile`. */
  url?: string
  /** The SQLite file (`<data>/app.sqlite`). */
  sqliteFile: string
  /** PostgreSQL connections per instance (NUXT_DATABASE_POOL_MAX). */
  poolMax?: number
}

/** The adapter the settings name: PostgreSQL for a postgres URL, else the embedded SQLite file. */
export function openDatabase(options: ConnectionOptions): Database {
  const url = options.url?.trim()
  if (!url) return new SqliteDatabase(options.sqliteFile)
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('NUXT_DATABASE_URL must start with postgres:// or postgresql://')
  return new PostgresDatabase(url, { max: options.poolMax || 10 })
}
