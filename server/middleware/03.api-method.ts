import { setResponseHeader } from 'h3'

/** Endpoints whose body is a multipart form (an image and its fields; image search takes JSON too); every other body is JSON. */
const MULTIPART_ROUTES = new Set(['/api/upload', '/api/v1/upload', '/api/search/image'])
const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

/**
 * A known /api path asked with a method it does not answer: 405 with Allow, as JSON.
 * A HEAD is answered as the GET (h3's router has no HEAD fallback, so it would
 * otherwise reach the catch-all 404); Node drops the body of a HEAD response.
 * A body that is not `application/json` sent to a JSON endpoint is a 415: no
 * simple cross-site form (urlencoded, multipart, text/plain) reaches one.
 */
export default defineEventHandler((event) => {
  const path = routedPath(event)
  if (!isApiPath(path)) return
  const allowed = allowedMethods(path)
  if (event.method === 'HEAD' && allowed.has('GET')) {
    treatAsGet(event)
    return
  }
  if (allowed.size > 0 && !allowed.has(event.method)) {
    setResponseHeader(event, 'Allow', [...allowed].join(', '))
    throw apiError(405, 'Method not allowed')
  }
  if (allowed.size > 0 && BODY_METHODS.has(event.method) && !MULTIPART_ROUTES.has(path.replace(/\/$/, '')) && !isJsonOrEmpty(event)) {
    throw apiError(415, 'Content-Type must be application/json')
  }
})
