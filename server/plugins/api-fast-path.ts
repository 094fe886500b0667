import { createError, defineEventHandler, sendNoContent, type EventHandler, type H3Event } from 'h3'
import type { IncomingMessage } from 'node:http'
import { VersionedMap } from '../services/versioned-map'
import { countListLookup } from '../services/metrics'
import { categoryByAddress, hasSessionCookie, type RateLimitCategory } from '../utils/rate-limit'
import { hasRequestHooks, hasRouteRules, markBeforeResponseDone, nitroInternalsProblem, treatAsGet } from '../utils/nitro-internals'

interface FastRoute {
  handler: EventHandler
  /** The route's template in request logs and metrics (server/utils/route-template.ts). */
  template: string
  /** The rate-limit category a request of this route counts in here, as in server/middleware/02.rate-limit.ts (null: not counted, or counted by its handler). */
  category: (event: H3Event) => RateLimitCategory | null
  /** A list, whose answers may be kept as sent (`replays`). */
  list: boolean
  /** Any body is ignored (request-guards.ts' bodyIgnored), else only JSON or none passes. */
  bodyIgnored: boolean
}

/** A route with a parameter (one path segment, no percent escape): matched by `pattern`, the segment named `param`. */
interface ParamRoute {
  method: string
  route: FastRoute
  pattern: RegExp
  param: string
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
 * A list GET without credentials, cookie or validator whose answer came from
 * the list cache is also kept as it was sent (`replays`, under the data
 * version it was answered at); the same request after steps 1 and 2 and a
 * read of the data version is answered with it. A perf profile of cached
 * lists under wrk put a sixth of the time in steps 3 to 5 and in encoding the
 * JSON to UTF-8 for the socket, all repeated for the same bytes: replaying
 * raised a cached list from 32,000 to 42,000 req/s on this 2-core machine.
 * A replay writes all its headers with one `writeHead` (X-Request-Id,
 * security, rate limit, the kept ones and Content-Length), not one `setHeader` each: the
 * profile put header names' validation and lower-casing at about 4%.
 *
 * Every request, whichever way it is answered, gets its request id, log line
 * and metrics here first (server/utils/request-observer.ts); X-Request-Id is
 * the first header of every answer, as on the pipeline.
 *
 * An error thrown on the way goes where the pipeline's errors go (h3's node
 * listener, then server/error.ts). Everything else takes the full pipeline:
 * other methods and paths, a path with a percent escape (routing decodes
 * it) or a trailing slash, requests before start-up is done, and all requests
 * while a route rule applies to one of these routes or a `request`/
 * `afterResponse` hook is set. A page's reads of these routes while it renders
 * (in-process, see server/utils/in-process.ts) take the fast path too, not
 * counted against a rate limit as in the pipeline.
 *
 * NUXT_API_FAST_PATH=false turns it off: every request takes the pipeline
 * (the answers are the same; the test suite runs its SQLite e2e project so).
 * It is also off, with a warning at start, when a private part of Nitro or h3
 * it uses is not as expected (server/utils/nitro-internals.ts).
 */
export default defineNitroPlugin((nitroApp) => {
  const app = nitroApp.h3App
  const pipeline = app.handler
  const routes = new Map<string, FastRoute>()
  const paramRoutes: ParamRoute[] = []
  const problem = nitroInternalsProblem(nitroApp)
  if (problem) console.warn(`[fast-path] off: ${problem}; every request takes Nitro's pipeline`)
  const enabled = settingOn(useRuntimeConfig().apiFastPath) && !problem
  // The hot routes, whose records say `fast` (server/utils/route-table.ts): the public lists,
  // whose answers the list cache keeps (server/services/list-cache.ts), the pictures every card
  // asks for, and the writes held to a minimal twin (docs/performance.md, "The writes, each
  // against its minimal write"): a vote cast or taken back, signed in or not, a favourite, a
  // comment and its vote, an upload's edit, a duel's judgement.
  for (const { method, route, fast: hot, body } of enabled ? ROUTE_TABLE : []) {
    if (!hot) continue
    const handler = routeHandler(route, method.toLowerCase())
    if (!handler || hasRouteRules(route.replace(/:\w+/g, '_'))) continue
    const fast: FastRoute = { handler, template: templateOf(route), category: categoryOf(method, route), list: hot.list, bodyIgnored: bodyIgnored(method, body) }
    routes.set(`${method} ${route}`, fast)
    const param = route.match(/:(\w+)/)?.[1]
    if (param) paramRoutes.push({ method, route: fast, param, pattern: new RegExp(`^${route.replace(`:${param}`, '([^/%]+)')}$`) })
  }

  /** The route and params of a request the fast path answers, or undefined. */
  function fastRoute(event: H3Event): [FastRoute, Record<string, string>] | undefined {
    const req = event.node.req
    if (!isServerStarted()) return
    if (routes.size === 0 || hasRequestHooks(nitroApp)) return
    const method = req.method === 'HEAD' ? 'GET' : req.method
    const url = req.url ?? '/'
    const queryAt = url.indexOf('?')
    const path = queryAt === -1 ? url : url.slice(0, queryAt)
    const route = routes.get(`${method} ${path}`)
    if (route) return [route, {}]
    for (const paramRoute of paramRoutes) {
      const found = paramRoute.method === method && paramRoute.pattern.exec(path)
      if (found) return [paramRoute.route, { [paramRoute.param]: found[1]! }]
    }
  }

  async function serve(event: H3Event, route: FastRoute, params: Record<string, string>): Promise<void> {
    const req = event.node.req
    const res = event.node.res
    req.originalUrl ||= req.url
    // A page's own read is never kept or replayed: its answer goes to the render, not to a client.
    const replayKey = route.list && !isInProcessRequest(event) ? replayKeyOf(req) : undefined
    const unsafe = UNSAFE_METHODS.has(event.method)
    let version: string | null = null
    const requestId = requestIdOf(event)
    if (replayKey === undefined) {
      if (requestId) res.setHeader('X-Request-Id', requestId)
      setSecurityHeaders(event)
      if (unsafe) refuseCrossSite(event)
      const category = route.category(event)
      if (category) await enforceRateLimit(event, category, clientIp(event))
    }
    else {
      // Counted first and its headers written with the kept ones in one `writeHead`: a replay sets no header one by one.
      const category = route.category(event)
      const count = category ? await countRateLimit(event, category, clientIp(event)) : null
      if (!count?.limited) {
        // The handler's cached list reads at the same version (a cache miss costs no second read).
        version = await dataVersionOf(event)
        const kept = version === null ? undefined : replays.get(version, replayKey)
        if (kept) {
          countListLookup(true)
          res.writeHead(200, ['X-Request-Id', requestId!, ...SECURITY_HEADERS, ...(count ? rateLimitHeaders(count) : []), ...kept.headers])
          res.end(kept.body)
          return
        }
      }
      res.setHeader('X-Request-Id', requestId!)
      setSecurityHeaders(event)
      if (count) applyRateLimit(event, count)
    }
    const headersBefore = version === null ? 0 : res.getHeaderNames().length
    if (event.method === 'HEAD') treatAsGet(event)
    if (unsafe && !route.bodyIgnored && !isJsonOrEmpty(event)) throw apiError(415, 'Content-Type must be application/json')
    event.context.params = params
    const body = await route.handler(event) as unknown
    // Nitro's router is preemptive: a handler that returns nothing answers 204.
    const response = { body: body === undefined ? null : body }
    markBeforeResponseDone(event)
    // As Nitro runs the beforeResponse hook: a failure there is reported, the answer still goes out.
    await finishResponse(event, response).catch((error: unknown) => nitroApp.captureError(error as Error, { event, tags: ['request', 'response'] }))
    await send(event, response.body)
    // A list-cache answer, as sent, for the next request with the same URL and Accept-Encoding at this version.
    if (version !== null && res.statusCode === 200 && event.context.keptAnswer && (typeof response.body === 'string' || Buffer.isBuffer(response.body))) {
      // Names as they were set (the wire keeps their case); Node has this on every outgoing message, its types on requests only.
      const names = (res as unknown as { getRawHeaderNames: () => string[] }).getRawHeaderNames().slice(headersBefore)
        .filter(name => name.toLowerCase() !== 'content-length')
      // As bytes: a string body would be encoded to UTF-8 again on every write.
      const body = typeof response.body === 'string' ? Buffer.from(response.body) : response.body
      // `end` added Content-Length after Date and Connection; a replay sends it with the others.
      const headers = [...names.flatMap((name) => {
        const value = res.getHeader(name)!
        return [name, Array.isArray(value) ? value : String(value)]
      }), 'Content-Length', String(body.length)]
      // The answer is sent: a version that cannot be read now only means it is not kept.
      // Read at once, not with the turn's other readers: the client may ask again before then.
      if (await useDB().dataVersion('now').catch(() => null) === version) replays.set(version, replayKey!, { headers, body })
    }
  }

  app.handler = defineEventHandler((event) => {
    const found = fastRoute(event)
    // Every request a client sends is logged and counted, whichever way it is answered.
    const requestId = observeRequest(event, found?.[0].template)
    if (found) return serve(event, ...found)
    if (requestId) event.node.res.setHeader('X-Request-Id', requestId)
    return pipeline(event)
  })
})

/**
 * The rate-limit category of a route's requests, as the middleware takes it
 * (`categoryByAddress`), looked up once: a category that depends on whether the
 * caller is signed in (a judgement) is then told by the session cookie.
 */
function categoryOf(method: string, route: string): (event: H3Event) => RateLimitCategory | null {
  const visitor = categoryByAddress(method, route, () => false)
  const signedIn = categoryByAddress(method, route, () => true)
  if (visitor === signedIn) return () => visitor
  return event => hasSessionCookie(event) ? signedIn : visitor
}

/**
 * The cache key of a request whose answer may be replayed: a GET of a list
 * with no credentials, cookie or validator, keyed by its URL and
 * Accept-Encoding as sent. Its answer depends on nothing else: no caller (so
 * no hidden tags), the query is part of the URL, and the encoding is chosen
 * from Accept-Encoding alone.
 */
function replayKeyOf(req: IncomingMessage): string | undefined {
  if (req.method !== 'GET') return undefined
  const { headers } = req
  if (headers.cookie !== undefined || headers.authorization !== undefined || headers['if-none-match'] !== undefined) return undefined
  return `${req.url}\n${headers['accept-encoding'] ?? ''}`
}

interface Replay {
  /** The headers set after the rate limit, then Content-Length, as name, value, name, value. */
  headers: (string | string[])[]
  body: Buffer
}

/**
 * List answers as they were sent (the headers set after the rate limit, in
 * order, and the body), kept under the data version they were answered at,
 * so a repeated request skips validation, the list cache lookup, the ETag and
 * encoding steps and the header writes one by one. At most 1000; all are
 * dropped when the data version moves.
 */
const replays = new VersionedMap<Replay>(1000)

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
