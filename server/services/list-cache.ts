import type { Database } from '../database/port'

/** Most entries kept per database; the whole cache is dropped on any write anyway. */
const MAX_ENTRIES = 1000

interface Cache { version: string, entries: Map<string, unknown> }
const caches = new WeakMap<Database, Cache>()
let enabled = true

/**
 * Every answer the cache has kept: served as the same object to every reader
 * and never changed, so what is derived from it (its JSON and ETag, see
 * server/utils/http-cache.ts) may be kept beside it.
 */
const keptAnswers = new WeakSet<object>()

export function isKeptAnswer(value: unknown): value is object {
  return typeof value === 'object' && value !== null && keptAnswers.has(value)
}

/** Off makes every list run its SQL (the benchmark's baseline server does this). */
export function setListCacheEnabled(on: boolean): void {
  enabled = on
}

/**
 * Answers of the public lists, kept until the database changes. The version
 * (`Database.dataVersion`) moves with every commit by any connection or
 * instance, and is read before the answer is computed, so a list can never
 * miss a write acknowledged before the request; an answer computed while the
 * version moved is served once but not kept. While it is unknown (null) every
 * list runs its SQL.
 */
export async function cachedList<T>(db: Database, key: string, compute: () => Promise<T>): Promise<T> {
  if (!enabled) return compute()
  let cache = caches.get(db)
  if (!cache) caches.set(db, cache = { version: '', entries: new Map() })
  const version = await db.dataVersion()
  if (version === null) {
    // The version cannot be read: nothing cached can be trusted.
    cache.entries.clear()
    cache.version = ''
    return compute()
  }
  if (version !== cache.version) {
    cache.entries.clear()
    cache.version = version
  }
  if (cache.entries.has(key)) return cache.entries.get(key) as T
  const value = await compute()
  if (cache.version === version) {
    if (cache.entries.size >= MAX_ENTRIES) cache.entries.delete(cache.entries.keys().next().value!)
    cache.entries.set(key, value)
    if (typeof value === 'object' && value !== null) keptAnswers.add(value)
  }
  return value
}
