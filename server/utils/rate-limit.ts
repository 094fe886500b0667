import type { H3Event } from 'h3'
import { getCookie, setResponseHeader } from 'h3'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import { SESSION_COOKIE } from '../services/sessions'
import { hasKeptAnswer } from './answer-once'
import { isInProcessRequest } from './in-process'
import { routeRecord } from './route-table'
import { settingOn } from './settings'

export type RateLimitCategory = 'auth' | 'upload' | 'vote' | 'anonVote' | 'comment' | 'general'

/**
 * The categories whose handlers count a request themselves (`limitAccount`: per
 * account once the caller is known, by IP otherwise), so that two accounts
 * behind one address do not share a limit: the middleware and the API fast
 * path leave these to them.
 */
const COUNTED_BY_HANDLER: ReadonlySet<RateLimitCategory> = new Set(['upload', 'comment'])

/**
 * The category the middleware and the API fast path count a request in by
 * address: its route's (`rateLimitCategory`), or null when the route is not
 * counted or its handler counts it (COUNTED_BY_HANDLER).
 */
export function categoryByAddress(method: string, rawPath: string, signedIn?: () => boolean): RateLimitCategory | null {
  const category = rateLimitCategory(method, rawPath, signedIn)
  return category && !COUNTED_BY_HANDLER.has(category) ? category : null
}

/** Whether a request carries a session cookie: what tells a judgement's category (a vote, or an anonymous vote). */
export const hasSessionCookie = (event: H3Event) => getCookie(event, SESSION_COOKIE) !== undefined

/**
 * The one category a request counts in (docs/behaviour.md, Rate limits): its
 * route record's `limit` (server/utils/route-table.ts), or null for requests
 * that are not counted (pages, assets, /api/image/**, and /api/health, which
 * load balancers poll). `signedIn` tells whether the request carries a session
 * cookie, asked only where the category depends on it. Trailing slashes do not
 * change the category.
 */
export function rateLimitCategory(method: string, rawPath: string, signedIn: () => boolean = () => false): RateLimitCategory | null {
  const path = rawPath.split('?')[0]!.replace(/\/+$/, '') || '/'
  if (path !== '/api' && !path.startsWith('/api/')) return null
  const record = routeRecord(method, path)
  if (record) return typeof record.limit === 'function' ? record.limit(signedIn()) : record.limit
  // A method the route does not answer, or a path no route has: GENERAL, but never under /api/image/ or at /api/health, whatever the method.
  return path.startsWith('/api/image/') || path === '/api/health' ? null : 'general'
}

/** The point a request spent, kept so that a 304 can give it back. */
interface RateLimitCharge {
  category: RateLimitCategory
  key: string
}

/** What a limiter counts: a request category, or data exports per account (`limitExports`). */
type Counted = RateLimitCategory | 'export'

const limiters = new Map<Counted, RateLimiterAbstract>()

function limiter(category: Counted): RateLimiterAbstract {
  let found = limiters.get(category)
  if (!found) {
    found = buildLimiter(category)
    limiters.set(category, found)
  }
  return found
}

/**
 * In process memory by default. With Redis (`NUXT_REDIS_URL`) one counter per
 * key for all instances (`<prefix>rl:<category>:<key>`, counted atomically by a
 * Lua script); whenever Redis does not answer (not connected, or no reply
 * within 1 s) the same request counts in this instance's memory instead, so
 * the site keeps answering with per-instance limits until Redis is back.
 */
function buildLimiter(category: Counted): RateLimiterAbstract {
  const { max, windowSeconds } = useRuntimeConfig().rateLimit[category]
  const options = { keyPrefix: category, points: Number(max), duration: Number(windowSeconds) }
  const redis = useRedis()
  if (!redis) return new RateLimiterMemory(options)
  return new RateLimiterRedis({
    ...options,
    keyPrefix: `${redisPrefix()}rl:${category}`,
    storeClient: redis,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
  })
}

/** One request counted: what its RateLimit-* headers say, and whether it is over the limit. */
export interface RateLimitCount {
  limit: number
  remaining: number
  /** Seconds until the window resets (at least 1). */
  reset: number
  limited: boolean
}

/**
 * Counts one request of `key` (an IP, or a user id for uploads) in `category`
 * and answers what its headers must say, or null when the request is not
 * counted (limits off, or a request this process makes to itself). Counters
 * are atomic inside rate-limiter-flexible.
 */
export async function countRateLimit(event: H3Event, category: RateLimitCategory, key: string): Promise<RateLimitCount | null> {
  if (!settingOn(useRuntimeConfig().rateLimit.enabled) || isInProcessRequest(event)) return null
  const current = limiter(category)
  let result: RateLimiterRes
  let limited = false
  try {
    result = await current.consume(key)
  }
  catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error
    result = error
    limited = true
  }
  if (!limited) event.context.rateLimitCharge = { category, key } satisfies RateLimitCharge
  return { limit: current.points, remaining: Math.max(0, result.remainingPoints), reset: Math.max(1, Math.ceil(result.msBeforeNext / 1000)), limited }
}

/** The RateLimit-* headers of a counted request, in the order they are sent (Retry-After last, when limited). */
export function rateLimitHeaders(count: RateLimitCount): string[] {
  const headers = ['RateLimit-Limit', String(count.limit), 'RateLimit-Remaining', String(count.remaining), 'RateLimit-Reset', String(count.reset)]
  if (count.limited) headers.push('Retry-After', String(count.reset))
  return headers
}

/** Sets a counted request's RateLimit-* headers, and throws 429 with Retry-After once the window's allowance is spent. */
export function applyRateLimit(event: H3Event, count: RateLimitCount): void {
  const headers = rateLimitHeaders(count)
  for (let i = 0; i < headers.length; i += 2) setResponseHeader(event, headers[i]!, headers[i + 1]!)
  if (count.limited) throw apiError(429, 'Too many requests, please try again later')
}

/** Counts one request (`countRateLimit`) and applies the result (`applyRateLimit`). */
export async function enforceRateLimit(event: H3Event, category: RateLimitCategory, key: string): Promise<void> {
  const count = await countRateLimit(event, category, key)
  if (count) applyRateLimit(event, count)
}

/**
 * Data exports per account (docs/behaviour.md, Rate limits): an export reads
 * the whole account, so at most `rateLimit.export.max` a window, counted
 * across instances like every limit (Redis when configured). The request
 * also counts in GENERAL by IP, like every other; over this limit it is a
 * 429 with Retry-After and the error body.
 */
export async function limitExports(event: H3Event, userId: string): Promise<void> {
  if (!settingOn(useRuntimeConfig().rateLimit.enabled) || isInProcessRequest(event)) return
  try {
    await limiter('export').consume(userId)
  }
  catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error
    setResponseHeader(event, 'Retry-After', Math.max(1, Math.ceil(error.msBeforeNext / 1000)))
    throw apiError(429, 'Too many data exports, please try again later')
  }
}

/**
 * Who is uploading (UPLOAD) or writing a comment (COMMENT), counted per
 * account (docs/behaviour.md "Rate limits") once `authenticate` knows the
 * caller, by IP when it refuses them (no credential, or a junk cookie or
 * token), so that every such request counts once and a client cannot dodge
 * the limit with a made-up credential. Over the limit, the 429 is answered
 * instead of the 401. A create whose Idempotency-Key has a kept answer is not
 * counted (docs/behaviour.md, Sending again).
 */
export async function limitAccount<A extends { id: string }>(event: H3Event, category: 'upload' | 'comment', authenticate: (event: H3Event) => Promise<A>): Promise<A> {
  let actor: A
  try {
    actor = await authenticate(event)
  }
  catch (error) {
    await enforceRateLimit(event, category, `ip:${clientIp(event)}`)
    throw error
  }
  // A create sent again with its Idempotency-Key is answered from what was kept, creating
  // nothing: not counted, so a lost answer of the last allowed create still comes back. Should
  // the key turn out to be another request's, it is counted then (answerOnce).
  if (await hasKeptAnswer(event, actor.id)) event.context.uncounted = { category, key: actor.id } satisfies Uncounted
  else await enforceRateLimit(event, category, actor.id)
  return actor
}

/** A request limitAccount left uncounted, for answerOnce to count if it is no replay after all. */
export interface Uncounted { category: 'upload' | 'comment', key: string }

/** Who is uploading, counted in UPLOAD per account (`limitAccount`). */
export function limitUploader<A extends { id: string }>(event: H3Event, authenticate: (event: H3Event) => Promise<A>): Promise<A> {
  return limitAccount(event, 'upload', authenticate)
}

/**
 * Gives back the point this request spent (a 304 answer: the client already
 * held the data, so a script that revalidates does not use up its allowance)
 * and corrects its RateLimit-Remaining header.
 */
export async function refundRateLimit(event: H3Event): Promise<void> {
  const charge = event.context.rateLimitCharge as RateLimitCharge | undefined
  if (!charge) return
  event.context.rateLimitCharge = undefined
  const current = limiter(charge.category)
  const result = await current.reward(charge.key, 1)
  setResponseHeader(event, 'RateLimit-Remaining', Math.min(current.points, Math.max(0, result.remainingPoints)))
}
