import { getRequestHeader, getRequestURL } from 'h3'
import type { H3Event } from 'h3'

const UNSAFE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

/**
 * Headers every answer carries, and the cross-site check (decisions.md
 * "Cross-site requests"): an unsafe /api request whose Origin is present and
 * not ours is refused, with or without a cookie, so a cross-site form can
 * neither act for a signed-in visitor nor sign a visitor in. Scripts send no
 * Origin and pass. Page CSP is added per render by server/plugins/csp.ts.
 */
export default defineEventHandler((event) => {
  setSecurityHeaders(event)
  if (!UNSAFE_METHODS.has(event.method) || !isApiPath(routedPath(event))) return
  const origin = getRequestHeader(event, 'origin')
  if (origin !== undefined && !isOwnOrigin(event, origin)) throw forbidden('Cross-site request blocked')
})

/** The site's configured origin, or the origin this request was addressed to (a browser sets Host itself). */
function isOwnOrigin(event: H3Event, origin: string): boolean {
  const config = useRuntimeConfig()
  const site = new URL(config.public.siteUrl).origin
  const trustProxy = Boolean(config.trustProxy)
  const requested = getRequestURL(event, { xForwardedHost: trustProxy, xForwardedProto: trustProxy }).origin
  return origin === site || origin === requested
}
