import { setResponseHeader } from 'h3'

const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

/**
 * A known /api path asked with a method it does not answer: 405 with Allow, as JSON.
 * A HEAD is answered as the GET (h3's router has no HEAD fallback, so it would
 * otherwise reach the catch-all 404); Node drops the body of a HEAD response.
 * A body that is not `application/json` sent to a JSON endpoint is a 415: no
 * simple cross-site form (urlencoded, multipart, text/plain) reaches one; a
 * route whose record says `body: 'multipart'` (server/utils/route-table.ts:
 * an image and its fields) takes a form, and one that reads no body ignores
 * whatever a PATCH, PUT or DELETE sends (bodyIgnored).
 */
export default defineEventHandler((event) => {
  const path = routedPath(event)
  // Feeds, sitemaps and robots.txt have GET handlers only: a HEAD (a feed reader's or a link
  // checker's first look) is answered as the GET too, not as an unknown path.
  if (event.method === 'HEAD' && isDocumentPath(path)) {
    treatAsGet(event)
    return
  }
  if (!isApiPath(path)) return
  // `/api` itself matches no handler (the catch-all needs a segment after it): answered
  // here as every unknown /api path is, not by the page renderer, whose 404 names the URL.
  if (path === '/api' || path === '/api/') throw notFound('Not found')
  const allowed = allowedMethods(path)
  if (event.method === 'HEAD' && allowed.has('GET')) {
    treatAsGet(event)
    return
  }
  if (allowed.size > 0 && !allowed.has(event.method)) {
    setResponseHeader(event, 'Allow', [...allowed].join(', '))
    throw apiError(405, 'Method not allowed')
  }
  if (allowed.size > 0 && BODY_METHODS.has(event.method) && !bodyIgnored(event.method, bodyOf(event.method, path)) && !isJsonOrEmpty(event)) {
    throw apiError(415, 'Content-Type must be application/json')
  }
})

/** The route record's body, in its own spelling or with a trailing slash (the router answers both). */
function bodyOf(method: string, path: string) {
  return routeRecord(method, path.replace(/\/$/, ''))?.body
}
