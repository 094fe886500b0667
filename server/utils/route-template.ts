// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- declares Nitro virtual modules for every tsconfig that includes this file
/// <reference path="../types/nitro-virtual.d.ts" />
import type { H3Event } from 'h3'
import { handlers } from '#nitro-internal-virtual/server-handlers'
import pageRoutes from '#page-routes'

/** The one label of every request no route or page answers: paths a client makes up never become label values. */
export const UNMATCHED_ROUTE = 'unmatched'
/** Build assets and public files, served before routing. */
const STATIC_ROUTE = 'static'

/**
 * The route a request was answered by, as its pattern with the parameters
 * named as in the file names (`/api/upload/[id]`, `/user/[username]`), for
 * request logs and metrics: never the path itself, whose ids and names have
 * no bound. The router's match when it ran (`event.context.matchedRoute`),
 * else, for a request answered before routing (a middleware's 401, 403 or
 * 429) or by the page renderer (Nitro's `/**`), the first route or page whose
 * pattern fits the path. A catch-all (unknown /api paths) and a path nothing
 * fits are `unmatched`.
 */
export function routeTemplate(event: H3Event, status: number): string {
  const matched = (event.context.matchedRoute as { path?: string } | undefined)?.path
  if (matched !== undefined && !matched.includes('**')) return templateOf(matched)
  const url = event.node.req.url ?? '/'
  const queryAt = url.indexOf('?')
  const path = queryAt === -1 ? url : url.slice(0, queryAt)
  if (matched === undefined && status < 400 && !isApiOrPage(path)) return STATIC_ROUTE
  return lookup(path)
}

/** `/api/upload/:id` → `/api/upload/[id]`, `/upload/:id()` → `/upload/[id]`, `/:slug(.*)*` → `/[...slug]`. */
export function templateOf(route: string): string {
  let template = templates.get(route)
  if (template === undefined) {
    template = route.replace(/:(\w+)\(\.\*\)\*/g, '[...$1]').replace(/:(\w+)(\(\))?/g, '[$1]')
    templates.set(route, template)
  }
  return template
}

/** One entry per route of the build: bounded. */
const templates = new Map<string, string>()

let table: { pattern: RegExp, template: string }[] | undefined

/** API and web routes first (static segments before parameters), then the pages. */
function routeTable() {
  if (table) return table
  const routes = [...new Set(handlers.filter(h => h.route && !h.middleware && !h.route.includes('**')).map(h => h.route!))]
  // `/api/upload/new-thing` before `/api/upload/:id`: fewer parameters first.
  routes.sort((a, b) => (a.match(/:/g)?.length ?? 0) - (b.match(/:/g)?.length ?? 0))
  const pages = [...pageRoutes].sort((a, b) => (a.match(/:/g)?.length ?? 0) - (b.match(/:/g)?.length ?? 0))
  table = [...routes, ...pages].map(route => ({ pattern: patternOf(route), template: templateOf(route) }))
  return table
}

function patternOf(route: string): RegExp {
  const source = route.split('/').map((segment) => {
    if (/^:\w+\(\.\*\)\*$/.test(segment)) return '.*'
    if (segment.startsWith(':')) return '[^/]+'
    return segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
  }).join('/')
  return new RegExp(`^${source}/?$`)
}

function lookup(path: string): string {
  for (const { pattern, template } of routeTable()) {
    if (pattern.test(path)) return template
  }
  return UNMATCHED_ROUTE
}

/** Build assets are under /_nuxt/, public files have a dot in their last segment; the rest is the API or a page. */
function isApiOrPage(path: string): boolean {
  if (path.startsWith('/_nuxt/')) return false
  return !path.slice(path.lastIndexOf('/')).includes('.')
}
