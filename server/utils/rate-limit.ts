import type { H3Event } from 'h3'
import { setResponseHeader } from 'h3'
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'

export type RateLimitCategory = 'auth' | 'upload' | 'vote' | 'anonVote' | 'general'

const AUTH_PATHS = new Set([
  '/api/auth',
  '/api/auth/forgot-password',
  '/api/auth/reset-password',
  '/api/auth/change-password',
  '/api/auth/mfa/verify',
  '/api/auth/mfa/disable',
  '/api/auth/oauth/mfa',
])

/**
 * The one category a request counts in (decisions.md "Rate limits"), or null
 * for requests that are not counted (pages, assets, /api/image/**).
 */
export function rateLimitCategory(method: string, rawPath: string): RateLimitCategory | null {
  const path = rawPath.split('?')[0]!.replace(/\/+$/, '') || '/'
  if (path !== '/api' && !path.startsWith('/api/')) return null
  if (path.startsWith('/api/image/')) return null
  if (method === 'POST' && AUTH_PATHS.has(path)) return 'auth'
  if (method === 'POST' && (path === '/api/upload' || path === '/api/v1/upload')) return 'upload'
  if ((method === 'POST' || method === 'DELETE') && path === '/api/vote') return 'vote'
  if (method === 'POST' && path === '/api/vote/anonymous') return 'anonVote'
  return 'general'
}

const limiters = new Map<RateLimitCategory, RateLimiterMemory>()

function limiter(category: RateLimitCategory): RateLimiterMemory {
  let found = limiters.get(category)
  if (!found) {
    const { max, windowSeconds } = useRuntimeConfig().rateLimit[category]
    found = new RateLimiterMemory({ keyPrefix: category, points: Number(max), duration: Number(windowSeconds) })
    limiters.set(category, found)
  }
  return found
}

/**
 * Counts one request of `key` (an IP, or a user id for uploads) in `category`,
 * sets the RateLimit-* headers, and throws 429 with Retry-After once the
 * window's allowance is spent. Counters are atomic inside rate-limiter-flexible.
 */
export async function enforceRateLimit(event: H3Event, category: RateLimitCategory, key: string): Promise<void> {
  if (!useRuntimeConfig().rateLimit.enabled) return
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
  const reset = Math.max(1, Math.ceil(result.msBeforeNext / 1000))
  setResponseHeader(event, 'RateLimit-Limit', current.points)
  setResponseHeader(event, 'RateLimit-Remaining', Math.max(0, result.remainingPoints))
  setResponseHeader(event, 'RateLimit-Reset', reset)
  if (limited) {
    setResponseHeader(event, 'Retry-After', reset)
    throw apiError(429, 'Too many requests, please try again later')
  }
}
