import type { H3Event } from 'h3'

/** Headers every answer carries (server/middleware/01.security.ts; the list fast path sets them itself). */
const SECURITY_HEADERS = [
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['X-Frame-Options', 'DENY'],
] as const

export function setSecurityHeaders(event: H3Event): void {
  const res = event.node.res
  for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value)
}
