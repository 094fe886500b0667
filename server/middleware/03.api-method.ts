import { setResponseHeader } from 'h3'

/**
 * A known /api path asked with a method it does not answer: 405 with Allow, as JSON.
 * A HEAD is answered as the GET (h3's router has no HEAD fallback, so it would
 * otherwise reach the catch-all 404); Node drops the body of a HEAD response.
 */
export default defineEventHandler((event) => {
  if (!event.path.startsWith('/api/')) return
  const allowed = allowedMethods(event.path.split('?')[0]!)
  if (event.method === 'HEAD' && allowed.has('GET')) {
    event._method = 'GET'
    event.node.req.method = 'GET'
    return
  }
  if (allowed.size > 0 && !allowed.has(event.method)) {
    setResponseHeader(event, 'Allow', [...allowed].join(', '))
    throw apiError(405, 'Method not allowed')
  }
})
