import type { H3Event } from 'h3'
import type { Database } from '../database/port'

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
 * against the rate limits (docs/behaviour.md, Rate limits: counted are the /api requests a client
 * sends), and it shares lookups with the page's other calls (`sharedByPageView`).
 */
export function isInProcessRequest(event: H3Event): boolean {
  const parent = (event.node.req as { __unenv__?: unknown }).__unenv__
  return typeof parent === 'object' && parent !== null && servingContexts.has(parent)
}

/** The context of the page view an in-process request is part of, if it is one. */
function pageViewOf(event: H3Event): object | undefined {
  return isInProcessRequest(event) ? (event.node.req as { __unenv__?: object }).__unenv__ : undefined
}

/** What a request, or the in-process requests of one page view, share, by key (see `sharedOn`). */
const memos = new WeakMap<object, Map<string, Promise<unknown>>>()

/** `compute()` once per `owner` (a request's context) and key; a failure is not kept. */
function sharedOn<T>(owner: object, key: string, compute: () => Promise<T>): Promise<T> {
  let memo = memos.get(owner)
  if (!memo) {
    memo = new Map()
    memos.set(owner, memo)
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
  const page = pageViewOf(event)
  return page ? sharedOn(page, key, compute) : compute()
}

/**
 * The data version (`Database.dataVersion`) a request's cached reads are
 * answered at: read once per request, and once per page view for a page and
 * the API calls it makes in-process while it renders. A version read after a
 * request arrived reflects every write acknowledged before it, and a page's
 * calls all arrive after the page did, so the first read serves them all (a
 * render writes nothing it would then have to read). On PostgreSQL that is
 * one round trip where a signed-in home page made four, three of them
 * waiting on each other. A failure is not kept.
 */
export function dataVersionOf(event: H3Event, db: Pick<Database, 'dataVersion'> = useDB()): Promise<string | null> {
  return sharedOn(pageViewOf(event) ?? event.context, 'data version', () => db.dataVersion())
}
