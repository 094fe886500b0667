import type { Database } from '../database/port'
import { countListLookup } from './metrics'
import { VersionedMap } from './versioned-map'

/** Most entries kept per database; the whole cache is dropped on any write anyway. */
const MAX_ENTRIES = 1000

const caches = new WeakMap<Database, VersionedMap<unknown>>()
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

/** `Database.dataVersion`'s answer, read for a request (null: it could not be read). */
export type DataVersion = Promise<string | null>

/**
 * Answers of the public lists, kept until the database changes. The version
 * (`Database.dataVersion`) moves with every commit by any connection or
 * instance, and is read before the answer is computed, so a list can never
 * miss a write acknowledged before the request; an answer computed while the
 * version moved is served once but not kept. While it is unknown (null) every
 * list runs its SQL. `at` is the version already read for the request (its
 * page view's: server/utils/in-process.ts `dataVersionOf`); without it the
 * version is read now.
 */
export async function cachedList<T>(db: Database, key: string, compute: () => Promise<T>, at?: DataVersion): Promise<T> {
  if (!enabled) return compute()
  let cache = caches.get(db)
  if (!cache) caches.set(db, cache = new VersionedMap(MAX_ENTRIES))
  const version = await (at ?? db.dataVersion())
  if (version === null) {
    // The version cannot be read: nothing cached can be trusted.
    cache.clear()
    countListLookup(false)
    return compute()
  }
  const kept = cache.get(version, key)
  countListLookup(kept !== undefined)
  if (kept !== undefined) return kept as T
  const value = await compute()
  if (cache.set(version, key, value) && typeof value === 'object' && value !== null) keptAnswers.add(value)
  return value
}
