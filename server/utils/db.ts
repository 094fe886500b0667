import type Database from 'better-sqlite3'
import { openDatabase, type DB } from '../database/connection'

let connection: { sqlite: Database.Database, db: DB } | undefined

function connect() {
  if (!connection) {
    ensureDataDirs()
    connection = openDatabase(dataPath('app.sqlite'))
  }
  return connection
}

/** The Drizzle database (one better-sqlite3 connection per process). */
export function useDB(): DB {
  return connect().db
}

/** The raw better-sqlite3 handle, for transactions and prepared hot-path queries. */
export function useSqlite(): Database.Database {
  return connect().sqlite
}
