import type { H3Error } from 'h3'
import { getRequestURL, send, setResponseHeader } from 'h3'

/**
 * While the database is unreachable a page, feed or sitemap answers 503 with
 * Retry-After, as the API does (docs/behaviour.md "Errors"): a page as the
 * HTML error page, a feed or sitemap in the API's error shape.
 *
 * Any other error of a feed or sitemap is a 500 in that shape too, with the
 * request id its log line carries.
 *
 * A page error below 500 (an unknown path, a missing or private upload, 401,
 * 403, 429) is about the request, not the server: its request's log line
 * (server/utils/request-observer.ts) says it, with no stack trace. Nuxt's error handler, next in the chain, logs a stack for every
 * `fatal` error, and pages throw their 404s as fatal so that a client-side
 * navigation shows the error page too; on the server every error renders the
 * error page anyway, so the flag is dropped here. 5xx and unhandled errors
 * keep their stack.
 */
export default defineNitroErrorHandler(async (error: H3Error, event) => {
  const path = getRequestURL(event).pathname
  if (path === '/api' || path.startsWith('/api/') || path.startsWith('/__nuxt_error')) return
  if (isDatabaseUnavailable(error) || isDatabaseUnavailable(error.cause)) {
    useLogger().warn({ requestId: requestIdOf(event), method: event.method, route: routeTemplate(event, 503), reason: unavailableReason(error.cause ?? error) }, '[page] database unavailable')
    // Feeds and sitemaps are read by programs: the API's error shape, as their 404s.
    if (isDocumentPath(path)) return sendUnavailable(event)
    // A page: Nuxt's error page (next in the chain) says 503, with Retry-After.
    setUnavailable(event)
    error.statusCode = 503
    error.statusMessage = 'Service Unavailable'
    error.message = UNAVAILABLE_MESSAGE
    error.fatal = false
    error.unhandled = false
    return
  }
  const status = Number(error.statusCode) || 500
  if (status >= 500 || error.unhandled) {
    if (!isDocumentPath(path)) return
    // A deliberate 503 that says when to come back keeps its words and Retry-After, as the API's do.
    const retryAfter = (error.data as { retryAfter?: unknown } | undefined)?.retryAfter
    if (status === 503 && !error.unhandled && Number.isInteger(retryAfter)) {
      setResponseHeader(event, 'Retry-After', retryAfter as number)
      await send(event, feedErrorBody(event, 503, error.message, undefined, { requestId: requestIdOf(event) }))
      return
    }
    // A feed's or sitemap's server error: the API's 500, its cause logged, never Nuxt's error body.
    useLogger().error({ requestId: requestIdOf(event), method: event.method, route: routeTemplate(event, 500), err: error.cause ?? error }, '[feed] internal error')
    setRequestIdHeader(event)
    await send(event, feedErrorBody(event, 500, 'Internal server error', undefined, { requestId: requestIdOf(event) }))
    return
  }
  // A feed or sitemap path no route has (`/feeds/foo/bar.atom`): the API's error shape, as the
  // feeds' own 404s, never the page error's `Page not found: <path>`.
  if (isDocumentPath(path)) {
    await send(event, feedErrorBody(event, status, status === 404 ? 'Not found' : reasonPhrase(status)))
    return
  }
  error.fatal = false
})
