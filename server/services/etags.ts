import { createHash } from 'node:crypto'

/** Strong ETag of a serialised body. */
export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`
}

/**
 * The ETag of a compressed variant: the identity ETag with the encoding added
 * inside the quotes (`"abc"` → `"abc-br"`), so each encoding's bytes have
 * their own strong validator (a cache never mixes them up), while
 * `etagMatches` still knows it for the same content.
 */
export function variantEtag(etag: string, encoding: 'br' | 'gzip'): string {
  return etag.replace(/"$/, `-${encoding}"`)
}

/**
 * True when a validator the client sent (an `If-None-Match` or `If-Match`
 * entry) stands for `etag` in any encoding: the tag itself, weak or strong,
 * or one of its compressed variants.
 */
export function etagMatches(sent: string, etag: string): boolean {
  const tag = sent.trim().replace(/^W\//, '')
  return tag === etag || tag === variantEtag(etag, 'br') || tag === variantEtag(etag, 'gzip')
}

/** Whether an `If-Match` header value holds for the current ETag (`*`, or any entry matching it). */
export function ifMatchHolds(header: string, etag: string): boolean {
  return header.split(',').some(tag => tag.trim() === '*' || etagMatches(tag, etag))
}
