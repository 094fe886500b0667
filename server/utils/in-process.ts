import type { H3Event } from 'h3'

/**
 * The contexts of the requests this process is serving. Nitro answers the API
 * calls of a page being rendered without a network round trip: Nuxt's
 * `useRequestFetch()` is `event.$fetch`, which hands the request to the same
 * handlers through `localFetch` (node-mock-http), passing the page request's
 * own `event.context` along as the mock request's `__unenv__`. Only code in
 * this process can make such a request: nothing a client sends (headers, body,
 * address) can set a property on the IncomingMessage Node builds for it.
 */
const servingContexts = new WeakSet<object>()

/** Marks a request as being served, so the requests it makes in-process can be told apart. */
export function markServing(event: H3Event): void {
  servingContexts.add(event.context)
}

/**
 * True for a request that this process made to itself on behalf of a request
 * it is serving (a page's server-side rendering calling the API). It is part of
 * the visitor's page view, not API use the visitor sent: it is not counted
 * against the rate limits (decisions.md counts the /api requests a client
 * sends).
 */
export function isInProcessRequest(event: H3Event): boolean {
  const parent = (event.node.req as { __unenv__?: unknown }).__unenv__
  return typeof parent === 'object' && parent !== null && servingContexts.has(parent)
}
