import type Database from 'better-sqlite3'

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>()

/**
 * A prepared statement compiled once per connection, for the queries every
 * request runs (session lookup, votes). Only for fixed SQL text used in one
 * mode (no `.pluck()`/`.raw()` toggled by some callers and not others).
 */
export function prepared(sqlite: Database.Database, sql: string): Database.Statement {
  let cache = caches.get(sqlite)
  if (!cache) caches.set(sqlite, cache = new Map())
  let statement = cache.get(sql)
  if (!statement) cache.set(sql, statement = sqlite.prepare(sql))
  return statement
}
