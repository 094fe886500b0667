import type { H3Event } from 'h3'

/**
 * One request header as h3's `getRequestHeader` reads it (repeated values
 * joined with ", "), without copying every header into a new object first,
 * as h3 does on each call: the hot routes read five headers a request.
 * `name` is lower case.
 */
export function requestHeader(event: H3Event, name: string): string | undefined {
  const value = event.node.req.headers[name]
  return Array.isArray(value) ? value.filter(Boolean).join(', ') : value
}
