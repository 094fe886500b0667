import { randomUUID } from 'node:crypto'
import { IncomingMessage } from 'node:http'
import type { H3Event } from 'h3'
import type { Counter, Histogram } from 'prom-client'
import {
  anonymousVotesCast, httpDuration, httpRequests, metricsEnabled, uploadRejectionReason, uploadsCreated, uploadsRejected, votesCast,
} from '../services/metrics'

/** An incoming X-Request-Id that is kept: a short token, nothing a log line could be misread by. */
const SAFE_REQUEST_ID = /^[\w.-]{1,64}$/

/** Status of a request whose client went away before its answer was complete (as nginx logs it). */
const CLIENT_CLOSED = 499

/** Status of a request the server cut off at shutdown before answering it. */
const SERVER_STOPPED = 503

/**
 * Starts watching one request a client sent (the in-process calls made while
 * answering it are part of it and are not watched): its request id
 * (`event.context.requestId`, the incoming X-Request-Id when it is safe, else
 * a new one) and, when its answer is complete or its connection closes, one
 * log line and its metrics. Called first for every request, on the fast path
 * and before Nitro's pipeline (server/plugins/api-fast-path.ts), which also
 * sends the id as X-Request-Id. `fastRoute` is the route the fast path
 * answers it by, already known there.
 */
export function observeRequest(event: H3Event, fastRoute?: string): string | undefined {
  const req = event.node.req
  // Nitro's in-process calls (a page's API reads, Nuxt's error page render) use a mock request.
  if (!(req instanceof IncomingMessage)) return undefined
  const start = performance.now()
  // Read once now, Node keeps it: a line written after the client went away (499) or at
  // shutdown still names its address, not "unknown".
  void req.socket?.remoteAddress
  const incoming = req.headers['x-request-id']
  const requestId = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID()
  event.context.requestId = requestId
  // The method as sent: the fast path answers a HEAD as the GET and changes it.
  const method = methodLabel(req.method)
  const entry = inFlight.add(() => requestDone(event, requestId, method, start, fastRoute))
  event.node.res.once('close', () => {
    if (inFlight.remove(entry)) entry.done()
  })
  return requestId
}

/** A request being answered, in `inFlight`: its log line, written when it is done. */
interface InFlight {
  done: () => void
  previous: InFlight | null
  next: InFlight | null
}

/**
 * The requests being answered, linked to one another, not in a Set. A Set
 * that every request enters and leaves rebuilds its table again and again,
 * and V8 keeps a link from each old table to the next and to what it held:
 * once one table sat in the old generation (the first full collection puts it
 * there), every request's objects stayed reachable through the dead tables
 * until the next full collection, so every young collection copied them. A
 * signed-in vote's young collections went from about 1 ms to 5 ms each
 * (docs/performance.md, "Where a write's time goes"). An entry that leaves
 * the list keeps no link to any other.
 */
const inFlight = {
  first: null as InFlight | null,
  add(done: () => void): InFlight {
    const entry: InFlight = { done, previous: null, next: this.first }
    if (this.first) this.first.previous = entry
    this.first = entry
    return entry
  },
  /** Takes `entry` out; false when it was out already. */
  remove(entry: InFlight): boolean {
    if (entry.previous === null && this.first !== entry) return false
    if (entry.previous) entry.previous.next = entry.next
    else this.first = entry.next
    if (entry.next) entry.next.previous = entry.previous
    entry.previous = null
    entry.next = null
    return true
  },
}

/**
 * At shutdown, once Nitro's wait for requests in flight is over
 * (server/plugins/01.bootstrap.ts): the requests still unanswered were cut off
 * by the server, not by their clients. Each gets its line now, with
 * `"cut":"shutdown"`, before the process exits and before their connections'
 * close events could count them as 499.
 */
export function logRequestsCutAtShutdown(): void {
  stopping = true
  for (let entry = inFlight.first; entry; entry = inFlight.first) {
    inFlight.remove(entry)
    entry.done()
  }
}

/** Set at shutdown: a request still unanswered then was cut off by the server. */
let stopping = false

/** The request id of the request being answered (undefined for a page's in-process call: its page's id is the one sent). */
export function requestIdOf(event: H3Event): string | undefined {
  return event.context.requestId as string | undefined
}

/**
 * X-Request-Id on an error answer: a replayed list on the fast path sets it
 * with its other headers at the end, so an error before that (the database
 * unreachable) reaches the error handler without it.
 */
export function setRequestIdHeader(event: H3Event): void {
  const requestId = requestIdOf(event)
  const res = event.node.res
  if (requestId && !res.headersSent && !res.hasHeader('x-request-id')) res.setHeader('X-Request-Id', requestId)
}

function requestDone(event: H3Event, requestId: string, method: string, start: number, fastRoute: string | undefined): void {
  const res = event.node.res
  const seconds = (performance.now() - start) / 1000
  const complete = res.writableFinished
  // Cut by the server at shutdown: the status it had begun to send, or 503 if it sent nothing.
  const status = complete ? res.statusCode : stopping ? (res.headersSent ? res.statusCode : SERVER_STOPPED) : CLIENT_CLOSED
  const route = fastRoute ?? routeTemplate(event, status)
  if (metricsEnabled()) count(route, method, status, seconds, event.context.replayed === true)
  logRequest({
    requestId,
    method,
    route,
    status,
    durationMs: Math.round(seconds * 1e5) / 100,
    clientIp: clientIp(event),
    ...(!complete && stopping ? { cut: 'shutdown' as const } : {}),
  })
}

interface Series { requests: Counter.Internal, duration: Histogram.Internal<'route' | 'method' | 'status'> }

/**
 * The series of each route, method and status, bound once (`labels`), so a
 * request makes no label object of its own. prom-client still hashes the
 * labels on each `inc` and `observe`; measured with the log line, the id and
 * the close listener this is a few microseconds per request, the log line most
 * of it.
 */
const seriesByRoute = new Map<string, Map<string, Map<number, Series>>>()

function count(route: string, method: string, status: number, seconds: number, replayed: boolean): void {
  let byMethod = seriesByRoute.get(route)
  if (!byMethod) seriesByRoute.set(route, byMethod = new Map())
  let byStatus = byMethod.get(method)
  if (!byStatus) byMethod.set(method, byStatus = new Map())
  let series = byStatus.get(status)
  if (!series) {
    const labels = { route, method, status: String(status) }
    byStatus.set(status, series = { requests: httpRequests.labels(labels), duration: httpDuration.labels(labels) })
  }
  series.requests.inc()
  series.duration.observe(seconds)
  // A create answered again from its Idempotency-Key made nothing (docs/behaviour.md, Sending again).
  if (method === 'POST' && !replayed) countOutcome(route, status)
}

/** Votes and uploads, counted by the answer of the routes that make them (one place for the fast path and the pipeline). */
function countOutcome(route: string, status: number): void {
  switch (route) {
    case '/api/vote':
      if (status === 200) votesCast.inc()
      break
    case '/api/vote/anonymous':
      if (status >= 200 && status < 300) anonymousVotesCast.inc()
      break
    case '/api/upload':
    case '/api/v1/upload':
      if (status === 201) uploadsCreated.inc()
      else if (status >= 400) uploadsRejected.inc({ reason: uploadRejectionReason(status) })
      break
  }
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** A method label from a fixed set: a made-up method is `other`. */
function methodLabel(method: string | undefined): string {
  return method !== undefined && METHODS.has(method) ? method : 'other'
}
