import type { H3Error, H3Event } from 'h3'
import { send, setResponseHeader, setResponseStatus } from 'h3'
import { UnstorableTextError } from './database/port'

/**
 * Every error under /api becomes `{ statusCode, statusMessage, message }`
 * (plus `data` where a handler set it on a 4xx). Nothing of a 5xx's cause
 * (stack, SQL, internals) reaches the client; it is logged instead. The one
 * deliberate 5xx is a 503 that says when to come back (`data.retryAfter`
 * seconds, sent as Retry-After): it keeps its message.
 * Other paths fall through to Nuxt's error page. "Under /api" is decided on the
 * decoded path, as routing decides it, so `/%61pi/...` errors are JSON too.
 */
export default defineNitroErrorHandler(async (error: H3Error, event) => {
  const path = routedPath(event)
  if (!isApiPath(path)) return
  setRequestIdHeader(event)

  // A client that closed its connection in the middle of its request (an upload given up):
  // no one to answer and nothing wrong here. The request's log line says 499.
  if (clientWentAway(error, event)) {
    event.node.res.end()
    return
  }
  if (isDatabaseUnavailable(error)) {
    useLogger().warn({ requestId: requestIdOf(event), method: event.method, route: routeTemplate(event, 503), reason: unavailableReason(error) }, '[api] database unavailable')
    await sendUnavailable(event)
    return
  }
  if (error.cause instanceof UnstorableTextError) {
    error = apiError(400, error.cause.message)
  }
  let statusCode = Number(error.statusCode) || 500
  if (statusCode < 400 || statusCode > 599) statusCode = 500
  const retryAfter = retryAfterOf(error, statusCode)
  const internal = (statusCode >= 500 && retryAfter === undefined) || error.unhandled
  if (internal) {
    statusCode = statusCode >= 500 ? statusCode : 500
    useLogger().error({ requestId: requestIdOf(event), method: event.method, route: routeTemplate(event, statusCode), err: error.cause ?? error }, '[api] internal error')
  }
  const body: Record<string, unknown> = {
    statusCode,
    statusMessage: reasonPhrase(statusCode),
    message: internal ? 'Internal server error' : apiMessage(error, statusCode),
  }
  // The id the log line of this request has, for a report of a server error (docs/operations.md, Logs).
  if (statusCode >= 500) body.requestId = requestIdOf(event)
  if (!internal && error.data && typeof error.data === 'object') {
    const data = error.data as Record<string, unknown>
    // A 409 duplicate carries its fields at the top level (docs/behaviour.md, Uploads and media); others keep `data`.
    if (statusCode === 409) Object.assign(body, data)
    else if ((statusCode === 400 || statusCode === 404) && !isValidationInternals(data)) body.data = data
  }
  setResponseStatus(event, statusCode, reasonPhrase(statusCode))
  if (!internal && retryAfter !== undefined) setResponseHeader(event, 'Retry-After', retryAfter)
  setResponseHeader(event, 'Content-Type', 'application/json')
  setResponseHeader(event, 'Cache-Control', 'no-store')
  await send(event, JSON.stringify(body))
})

/** Node's error for a request body its client cut short (`aborted`, ECONNRESET), on a connection now closed. */
function clientWentAway(error: H3Error, event: H3Event): boolean {
  const cause = (error.cause ?? error) as { code?: unknown }
  return cause.code === 'ECONNRESET' && event.node.req.socket?.destroyed === true
}

/** The seconds of a deliberate 503 (`apiError(503, message, { retryAfter })`). */
function retryAfterOf(error: H3Error, statusCode: number): number | undefined {
  const seconds = (error.data as { retryAfter?: unknown } | undefined)?.retryAfter
  return statusCode === 503 && Number.isInteger(seconds) && (seconds as number) > 0 ? seconds as number : undefined
}

/** Messages of h3's own errors (unknown route, bad JSON, method) in plain words. */
function apiMessage(error: H3Error, statusCode: number): string {
  if (statusCode === 404 && /^Cannot find any (path|route) matching/.test(error.message)) return 'Not found'
  if (statusCode === 405) return 'Method not allowed'
  return error.message || reasonPhrase(statusCode)
}

/** h3's own validation errors put the raw validator error in `data`; never echo that. */
function isValidationInternals(data: Record<string, unknown>): boolean {
  return data instanceof Error || ('issues' in data && !Array.isArray((data as { issues?: unknown }).issues))
}
