import { createError, defineEventHandler, sendNoContent, type EventHandler, type H3Event } from 'h3'
import { getRouteRulesForPath } from 'nitropack/runtime/internal/route-rules'
import type { RateLimitCategory } from '../utils/rate-limit'

/**
 * The hot routes: the public lists, whose answers the list cache keeps
 * (server/services/list-cache.ts), and casting or taking back a vote.
 */
const FAST_ROUTES: [method: 'GET' | 'POST' | 'DELETE', route: string][] = [
  ['GET', '/api/uploads'],
  ['GET', '/api/uploads/filtered'],
  ['GET', '/api/items-recent'],
  ['GET', '/api/items-top-voted'],
  ['GET', '/api/user/:username/uploads'],
  ['POST', '/api/vote'],
  ['DELETE', '/api/vote'],
]
const USER_LIST = /^\/api\/user\/([^/%]+)\/uploads$/

interface FastRoute {
  handler: EventHandler
  /** The rate-limit category a request of this route counts in (server/middleware/02.rate-limit.ts). */
  category: RateLimitCategory | null
}

/**
 * The hot routes skip Nitro's generic request pipeline. A profile of a
 * cached list answer showed most of its time outside our code: the request,
 * beforeResponse and afterResponse hooks (a console task each), the
 * route-rule lookup, the public-asset lookup, four middleware layers and the
 * router, each a promise of its own. Here one function does for these routes
 * exactly what that pipeline does for them, in the same order, so every
 * answer keeps its bytes and headers:
 *
 * 1. security headers, and the cross-site check of a write (middleware/01.security.ts),
 * 2. the rate limit, counted and its headers set (middleware/02.rate-limit.ts),
 * 3. a HEAD answered as the GET, a write's body JSON or none (middleware/03.api-method.ts;
 *    the method is one the route answers),
 * 4. the route's own handler, with its router params,
 * 5. ETag, Cache-Control, 304 with its refund, compression (`finishResponse`),
 * 6. the body written as h3 writes it.
 *
 * An error thrown on the way goes where the pipeline's errors go (h3's node
 * listener, then server/error.ts). Everything else takes the full pipeline:
 * other methods and paths, a path with a percent escape (routing decodes
 * it) or a trailing slash, requests this process makes to itself while
 * rendering a page, requests before start-up is done, and all requests while
 * a route rule applies to one of these routes or a `request`/`afterResponse`
 * hook is set.
 */
export default defineNitroPlugin((nitroApp) => {
  const app = nitroApp.h3App
  const pipeline = app.handler
  const routes = new Map<string, FastRoute>()
  for (const [method, route] of FAST_ROUTES) {
    const handler = routeHandler(route, method.toLowerCase())
    const rules = getRouteRulesForPath(route.replace(/:\w+/g, '_'))
    if (handler && Object.keys(rules).length === 0) routes.set(`${method} ${route}`, { handler, category: rateLimitCategory(method, route) })
  }
  const userList = routes.get('GET /api/user/:username/uploads')
  const hooks = (nitroApp.hooks as unknown as { _hooks: Record<string, unknown[] | undefined> })._hooks

  /** The route and params of a request the fast path answers, or undefined. */
  function fastRoute(event: H3Event): [FastRoute, Record<string, string>] | undefined {
    const req = event.node.req
    if (!isServerStarted() || (req as { __unenv__?: unknown }).__unenv__ !== undefined) return
    if (hooks.request?.length || hooks.afterResponse?.length) return
    const method = req.method === 'HEAD' ? 'GET' : req.method
    const url = req.url ?? '/'
    const queryAt = url.indexOf('?')
    const path = queryAt === -1 ? url : url.slice(0, queryAt)
    const route = routes.get(`${method} ${path}`)
    if (route) return [route, {}]
    const user = method === 'GET' && userList && USER_LIST.exec(path)
    if (user) return [userList, { username: user[1]! }]
  }

  async function serve(event: H3Event, route: FastRoute, params: Record<string, string>): Promise<void> {
    const req = event.node.req
    req.originalUrl ||= req.url
    setSecurityHeaders(event)
    const unsafe = UNSAFE_METHODS.has(event.method)
    if (unsafe) refuseCrossSite(event)
    if (route.category) await enforceRateLimit(event, route.category, clientIp(event))
    if (event.method === 'HEAD') {
      event._method = 'GET'
      req.method = 'GET'
    }
    if (unsafe && !isJsonOrEmpty(event)) throw apiError(415, 'Content-Type must be application/json')
    event.context.params = params
    const body = await route.handler(event) as unknown
    // Nitro's router is preemptive: a handler that returns nothing answers 204.
    const response = { body: body === undefined ? null : body }
    event._onBeforeResponseCalled = true
    // As Nitro runs the beforeResponse hook: a failure there is reported, the answer still goes out.
    await finishResponse(event, response).catch((error: unknown) => nitroApp.captureError(error as Error, { event, tags: ['request', 'response'] }))
    await send(event, response.body)
  }

  app.handler = defineEventHandler((event) => {
    const found = fastRoute(event)
    return found ? serve(event, ...found) : pipeline(event)
  })
})

/** Writes a handler's answer as h3 does (`handleHandlerResponse`) for what these handlers return. */
async function send(event: H3Event, body: unknown): Promise<void> {
  const res = event.node.res
  if (body === null) return sendNoContent(event)
  let data: string | Buffer
  let type: string | undefined
  if (typeof body === 'string') [data, type] = [body, 'text/html']
  else if (Buffer.isBuffer(body)) data = body
  else if (typeof body === 'object') [data, type] = [JSON.stringify(body), 'application/json']
  else throw createError({ statusCode: 500, statusMessage: `[h3] Cannot send ${typeof body} as response.` })
  if (type && res.statusCode !== 304 && !res.getHeader('content-type')) res.setHeader('content-type', type)
  if (!event.handled) res.end(data)
}
