import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { createEvent, type H3Event } from 'h3'
import type { NitroApp } from 'nitropack/types'
import { getRouteRulesForPath } from 'nitropack/runtime/internal/route-rules'

/**
 * Every private part of Nitro and h3 the API fast path
 * (server/plugins/api-fast-path.ts) leans on, in one place, with a check run
 * at start: an upgrade that renames or drops one of them turns the fast path
 * off (every request then takes Nitro's pipeline, as with
 * NUXT_API_FAST_PATH=false) instead of answering wrongly.
 *
 * - `nitroApp.hooks._hooks`: whether a request or afterResponse hook is set
 *   (the pipeline calls them; the fast path steps aside while one is);
 * - `getRouteRulesForPath`: the route rules of a path (a route with rules
 *   takes the pipeline);
 * - `H3Event._method`: a HEAD served as the GET, as middleware/03.api-method.ts does;
 * - `H3Event._onBeforeResponseCalled`: marks the beforeResponse step done, as
 *   h3's app does before it writes an answer.
 */

type Hooks = Record<string, unknown[] | undefined>

function hooksOf(nitroApp: NitroApp): Hooks | undefined {
  const hooks = (nitroApp.hooks as unknown as { _hooks?: unknown })._hooks
  return hooks && typeof hooks === 'object' ? hooks as Hooks : undefined
}

/** Whether a `request` or `afterResponse` hook is set (then the fast path steps aside). */
export function hasRequestHooks(nitroApp: NitroApp): boolean {
  const hooks = hooksOf(nitroApp)!
  return Boolean(hooks.request?.length || hooks.afterResponse?.length)
}

/** Whether a route rule applies to `path`. */
export function hasRouteRules(path: string): boolean {
  return Object.keys(getRouteRulesForPath(path)).length > 0
}

/** Serves a HEAD as the GET from here on (h3 reads the method from `_method`). */
export function treatAsGet(event: H3Event): void {
  event._method = 'GET'
  event.node.req.method = 'GET'
}

/** Marks the beforeResponse step as run, as h3's app does before writing the answer. */
export function markBeforeResponseDone(event: H3Event): void {
  event._onBeforeResponseCalled = true
}

/**
 * Null when every part above is where the fast path expects it; otherwise
 * what is missing. Checked once at start, on a made-up event.
 */
export function nitroInternalsProblem(nitroApp: NitroApp): string | null {
  if (!hooksOf(nitroApp)) return 'nitroApp.hooks._hooks is gone'
  if (typeof getRouteRulesForPath !== 'function') return 'getRouteRulesForPath is gone'
  try {
    if (typeof getRouteRulesForPath('/api/uploads') !== 'object') return 'getRouteRulesForPath answers no object'
  }
  catch (error) {
    return `getRouteRulesForPath throws: ${(error as Error).message}`
  }
  const req = new IncomingMessage(new Socket())
  req.method = 'HEAD'
  const event = createEvent(req, new ServerResponse(req))
  if (!('_method' in event) || !('_onBeforeResponseCalled' in event)) return 'H3Event has no _method or _onBeforeResponseCalled'
  treatAsGet(event)
  if (event.method !== 'GET') return 'H3Event no longer reads its method from _method'
  return null
}
