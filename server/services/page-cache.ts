import type { Database } from '../database/port'

/**
 * Server renders of the public pages for visitors who send no cookie and no
 * credentials, kept until the database changes or for `MAX_AGE_MS`.
 *
 * Such a render depends only on its URL, the data and the clock: no session,
 * no theme choice, no per-visitor vote state (the page asks for that from the
 * browser). So, as with the list cache (list-cache.ts), the database's data
 * version is read before the render and an entry is kept only under the
 * version it was rendered at: a page never misses a write acknowledged before
 * the request, on this instance or another. The age bound keeps what the
 * clock changes (relative dates, the hot ranking) at most seconds old.
 *
 * A page's CSP lists its inline scripts by hash (server/plugins/csp.ts), so a
 * kept page is answered byte for byte, and each compressed variant is made
 * once (server/utils/compression.ts).
 */
export const PAGE_CACHE_MAX_AGE_MS = 10_000

/** Most pages kept per database; the oldest goes first. */
const MAX_ENTRIES = 500

/** Pages whose render is the same for every visitor without a cookie. */
const CACHEABLE_PATH = /^\/(?:docs|tags\/[^/]+|user\/[^/]+|upload\/(?!new$)[^/]+)?$/

export interface KeptPage {
  /**
   * The body as rendered (`json`, as the HTTP layer names an answer's
   * serialised body) and its compressed variants as they are asked for.
   */
  answer: { json: string, etag: string, compressed: Partial<Record<'br' | 'gzip', Buffer>> }
  headers: Record<string, string>
}

interface Entry extends KeptPage { storedAt: number }
interface Cache { version: string, entries: Map<string, Entry> }
const caches = new WeakMap<Database, Cache>()

/** Whether a GET of `path` (without its query) may be answered from and kept in the cache. */
export function isCacheablePagePath(path: string): boolean {
  return CACHEABLE_PATH.test(path)
}

function cacheOf(db: Database, version: string): Cache {
  let cache = caches.get(db)
  if (!cache) caches.set(db, cache = { version, entries: new Map() })
  if (cache.version !== version) {
    cache.entries.clear()
    cache.version = version
  }
  return cache
}

/** The page kept for `key` at `version`, if it is young enough. */
export function keptPage(db: Database, version: string, key: string, now = Date.now()): KeptPage | undefined {
  const cache = cacheOf(db, version)
  const entry = cache.entries.get(key)
  if (!entry) return undefined
  if (now - entry.storedAt >= PAGE_CACHE_MAX_AGE_MS) {
    cache.entries.delete(key)
    return undefined
  }
  return entry
}

/**
 * Keeps a page rendered at `version`, unless the data has moved on since
 * (another request has seen a newer version): then it is served once and dropped.
 */
export function keepPage(db: Database, version: string, key: string, body: string, headers: Record<string, string>, now = Date.now()): void {
  const cache = caches.get(db)
  if (!cache || cache.version !== version) return
  cache.entries.delete(key)
  if (cache.entries.size >= MAX_ENTRIES) cache.entries.delete(cache.entries.keys().next().value!)
  cache.entries.set(key, { answer: { json: body, etag: '', compressed: {} }, headers, storedAt: now })
}
