import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { H3Event } from 'h3'
import { getResponseHeader, getResponseStatus, setResponseHeader } from 'h3'
import { variantEtag } from '../services/etags'
import type { SerialisedAnswer } from './http-cache'
import { isInProcessRequest } from './in-process'
import { requestHeader } from './request-header'

export type ContentEncoding = 'br' | 'gzip'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Below this many bytes compression saves too little to be worth a header and a CPU slice. */
export const MIN_COMPRESS_BYTES = 1024

/** Types worth compressing: HTML, JSON (and feeds), JS, CSS, SVG, text. Images and media are compressed already. */
const COMPRESSIBLE = /^(text\/|application\/(json|[\w.+-]+\+json|javascript|xml|[\w.+-]+\+xml)|image\/svg\+xml)/i

export function isCompressibleType(contentType: string | undefined): boolean {
  return Boolean(contentType && COMPRESSIBLE.test(contentType))
}

/**
 * The encoding to answer with, from an Accept-Encoding value (RFC 9110 12.5.3):
 * brotli before gzip, an encoding with q=0 is refused, `*` stands for the rest.
 */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding | null {
  if (!acceptEncoding) return null
  const weights = new Map<string, number>()
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    if (!name) continue
    const q = params.map(p => p.trim()).find(p => p.startsWith('q='))
    const weight = q ? Number(q.slice(2)) : 1
    weights.set(name, Number.isFinite(weight) ? weight : 0)
  }
  const weightOf = (name: string) => weights.get(name) ?? (name === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0
  const candidates = (['br', 'gzip'] as const).filter(name => weightOf(name) > 0)
  candidates.sort((a, b) => weightOf(b) - weightOf(a))
  return candidates[0] ?? null
}

export { etagMatches, variantEtag } from '../services/etags'

/** Adds `Accept-Encoding` to the response's Vary once. */
export function varyOnAcceptEncoding(event: H3Event): void {
  const current = String(getResponseHeader(event, 'vary') ?? '')
  const names = current.split(',').map(name => name.trim().toLowerCase()).filter(Boolean)
  if (names.includes('accept-encoding') || names.includes('*')) return
  setResponseHeader(event, 'Vary', current ? `${current}, Accept-Encoding` : 'Accept-Encoding')
}

/**
 * Brotli's quality for a body compressed once and sent many times (a kept
 * list answer or page), and for one compressed for every answer (a page
 * rendered for a signed-in visitor). On the home page at 48 uploads a page
 * (278 KB of HTML) quality 5 took 4.5 ms for 22.4 KB, quality 4 2.4 ms for
 * 24.4 KB; with the payload's answers as JSON text (281 KB, packing better),
 * quality 4 took 2.0–2.5 ms for 21.7 KB and quality 3 1.3–1.45 ms for
 * 22.6 KB: on a render the client waits for, a third of the time is worth 4%
 * more bytes. 11 is for build time.
 */
const BROTLI_QUALITY = { kept: 5, perAnswer: 3 } as const

export function compressBody(body: Buffer | string, encoding: ContentEncoding, use: keyof typeof BROTLI_QUALITY = 'perAnswer'): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[use], [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } })
    : gzipAsync(body, { level: 6 })
}

/**
 * Runs last before a response is sent (server/plugins/http-cache): compresses a
 * rendered page or an /api JSON answer with brotli or gzip when the client
 * accepts one, and marks every response of a compressible type with
 * `Vary: Accept-Encoding`.
 *
 * Left alone: bodies that are not a string (public assets come precompressed
 * from the build, with their own ETags; images are compressed already and
 * /api/image/** is never touched), bodies under 1 KB, and anything but GET and
 * HEAD: answers to writes can carry secrets next to what the client sent (a
 * new API token, an MFA secret), the mix BREACH reads through compressed sizes.
 */
export async function compressResponse(event: H3Event, response: { body?: unknown }): Promise<void> {
  if (event.path.startsWith('/api/image/')) return
  // Answers this process asked itself for are read by our own code, not a client: Nuxt's
  // error handler renders /__nuxt_error in-process with the visitor's headers and reads
  // the body as text, which a compressed body would garble.
  if (event.path.startsWith('/__nuxt_error') || isInProcessRequest(event)) return
  const type = getResponseHeader(event, 'content-type')
  if (!isCompressibleType(type === undefined ? undefined : String(type))) return
  varyOnAcceptEncoding(event)
  const body = response.body
  // A string's UTF-8 bytes are at least its UTF-16 units: only a short string is measured (scanning a
  // 270 KB page for its byte length was 1.5% of its render).
  if (typeof body !== 'string' || (body.length < MIN_COMPRESS_BYTES && Buffer.byteLength(body) < MIN_COMPRESS_BYTES)) return
  if (event.method !== 'GET' && event.method !== 'HEAD') return
  if (getResponseStatus(event) !== 200 || getResponseHeader(event, 'content-encoding')) return
  const encoding = negotiateEncoding(requestHeader(event, 'accept-encoding'))
  if (!encoding) return
  const kept = event.context.keptAnswer as SerialisedAnswer | undefined
  if (kept?.compressed && kept.json === body) response.body = kept.compressed[encoding] ??= await compressBody(body, encoding, 'kept')
  else response.body = await compressBody(body, encoding)
  setResponseHeader(event, 'Content-Encoding', encoding)
  // The compressed length: without it Node sent these bytes chunked (and a replay of the
  // same answer with its length), where every other answer carries one.
  setResponseHeader(event, 'Content-Length', (response.body as Buffer).length)
  const etag = getResponseHeader(event, 'etag')
  if (etag) setResponseHeader(event, 'ETag', variantEtag(String(etag), encoding))
}
