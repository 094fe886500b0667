import type Database from 'better-sqlite3'

/** Most entries kept per connection; the whole cache is dropped on any write anyway. */
const MAX_ENTRIES = 1000

interface Cache { version: string, entries: Map<string, unknown>, probe: Database.Statement }
const caches = new WeakMap<Database.Database, Cache>()
let enabled = true

/** Off makes every list run its SQL (the benchmark's baseline server does this). */
export function setListCacheEnabled(on: boolean): void {
  enabled = on
}

/**
 * Answers of the public lists, kept until the database changes. The version
 * is `total_changes()` (every write through this connection, counted before
 * the writer gets its answer) plus `PRAGMA data_version` (commits by any other
 * connection or process), so a list can never miss an acknowledged write.
 */
export function cachedList<T>(sqlite: Database.Database, key: string, compute: () => T): T {
  if (!enabled) return compute()
  let cache = caches.get(sqlite)
  if (!cache) {
    cache = { version: '', entries: new Map(), probe: sqlite.prepare('SELECT total_changes() AS changes, data_version AS data FROM pragma_data_version') }
    caches.set(sqlite, cache)
  }
  const { changes, data } = cache.probe.get() as { changes: number, data: number }
  const version = `${changes}:${data}`
  if (version !== cache.version) {
    cache.entries.clear()
    cache.version = version
  }
  if (cache.entries.has(key)) return cache.entries.get(key) as T
  const value = compute()
  if (cache.entries.size >= MAX_ENTRIES) cache.entries.delete(cache.entries.keys().next().value!)
  cache.entries.set(key, value)
  return value
}
