import type { H3Error } from 'h3'
import { getRequestURL } from 'h3'

/**
 * A page error below 500 (an unknown path, a missing or private upload, 401,
 * 403, 429) is about the request, not the server: one log line, no stack
 * trace. Nuxt's error handler, next in the chain, logs a stack for every
 * `fatal` error, and pages throw their 404s as fatal so that a client-side
 * navigation shows the error page too; on the server every error renders the
 * error page anyway, so the flag is dropped here. 5xx and unhandled errors
 * keep their stack.
 */
export default defineNitroErrorHandler((error: H3Error, event) => {
  const path = getRequestURL(event).pathname
  if (path === '/api' || path.startsWith('/api/') || path.startsWith('/__nuxt_error')) return
  const status = Number(error.statusCode) || 500
  if (status >= 500 || error.unhandled) return
  error.fatal = false
  console.info(`[page] ${event.method} ${path} → ${status}`)
})
