import { createHash, timingSafeEqual } from 'node:crypto'
import { getRequestHeader, setResponseHeader, setResponseStatus } from 'h3'
import { metricsRegistry } from '../services/metrics'

/**
 * GET /metrics: this instance's numbers in Prometheus text format
 * (docs/operations.md, Monitoring). Unknown, as any unknown page is (404),
 * unless NUXT_METRICS_TOKEN is set; then only to `Authorization: Bearer
 * <token>`, compared in constant time, and 401 in the API's error shape to
 * anything else.
 */
export default defineEventHandler(async (event) => {
  const token = String(useRuntimeConfig().metricsToken || '')
  if (!token) throw notFound('Page not found')
  // The scheme's name is case-insensitive (RFC 9110), as server/utils/auth.ts reads it.
  const sent = getRequestHeader(event, 'authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1] ?? ''
  if (!sameSecret(sent, token)) {
    setResponseStatus(event, 401, reasonPhrase(401))
    setResponseHeader(event, 'WWW-Authenticate', 'Bearer')
    setResponseHeader(event, 'Cache-Control', 'no-store')
    return { statusCode: 401, statusMessage: reasonPhrase(401), message: 'A valid metrics token is required' }
  }
  setResponseHeader(event, 'Content-Type', metricsRegistry.contentType)
  setResponseHeader(event, 'Cache-Control', 'no-store')
  return metricsRegistry.metrics()
})

/** Equal in time independent of where they differ, and of their lengths (both hashed first). */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest())
}
