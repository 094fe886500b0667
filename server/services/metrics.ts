import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/**
 * The numbers `GET /metrics` serves (docs/operations.md, Monitoring), in
 * Prometheus text format through prom-client. Each instance counts its own
 * requests; Prometheus adds the instances up. Nothing is counted or collected
 * unless metrics are on (`NUXT_METRICS_TOKEN` set): `enableMetrics` at start.
 *
 * Every label value comes from a small fixed set (route templates, methods,
 * statuses, reasons), never from what a client sent, so no series multiplies.
 */
export const metricsRegistry = new Registry()

let on = false

/** Whether requests and events are counted (a plain read on every request). */
export function metricsEnabled(): boolean {
  return on
}

/** Turns counting on and starts the process metrics (CPU, memory, event loop, GC). */
export function enableMetrics(): void {
  if (on) return
  on = true
  collectDefaultMetrics({ register: metricsRegistry })
}

const registers = [metricsRegistry]

/** Seconds, from a cached list answer (well under a millisecond) to a large upload (seconds). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export const httpRequests = new Counter({
  name: 'dif_http_requests_total',
  help: 'HTTP requests answered, by route template, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers,
})

export const httpDuration = new Histogram({
  name: 'dif_http_request_duration_seconds',
  help: 'Time from the request to the end of its answer, by route template, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers,
})

export const votesCast = new Counter({
  name: 'dif_votes_total',
  help: 'Votes cast or changed by signed-in voters (POST /api/vote answered 200)',
  registers,
})

export const anonymousVotesCast = new Counter({
  name: 'dif_anonymous_votes_total',
  help: 'Anonymous votes recorded (POST /api/vote/anonymous answered 2xx)',
  registers,
})

export const uploadsCreated = new Counter({
  name: 'dif_uploads_total',
  help: 'Uploads created (POST /api/upload or /api/v1/upload answered 201)',
  registers,
})

export const uploadsRejected = new Counter({
  name: 'dif_uploads_rejected_total',
  help: 'Uploads refused, by reason',
  labelNames: ['reason'] as const,
  registers,
})

const imageQueueWait = new Histogram({
  name: 'dif_image_queue_wait_seconds',
  help: 'Time a request\'s image waited for the image slot (0 when it was free)',
  buckets: [0, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers,
})

const imageQueueRefused = new Counter({
  name: 'dif_image_queue_refused_total',
  help: 'Images refused with 503 because the image queue was full or the wait ran out',
  registers,
})

const searchesRefused = new Counter({
  name: 'dif_searches_refused_total',
  help: 'Searches stopped at the search budget (NUXT_SEARCH_BUDGET_MS) and refused with 400 Query too complex',
  registers,
})

/** A search stopped at its budget (a refusal answered again from the list cache is not counted). */
export function countSearchRefused(): void {
  if (on) searchesRefused.inc()
}

const listCacheLookups = new Counter({
  name: 'dif_list_cache_lookups_total',
  help: 'Public list answers: from the list cache (hit, a replayed answer included) or computed (miss)',
  labelNames: ['result'] as const,
  registers,
})

const listCacheHit = listCacheLookups.labels('hit')
const listCacheMiss = listCacheLookups.labels('miss')

/** A list answer taken from the list cache (or replayed as sent), or computed. */
export function countListLookup(hit: boolean): void {
  if (on) (hit ? listCacheHit : listCacheMiss).inc()
}

/** An image that waited `seconds` for the image slot, or was refused (null). */
export function countImageWait(seconds: number | null): void {
  if (!on) return
  if (seconds === null) imageQueueRefused.inc()
  else imageQueueWait.observe(seconds)
}

/** A gauge whose value is read when Prometheus scrapes, from `read`. */
export function scrapedGauge<L extends string>(name: string, help: string, labelNames: readonly L[], read: (gauge: Gauge<L>) => void): Gauge<L> {
  return new Gauge({
    name,
    help,
    labelNames,
    registers,
    collect() {
      if (on) read(this)
    },
  })
}

/** Why an upload request was refused, from its status: the reasons an upload is answered with. */
const REJECTION_REASONS: Record<number, string> = {
  400: 'invalid',
  401: 'unauthenticated',
  403: 'forbidden',
  409: 'duplicate',
  413: 'too_large',
  415: 'unsupported_type',
  429: 'rate_limited',
  503: 'busy',
}

export function uploadRejectionReason(status: number): string {
  return REJECTION_REASONS[status] ?? (status >= 500 ? 'error' : 'other')
}
