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
 * sends), and it shares lookups with the page's other calls (`sharedByPageView`).
 */
export function isInProcessRequest(event: H3Event): boolean {
  const parent = (event.node.req as { __unenv__?: unknown }).__unenv__
  return typeof parent === 'object' && parent !== null && servingContexts.has(parent)
}

/** What the in-process requests of one page view share, by key (see `sharedByPageView`). */
const pageViewMemos = new WeakMap<object, Map<string, Promise<unknown>>>()

/**
 * `compute()` once per page view: a request this process makes to itself
 * while rendering a page gets the answer of the first such request with the
 * same key, and any other request computes its own. A page's API calls each
 * looked up the same session and the same hidden tags: on PostgreSQL, a
 * round trip each, twelve statements for the home page where six do. The
 * memo lives on the page request's context and goes with it; a failure is
 * not kept.
 */
export function sharedByPageView<T>(event: H3Event, key: string, compute: () => Promise<T>): Promise<T> {
  if (!isInProcessRequest(event)) return compute()
  const page = (event.node.req as { __unenv__?: object }).__unenv__!
  let memo = pageViewMemos.get(page)
  if (!memo) {
    memo = new Map()
    pageViewMemos.set(page, memo)
  }
  const kept = memo.get(key) as Promise<T> | undefined
  if (kept) return kept
  const pending = compute()
  memo.set(key, pending)
  pending.catch(() => {
    if (memo.get(key) === pending) memo.delete(key)
  })
  return pending
}
