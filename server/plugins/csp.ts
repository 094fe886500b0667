import { randomBytes } from 'node:crypto'

/** Origins the rich embeds of shared/utils/embeds.ts load their players from. */
const EMBED_ORIGINS = [
  'https://www.youtube-nocookie.com', 'https://www.youtube.com', 'https://player.vimeo.com',
  'https://platform.twitter.com', 'https://www.tiktok.com', 'https://www.instagram.com', 'https://open.spotify.com',
]

/**
 * A Content-Security-Policy on every rendered page, with a per-response nonce
 * on Nuxt's inline scripts so no 'unsafe-inline' script is allowed.
 */
export default defineNitroPlugin((nitroApp) => {
  if (import.meta.dev) return
  nitroApp.hooks.hook('render:html', (html, { event }) => {
    const nonce = randomBytes(16).toString('base64')
    const addNonce = (chunk: string) => chunk.replace(/<script(?![^>]*\bnonce=)/g, `<script nonce="${nonce}"`)
    for (const part of ['head', 'bodyPrepend', 'body', 'bodyAppend'] as const) html[part] = html[part].map(addNonce)
    event.node.res.setHeader('Content-Security-Policy', [
      `default-src 'self'`,
      `script-src 'self' 'nonce-${nonce}'`,
      `style-src 'self' 'unsafe-inline'`,
      `img-src 'self' data: blob: https:`,
      `connect-src 'self'`,
      `frame-src ${EMBED_ORIGINS.join(' ')}`,
      `object-src 'none'`,
      `base-uri 'self'`,
      `form-action 'self'`,
      `frame-ancestors 'none'`,
    ].join('; '))
  })
})
