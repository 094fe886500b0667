import type { H3Event } from 'h3'

/**
 * The request path as routing sees it: h3 percent-decodes the path (keeping
 * `%2F`) before it matches middleware and routes, so `/%61pi/auth` reaches the
 * `/api/auth` handler. Every "is this /api" decision uses this form, never the
 * raw URL, or an encoded spelling would slip past it. No query string.
 */
export function routedPath(event: H3Event): string {
  return (event.path || '/').split('?')[0]!
}

/** `/api` or anything under it. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/')
}

/** The server routes that are documents for programs, not pages: feeds, sitemaps, robots.txt. */
export function isDocumentPath(path: string): boolean {
  return /^\/(?:feeds\/|sitemaps\/|sitemap\.xml$|robots\.txt$)/.test(path)
}
