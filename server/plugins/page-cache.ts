import type { H3Event } from 'h3'
import { isCacheablePagePath, keepPage, keptPage, pageBeingRendered, renderingPage } from '../services/page-cache'

interface PageCacheContext {
  key: string
  version: string
  /** Headers set before the render (security headers, by the middleware): set again on every answer, not kept. */
  before: Set<string>
}

/**
 * Serves the public pages to visitors without a cookie from the page cache
 * (server/services/page-cache.ts), skipping the render, and keeps what they
 * render. A profile of the home page showed its time spread over Vue's
 * rendering of two dozen cards (53% of the busy time, no one function above
 * 2%) and the garbage it leaves (15%): nothing to trim, so the render is
 * reused instead. An answer from the cache says `X-Page-Cache: hit`.
 */
export default defineNitroPlugin((nitroApp) => {
  if (import.meta.dev) return
  nitroApp.hooks.hook('render:before', async (ctx) => {
    const { event } = ctx
    if (event.path.startsWith('/__nuxt_error')) return
    // Read for every render, and shared with its API calls, which read their lists at this
    // version too: with the database unreachable this throws, and the page is a 503 with
    // Retry-After (server/error-pages.ts), not a page of load errors.
    const version = await dataVersionOf(event)
    const key = cacheKey(event)
    if (!key || version === null) return
    const db = useDB()
    let page = keptPage(db, version, key)
    const rendering = page ? undefined : pageBeingRendered(db, version, key)
    if (rendering) {
      await rendering
      page = keptPage(db, version, key)
    }
    if (!page) {
      event.context.pageCache = { key, version, before: new Set(event.node.res.getHeaderNames()) } satisfies PageCacheContext
      event.node.res.once('close', renderingPage(db, version, key))
      return
    }
    event.context.keptAnswer = page.answer
    event.node.res.setHeader('X-Page-Cache', 'hit')
    ctx.response = { body: page.answer.json, statusCode: 200, headers: page.headers }
  })
  nitroApp.hooks.hook('render:response', (response, { event }) => {
    const cache = event.context.pageCache as PageCacheContext | undefined
    if (!cache || event.node.res.headersSent) return
    if ((response.statusCode ?? 200) !== 200 || typeof response.body !== 'string') return
    // A render that sets a cookie is this visitor's own.
    if (event.node.res.hasHeader('set-cookie')) return
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(event.node.res.getHeaders())) {
      if (value !== undefined && !cache.before.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : String(value)
    }
    for (const [name, value] of Object.entries(response.headers ?? {})) headers[name.toLowerCase()] = String(value)
    keepPage(useDB(), cache.version, cache.key, response.body, headers)
  })
})

/**
 * The cache key of a page GET that may use the cache: its path and query.
 * None for a request with a cookie or credentials, whose render may be its own.
 */
function cacheKey(event: H3Event): string | undefined {
  if (event.method !== 'GET') return undefined
  const { headers } = event.node.req
  if (headers.cookie !== undefined || headers.authorization !== undefined) return undefined
  const path = event.path
  const query = path.indexOf('?')
  return isCacheablePagePath(query === -1 ? path : path.slice(0, query)) ? path : undefined
}
