/**
 * Headers every answer carries, and the cross-site check (docs/behaviour.md,
 * "Cross-site requests"): an unsafe /api request whose Origin is present and
 * not ours is refused, with or without a cookie, so a cross-site form can
 * neither act for a signed-in visitor nor sign a visitor in. Scripts send no
 * Origin and pass. Page CSP is added per render by server/plugins/csp.ts.
 */
export default defineEventHandler((event) => {
  setSecurityHeaders(event)
  if (UNSAFE_METHODS.has(event.method) && isApiPath(routedPath(event))) refuseCrossSite(event)
})
