import { getCookie, getRequestHeader, getRequestURL, setResponseHeaders } from 'h3'

const UNSAFE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

/**
 * Headers every answer carries, and the cross-site check: a cookie-authenticated
 * unsafe request whose Origin is present and not ours is refused (scripts send
 * no Origin and pass). Page CSP is added per render by server/plugins/csp.ts.
 */
export default defineEventHandler((event) => {
  setResponseHeaders(event, {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
  })
  if (!UNSAFE_METHODS.has(event.method) || !getCookie(event, SESSION_COOKIE)) return
  const origin = getRequestHeader(event, 'origin')
  if (origin && !isOwnOrigin(event, origin)) throw forbidden('Cross-site request blocked')
})

function isOwnOrigin(event: Parameters<typeof getRequestURL>[0], origin: string): boolean {
  const site = new URL(useRuntimeConfig().public.siteUrl).origin
  const requested = getRequestURL(event, { xForwardedHost: Boolean(useRuntimeConfig().trustProxy), xForwardedProto: Boolean(useRuntimeConfig().trustProxy) }).origin
  return origin === site || origin === requested
}
