import type { H3Error } from 'h3'
import { send, setResponseHeader, setResponseStatus } from 'h3'

/**
 * Every error under /api becomes `{ statusCode, statusMessage, message }`
 * (plus `data` where a handler set it on a 4xx). Nothing of a 5xx's cause
 * (stack, SQL, internals) reaches the client; it is logged instead.
 * Other paths fall through to Nuxt's error page. "Under /api" is decided on the
 * decoded path, as routing decides it, so `/%61pi/...` errors are JSON too.
 */
export default defineNitroErrorHandler(async (error: H3Error, event) => {
  const path = routedPath(event)
  if (!isApiPath(path)) return

  let statusCode = Number(error.statusCode) || 500
  if (statusCode < 400 || statusCode > 599) statusCode = 500
  const internal = statusCode >= 500 || error.unhandled
  if (internal) {
    statusCode = statusCode >= 500 ? statusCode : 500
    console.error(`[api] ${event.method} ${path}`, error.cause ?? error)
  }
  const body: Record<string, unknown> = {
    statusCode,
    statusMessage: reasonPhrase(statusCode),
    message: internal ? 'Internal server error' : apiMessage(error, statusCode),
  }
  if (!internal && error.data && typeof error.data === 'object') {
    const data = error.data as Record<string, unknown>
    // A 409 duplicate carries its fields at the top level (decisions.md); others keep `data`.
    if (statusCode === 409) Object.assign(body, data)
    else if (statusCode === 400 && !isValidationInternals(data)) body.data = data
  }
  setResponseStatus(event, statusCode, reasonPhrase(statusCode))
  setResponseHeader(event, 'Content-Type', 'application/json')
  setResponseHeader(event, 'Cache-Control', 'no-store')
  await send(event, JSON.stringify(body))
})

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
