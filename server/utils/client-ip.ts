import type { H3Event } from 'h3'
import { getRequestHeader } from 'h3'

/**
 * The client's IP. `X-Forwarded-For` is believed only when NUXT_TRUST_PROXY
 * is true (left-most entry); otherwise the socket address, so a spoofed header
 * cannot pick a fresh rate-limit bucket.
 */
export function clientIp(event: H3Event): string {
  if (useRuntimeConfig().trustProxy) {
    const forwarded = getRequestHeader(event, 'x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return normaliseIp(forwarded)
  }
  return normaliseIp(event.node.req.socket?.remoteAddress ?? 'unknown')
}

function normaliseIp(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip.toLowerCase()
}
