import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import type { LookupFunction } from 'node:net'
import { createWriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { isIP } from 'node:net'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import ipaddr from 'ipaddr.js'

/**
 * True for a globally routable unicast address. Loopback, private, link-local
 * (incl. the 169.254.169.254 metadata address), CGNAT, multicast, unspecified,
 * broadcast, reserved, unique-local and the IPv6 ranges that embed IPv4
 * (6to4, Teredo, NAT64) are refused; IPv4-mapped IPv6 is judged as its IPv4.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  const parsed = ipaddr.process(address)
  return parsed.range() === 'unicast'
}

export interface FetchImageOptions {
  /** NUXT_IMAGE_FETCH_ALLOW_PRIVATE: lifts the address check only. */
  allowPrivate?: boolean
  /** The address policy (isPublicAddress unless the private ranges are allowed). */
  isAllowedAddress?: (address: string) => boolean
  maxBytes: number
  maxRedirects?: number
  timeoutMs?: number
}

/** Why a fetch failed (logged, never sent to the client). */
export class ImageFetchError extends Error {}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/**
 * Downloads `address` into `destination` without ever connecting to a refused
 * address: every hop's URL is checked (http/https), its host resolved once and
 * every resolved address checked, and the connection goes to a checked address
 * (no second DNS answer can differ). At most `maxRedirects` hops, `timeoutMs`
 * for everything, and the body is cut off past `maxBytes` while streaming.
 */
export async function fetchImageToFile(address: string, destination: string, options: FetchImageOptions): Promise<{ finalUrl: string, bytes: number }> {
  const allowed = options.isAllowedAddress ?? (options.allowPrivate ? (a: string) => ipaddr.isValid(a) : isPublicAddress)
  const signal = AbortSignal.timeout(options.timeoutMs ?? 10_000)
  // Loaded on the first fetch, not at start-up: undici was the largest module a server loaded.
  const { Agent, request } = await import('undici')
  const agent = new Agent({ connect: { lookup: checkedLookup(allowed) }, connections: 1, pipelining: 0 })
  try {
    let url = parseHttpUrl(address)
    for (let hop = 0; ; hop++) {
      const host = url.hostname.replace(/^\[|\]$/g, '')
      if (isIP(host) && !allowed(host)) throw new ImageFetchError(`refused address ${host}`)
      const response = await request(url, {
        dispatcher: agent,
        method: 'GET',
        signal,
        headers: { 'accept': 'image/*', 'user-agent': 'DoesItFuck-ImageFetcher/1.0' },
      })
      if (REDIRECTS.has(response.statusCode)) {
        await response.body.dump().catch(() => {})
        const location = response.headers.location
        if (typeof location !== 'string') throw new ImageFetchError('redirect without location')
        if (hop >= (options.maxRedirects ?? 3)) throw new ImageFetchError('too many redirects')
        url = parseHttpUrl(new URL(location, url).href)
        continue
      }
      if (response.statusCode < 200 || response.statusCode > 299) {
        await response.body.dump().catch(() => {})
        throw new ImageFetchError(`status ${response.statusCode}`)
      }
      const declared = Number(response.headers['content-length'])
      if (declared > options.maxBytes) {
        response.body.on('error', () => {}).destroy()
        throw new ImageFetchError('declared length over the cap')
      }
      const bytes = await streamCapped(response.body, destination, options.maxBytes)
      return { finalUrl: url.href, bytes }
    }
  }
  catch (error) {
    await rm(destination, { force: true })
    throw error instanceof ImageFetchError ? error : new ImageFetchError(String((error as Error)?.message ?? error), { cause: error })
  }
  finally {
    agent.destroy().catch(() => {})
  }
}

function parseHttpUrl(address: string): URL {
  let url: URL
  try {
    url = new URL(address)
  }
  catch {
    throw new ImageFetchError('invalid URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ImageFetchError('scheme not allowed')
  if (url.username || url.password) throw new ImageFetchError('credentials in URL')
  return url
}

/** A dns.lookup for net.connect that refuses a host when any of its addresses is refused. */
function checkedLookup(allowed: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : Number(options.family) || 0
    dnsLookup(hostname, { all: true, family }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '')
      if (addresses.length === 0 || addresses.some(entry => !allowed(entry.address))) {
        return callback(Object.assign(new ImageFetchError(`refused address for ${hostname}`), { code: 'EADDRREFUSED' }), '')
      }
      // net.connect asks for every address (`all`) when it may try both families.
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses)
      callback(null, addresses[0]!.address, addresses[0]!.family)
    })
  }
}

async function streamCapped(body: Readable, destination: string, maxBytes: number): Promise<number> {
  let bytes = 0
  await pipeline(
    body,
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        bytes += chunk.length
        if (bytes > maxBytes) throw new ImageFetchError('body over the cap')
        yield chunk
      }
    },
    createWriteStream(destination, { flags: 'wx' }),
  )
  return bytes
}
