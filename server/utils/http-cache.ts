import type { H3Event } from 'h3'
import { etagMatches, etagOf } from '../services/etags'
import { isKeptAnswer } from '../services/list-cache'
import { compressResponse, type ContentEncoding } from './compression'
import { refundRateLimit } from './rate-limit'
import { requestHeader } from './request-header'
import { routeRecord } from './route-table'
import { getResponseHeader, getResponseStatus, setResponseHeader, setResponseStatus } from 'h3'

/** Every Cache-Control value the API and the pages use (docs/behaviour.md, Caching), in one place. */
export const CACHE_POLICIES = {
  /** the public lists: /api/uploads, /api/uploads/filtered, /api/search */
  list: 'public, max-age=120',
  /** the front page's feature lists: /api/items-recent, /api/items-top-voted */
  feature: 'public, max-age=300',
  /** /api/profile */
  profile: 'private, max-age=30',
  /** answers that depend on the caller: private uploads, votes, tokens, admin */
  personal: 'private, no-store',
  /** /api/image/{id}: content-addressed, never changes */
  image: 'public, max-age=31536000, immutable',
  /** every other JSON GET */
  revalidate: 'no-cache',
  /** a page rendered for a request with a cookie or credentials */
  ownPage: 'private, no-cache',
} as const

export type CachePolicy = keyof typeof CACHE_POLICIES

/** A handler whose answer depends on the caller says so here (overrides the route's policy). */
export function setCachePolicy(event: H3Event, policy: CachePolicy): void {
  event.context.cachePolicy = policy
}

/**
 * The policy of a GET path when its handler chose none: its route record's
 * `cache` (server/utils/route-table.ts). Another spelling of a route (a
 * trailing slash) keeps a private route's policy (personal, profile) and is otherwise revalidated:
 * a public policy is given to the route's own spelling only.
 */
export function routeCachePolicy(path: string): CachePolicy {
  const record = routeRecord('GET', path)
  if (record) return record.cache ?? 'revalidate'
  const policy = routeRecord('GET', path.replace(/\/+$/, ''))?.cache
  return policy === 'personal' || policy === 'profile' ? policy : 'revalidate'
}

export function cachePolicyFor(event: H3Event): CachePolicy {
  return (event.context.cachePolicy as CachePolicy | undefined) ?? routeCachePolicy(event.path.split('?')[0]!)
}

export { etagOf } from '../services/etags'

/**
 * True (and the 304 is set) when the client already holds this version, in
 * any encoding: a validator of a compressed variant (`"abc-br"`, see
 * server/utils/compression.ts) matches its identity ETag `"abc"`, and the 304
 * names the variant the client holds.
 */
export function isNotModified(event: H3Event, etag: string): boolean {
  setResponseHeader(event, 'ETag', etag)
  const match = requestHeader(event, 'if-none-match')
  if (!match) return false
  if (match.trim() === '*') {
    setResponseStatus(event, 304, 'Not Modified')
    return true
  }
  const held = match.split(',').map(tag => tag.trim()).find(tag => etagMatches(tag, etag))
  if (!held) return false
  setResponseHeader(event, 'ETag', held.replace(/^W\//, ''))
  setResponseStatus(event, 304, 'Not Modified')
  return true
}

/**
 * Runs before every /api GET 200 JSON answer is sent (server/plugins/http-cache):
 * serialises it once, sets Cache-Control and a strong ETag, and turns a
 * matching If-None-Match into a bodiless 304.
 */
export function applyHttpCache(event: H3Event, response: { body?: unknown }): void {
  if (event.method !== 'GET' || !event.path.startsWith('/api/') || getResponseStatus(event) !== 200) return
  const body = response.body
  if (body === null || body === undefined || typeof body !== 'object' || Buffer.isBuffer(body) || isStream(body)) return
  if (!getResponseHeader(event, 'cache-control')) setResponseHeader(event, 'Cache-Control', CACHE_POLICIES[cachePolicyFor(event)])
  const answer = serialised(body)
  const { json, etag } = answer
  if (answer.compressed) event.context.keptAnswer = answer
  setResponseHeader(event, 'Content-Type', 'application/json')
  response.body = isNotModified(event, etag) ? '' : json
}

/**
 * What every response goes through before it is sent (server/plugins/http-cache.ts,
 * and the fast path, server/plugins/api-fast-path.ts): ETag,
 * Cache-Control and 304 for /api GETs (a 304 gives its rate-limit point back),
 * then brotli/gzip for pages and JSON.
 */
export async function finishResponse(event: H3Event, response: { body?: unknown }): Promise<void> {
  applyHttpCache(event, response)
  applyOwnPagePolicy(event)
  // A 304 does not spend a rate-limit point: the client already holds the answer.
  if (getResponseStatus(event) === 304) await refundRateLimit(event)
  await compressResponse(event, response)
}

/**
 * A page rendered for a request with a cookie or credentials may hold the
 * account's own data (its e-mail, sessions, tokens, hidden tags) or the
 * visitor's theme: no shared cache may keep it, and the browser asks again
 * before reusing it. Pages for visitors without either come from the page
 * cache (server/plugins/page-cache.ts) and carry no policy.
 */
function applyOwnPagePolicy(event: H3Event): void {
  if (event.path.startsWith('/api/') || getResponseHeader(event, 'cache-control')) return
  if (!String(getResponseHeader(event, 'content-type') ?? '').startsWith('text/html')) return
  const { headers } = event.node.req
  if (headers.cookie === undefined && headers.authorization === undefined) return
  setResponseHeader(event, 'Cache-Control', CACHE_POLICIES.ownPage)
}

/**
 * An answer as sent: its JSON, ETag and, for an answer the list cache keeps,
 * its compressed variants as they are made (server/utils/compression.ts).
 */
export interface SerialisedAnswer {
  json: string
  etag: string
  compressed?: Partial<Record<ContentEncoding, Buffer>>
}

/** The answers the list cache keeps, serialised once each. */
const serialisedAnswers = new WeakMap<object, SerialisedAnswer>()

function serialised(body: object): SerialisedAnswer {
  const kept = serialisedAnswers.get(body)
  if (kept) return kept
  const json = JSON.stringify(body)
  const answer: SerialisedAnswer = { json, etag: etagOf(json) }
  if (isKeptAnswer(body)) {
    answer.compressed = {}
    serialisedAnswers.set(body, answer)
  }
  return answer
}

function isStream(body: object): boolean {
  return typeof (body as { pipe?: unknown }).pipe === 'function' || typeof (body as { getReader?: unknown }).getReader === 'function'
}
