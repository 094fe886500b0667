import { createHash } from 'node:crypto'
import type { H3Event } from 'h3'

/** Origins the rich embeds of shared/utils/embeds.ts load their players from. */
const EMBED_ORIGINS = [
  'https://www.youtube-nocookie.com', 'https://www.youtube.com', 'https://player.vimeo.com',
  'https://platform.twitter.com', 'https://www.tiktok.com', 'https://www.instagram.com', 'https://open.spotify.com',
]

/** An inline `<script>` element of a rendered page: its attributes and its text. */
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi
/** Script types a browser runs (HTML "JavaScript MIME type essence match", plus module); others are data blocks. */
const RUN_TYPE = /^(?:module|(?:text|application)\/(?:x-)?(?:java|ecma)script|text\/jscript|text\/livescript)$/i
const TYPE_ATTRIBUTE = /\btype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i

/**
 * The CSP hash sources of the scripts a page runs inline (`'sha256-…'` of each
 * text, as CSP hashes it). Scripts with `src` are our own files, allowed by
 * 'self'; data blocks (the JSON payload) are never run and need none.
 */
export function inlineScriptHashes(chunks: string[]): string[] {
  const hashes = new Set<string>()
  for (const chunk of chunks) {
    for (const [, attributes = '', text = ''] of chunk.matchAll(INLINE_SCRIPT)) {
      if (/\bsrc\s*=/i.test(attributes)) continue
      const type = attributes.match(TYPE_ATTRIBUTE)
      const value = (type?.[1] ?? type?.[2] ?? type?.[3] ?? '').trim()
      if (value && !RUN_TYPE.test(value)) continue
      hashes.add(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`)
    }
  }
  return [...hashes]
}

/**
 * A page's Content-Security-Policy: scripts are our own files and the inline
 * scripts of `hashes` only. Hashes rather than a per-response nonce keep the
 * page's bytes the same for every visitor, so a rendered page can be cached
 * (server/services/page-cache.ts), as a hash-based strict CSP is meant for.
 */
export function setPageContentSecurityPolicy(event: H3Event, hashes: string[]): void {
  event.node.res.setHeader('Content-Security-Policy', [
    `default-src 'self'`,
    `script-src 'self'${hashes.map(hash => ` ${hash}`).join('')}`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' data: blob: https:`,
    `connect-src 'self'`,
    `frame-src ${EMBED_ORIGINS.join(' ')}`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self'`,
    `frame-ancestors 'none'`,
  ].join('; '))
}
