// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- declares a Nitro virtual module for every tsconfig that includes this file
/// <reference path="../types/nitro-virtual.d.ts" />
import { lazyEventHandler, type EventHandler } from 'h3'
import { handlers } from '#nitro-internal-virtual/server-handlers'
import { routeMethods } from './route-methods'

let methodsOf: ((path: string) => Set<string>) | undefined

/** The methods an API path answers (empty when no route has that path), from Nitro's own route table. */
export function allowedMethods(path: string): Set<string> {
  methodsOf ??= routeMethods(handlers
    .filter(handler => handler.route?.startsWith('/api/') && !handler.route.includes('**') && !handler.middleware)
    .map(handler => ({ route: handler.route!, method: handler.method ?? 'get' })))
  return methodsOf(path)
}

/** The handler Nitro's router runs for `route` (as written in its table, e.g. `/api/user/:username/uploads`) and `method`. */
export function routeHandler(route: string, method: string): EventHandler | undefined {
  const found = handlers.find(h => h.route === route && !h.middleware && (h.method ?? 'get') === method)
  if (!found) return undefined
  return found.lazy ? lazyEventHandler(found.handler as () => Promise<EventHandler>) : found.handler as EventHandler
}
