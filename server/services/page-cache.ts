import type { Database } from '../database/port'
import { VersionedMap } from './versioned-map'

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
 * clock changes (the hot ranking) at most seconds old: a page older than
 * `PAGE_CACHE_MAX_AGE_MS` is rendered again by the next request, and served
 * as it is to the others until that render is kept (or for another
 * `PAGE_CACHE_MAX_AGE_MS` if it fails). A page not kept yet is rendered once
 * per version: requests that come while it renders wait for it.
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

interface Entry extends KeptPage {
  storedAt: number
  /** When a request took on rendering this page again, once it was too old. */
  refreshingSince?: number
}
interface Cache {
  entries: VersionedMap<Entry>
  /** Renders under way at the current version, by key: settled when their answer is sent or fails. */
  rendering: VersionedMap<Promise<void>>
}
const caches = new WeakMap<Database, Cache>()

/** Whether a GET of `path` (without its query) may be answered from and kept in the cache. */
export function isCacheablePagePath(path: string): boolean {
  return CACHEABLE_PATH.test(path)
}

function cacheOf(db: Database): Cache {
  let cache = caches.get(db)
  if (!cache) caches.set(db, cache = { entries: new VersionedMap(MAX_ENTRIES), rendering: new VersionedMap(Number.POSITIVE_INFINITY) })
  return cache
}

/**
 * The page kept for `key` at `version`: undefined when there is none, or when
 * it is too old and this caller is the one to render it again.
 */
export function keptPage(db: Database, version: string, key: string, now = Date.now()): KeptPage | undefined {
  const entry = cacheOf(db).entries.get(version, key)
  if (!entry || now - entry.storedAt < PAGE_CACHE_MAX_AGE_MS) return entry
  if (entry.refreshingSince !== undefined && now - entry.refreshingSince < PAGE_CACHE_MAX_AGE_MS) return entry
  entry.refreshingSince = now
  return undefined
}

/** The render of `key` under way at `version` in this process, if any. */
export function pageBeingRendered(db: Database, version: string, key: string): Promise<void> | undefined {
  return cacheOf(db).rendering.get(version, key)
}

/**
 * Notes that this caller renders `key` at `version` (after `pageBeingRendered`
 * found none); call the answer once its page is sent or has failed. A render
 * at a version another request has moved past is not noted: it will not be kept.
 */
export function renderingPage(db: Database, version: string, key: string): () => void {
  const { rendering } = cacheOf(db)
  let settle!: () => void
  const done = new Promise<void>(resolve => settle = resolve)
  rendering.set(version, key, done)
  return () => {
    rendering.delete(version, key, done)
    settle()
  }
}

/**
 * Keeps a page rendered at `version`, unless the data has moved on since
 * (another request has seen a newer version): then it is served once and dropped.
 */
export function keepPage(db: Database, version: string, key: string, body: string, headers: Record<string, string>, now = Date.now()): void {
  caches.get(db)?.entries.set(version, key, { answer: { json: body, etag: '', compressed: {} }, headers, storedAt: now })
}
