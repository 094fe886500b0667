import type { H3Event } from 'h3'
import { getRequestURL } from 'h3'
import { requestHeader } from './request-header'
import { settingOn } from './settings'

/**
 * The checks every request passes before its handler, shared by the
 * middleware (server/middleware/01.security.ts, 03.api-method.ts) and the
 * fast path (server/plugins/api-fast-path.ts), which runs them itself.
 */

/** Headers every answer carries, as name, value, name, value (the form `res.writeHead` takes). */
export const SECURITY_HEADERS: readonly string[] = [
  'X-Content-Type-Options', 'nosniff',
  'Referrer-Policy', 'strict-origin-when-cross-origin',
  'X-Frame-Options', 'DENY',
]

export function setSecurityHeaders(event: H3Event): void {
  const res = event.node.res
  for (let i = 0; i < SECURITY_HEADERS.length; i += 2) res.setHeader(SECURITY_HEADERS[i]!, SECURITY_HEADERS[i + 1]!)
}

export const UNSAFE_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

/**
 * The cross-site check (docs/behaviour.md, Cross-site requests) of an unsafe
 * /api request: one whose Origin is present and not ours is refused (403).
 */
export function refuseCrossSite(event: H3Event): void {
  const origin = requestHeader(event, 'origin')
  if (origin !== undefined && !isOwnOrigin(event, origin)) throw forbidden('Cross-site request blocked')
}

/** The site's configured origin, or the origin this request was addressed to (a browser sets Host itself). */
function isOwnOrigin(event: H3Event, origin: string): boolean {
  const config = useRuntimeConfig()
  const site = new URL(config.public.siteUrl).origin
  const trustProxy = settingOn(config.trustProxy)
  const requested = getRequestURL(event, { xForwardedHost: trustProxy, xForwardedProto: trustProxy }).origin
  return origin === site || origin === requested
}

/**
 * Whether a route takes a body other than JSON (else anything but an empty or JSON body is
 * a 415, so no simple cross-site form reaches it): a multipart route's form, or any body at
 * all where the route reads none and the method is one no HTML form sends (PATCH, PUT,
 * DELETE: the privacy toggle's body is ignored, as the interface says). A POST that reads
 * no body (sign-out) still refuses a form's. `body` is the route record's.
 */
export function bodyIgnored(method: string, body: 'none' | 'json' | 'multipart' | undefined): boolean {
  return body === 'multipart' || (body === 'none' && method !== 'POST')
}

/** A JSON body, or none at all (no Content-Type and nothing to read). */
export function isJsonOrEmpty(event: H3Event): boolean {
  const type = requestHeader(event, 'content-type')
  if (type !== undefined) return isJsonType(type)
  const length = requestHeader(event, 'content-length')
  return requestHeader(event, 'transfer-encoding') === undefined && (length === undefined || Number(length) === 0)
}

/**
 * `application/json`, in UTF-8: the body is read as UTF-8 (server/utils/validation.ts),
 * so a charset other than UTF-8 is refused like another type rather than read as
 * UTF-8 anyway (`charset=latin1` turned é into U+FFFD in what was stored).
 * `utf8` is a label of UTF-8 too (WHATWG Encoding).
 */
export function isJsonType(type: string): boolean {
  const [essence, ...parameters] = type.split(';')
  if (essence!.trim().toLowerCase() !== 'application/json') return false
  return parameters.every((parameter) => {
    const at = parameter.indexOf('=')
    if (parameter.slice(0, at).trim().toLowerCase() !== 'charset') return true
    const charset = parameter.slice(at + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase()
    return charset === 'utf-8' || charset === 'utf8'
  })
}
