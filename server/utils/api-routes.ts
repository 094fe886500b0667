// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- declares a Nitro virtual module for every tsconfig that includes this file
/// <reference path="../types/nitro-virtual.d.ts" />
import { lazyEventHandler, type EventHandler } from 'h3'
import { handlers } from '#nitro-internal-virtual/server-handlers'

let routes: { pattern: RegExp, methods: Set<string> }[] | undefined

/** Every API route (as a pattern) with the methods it answers, from Nitro's own route table. */
function apiRoutes() {
  if (routes) return routes
  const byRoute = new Map<string, { pattern: RegExp, methods: Set<string> }>()
  for (const handler of handlers) {
    if (!handler.route?.startsWith('/api/') || handler.route.includes('**') || handler.middleware) continue
    const entry = byRoute.get(handler.route) ?? {
      pattern: new RegExp(`^${handler.route.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}/?$`),
      methods: new Set<string>(),
    }
    entry.methods.add((handler.method ?? 'get').toUpperCase())
    byRoute.set(handler.route, entry)
  }
  routes = [...byRoute.values()]
  return routes
}

/** The methods an API path answers (empty when no route has that path). */
export function allowedMethods(path: string): Set<string> {
  const allowed = new Set(apiRoutes().filter(r => r.pattern.test(path)).flatMap(r => [...r.methods]))
  if (allowed.has('GET')) allowed.add('HEAD')
  return allowed
}

/** The handler Nitro's router runs for `route` (as written in its table, e.g. `/api/user/:username/uploads`) and `method`. */
export function routeHandler(route: string, method: string): EventHandler | undefined {
  const found = handlers.find(h => h.route === route && !h.middleware && (h.method ?? 'get') === method)
  if (!found) return undefined
  return found.lazy ? lazyEventHandler(found.handler as () => Promise<EventHandler>) : found.handler as EventHandler
}
