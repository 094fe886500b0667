import type { H3Event } from 'h3'
import ipaddr from 'ipaddr.js'
import { requestHeader } from './request-header'
import { settingOn } from './settings'

/**
 * The client's key for rate limits and anonymous-vote hashes: its address in
 * one canonical spelling (see `clientAddressKey`). `X-Forwarded-For` is
 * believed only when NUXT_TRUST_PROXY is true (left-most entry); otherwise the
 * socket address, so a spoofed header cannot pick a fresh rate-limit bucket.
 */
export function clientIp(event: H3Event): string {
  return clientAddressKey({
    socketAddress: event.node.req.socket?.remoteAddress,
    forwardedFor: requestHeader(event, 'x-forwarded-for'),
    trustProxy: settingOn(useRuntimeConfig().trustProxy),
  })
}

/**
 * One key per client however its address is spelled: IPv4 in dotted decimal
 * (an IPv4-mapped IPv6 address is its IPv4), IPv6 grouped by its /64 (one
 * subscriber's network, which holds countless addresses) as `<prefix>::/64`.
 * Under a trusted proxy the left-most forwarded entry is used when it is a
 * valid address; anything else there (junk, `unknown`, a leading-zero octet
 * that could be read as octal) is ignored and the socket address counts.
 */
export function clientAddressKey(input: { socketAddress?: string, forwardedFor?: string, trustProxy: boolean }): string {
  if (input.trustProxy) {
    const forwarded = canonicalAddress(input.forwardedFor?.split(',')[0] ?? '')
    if (forwarded) return forwarded
  }
  return canonicalAddress(input.socketAddress ?? '') ?? 'unknown'
}

/**
 * The canonical key of one address spelling, or null when it is not an address.
 * Accepts `5.6.7.8`, `5.6.7.8:1234`, `[2001:db8::1]`, `[2001:db8::1]:443`,
 * `::ffff:5.6.7.8`, `::ffff:506:708` and a zone suffix (`fe80::1%eth0`).
 */
export function canonicalAddress(spelling: string): string | null {
  const known = canonicalSpellings.get(spelling)
  if (known !== undefined) return known
  // Few distinct spellings reach one instance at a time; forget them all when there are many.
  if (canonicalSpellings.size >= CANONICAL_SPELLINGS_MAX) canonicalSpellings.clear()
  const key = parseAddress(spelling)
  canonicalSpellings.set(spelling, key)
  return key
}

/** Parsing with ipaddr.js costs more than the rest of a cached list request: each spelling is parsed once. */
const canonicalSpellings = new Map<string, string | null>()
const CANONICAL_SPELLINGS_MAX = 10_000

function parseAddress(spelling: string): string | null {
  const text = withoutPort(spelling.trim())
  if (text.includes(':')) {
    if (!ipaddr.IPv6.isValid(text)) return null
    // An embedded IPv4 part follows the IPv4 rule (no leading zeros).
    const embedded = /:(\d[\d.]*)$/.exec(text)?.[1]
    if (embedded?.includes('.') && !ipaddr.IPv4.isValidFourPartDecimal(embedded)) return null
    const address = ipaddr.IPv6.parse(text)
    if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString()
    const parts = address.parts.slice(0, 4).concat([0, 0, 0, 0])
    return `${new ipaddr.IPv6(parts).toString()}/64`
  }
  return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text).toString() : null
}

/** `[v6]:port` → `v6`, `[v6]` → `v6`, `a.b.c.d:port` → `a.b.c.d`; anything else unchanged. */
function withoutPort(text: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text)
  if (bracketed) return bracketed[1]!
  const v4WithPort = /^([\d.]+):\d{1,5}$/.exec(text)
  return v4WithPort ? v4WithPort[1]! : text
}
