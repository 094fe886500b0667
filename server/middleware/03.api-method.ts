import { setResponseHeader } from 'h3'

/** A known /api path asked with a method it does not answer: 405 with Allow, as JSON. */
export default defineEventHandler((event) => {
  if (!event.path.startsWith('/api/')) return
  const allowed = allowedMethods(event.path.split('?')[0]!)
  if (allowed.size > 0 && !allowed.has(event.method)) {
    setResponseHeader(event, 'Allow', [...allowed].join(', '))
    throw apiError(405, 'Method not allowed')
  }
})
