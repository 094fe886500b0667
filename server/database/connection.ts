import Database from 'better-sqlite3'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import * as schema from './schema'

export type DB = ReturnType<typeof openDatabase>['db']

/** Opens the SQLite file with the pragmas the service relies on. */
export function openDatabase(file: string) {
  const sqlite = new Database(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('synchronous = NORMAL')
  return { sqlite, db: drizzle(sqlite, { schema }) }
}
