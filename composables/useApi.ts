import { formatWait, plainMessage } from './useFormat'

/** The body of every /api error (docs/behaviour.md, Errors); a 409 may carry extra fields. */
export interface ApiErrorBody {
  statusCode: number
  statusMessage: string
  message: string
  data?: Record<string, unknown>
  [extra: string]: unknown
}

/** The options our requests use (kept small: Nitro's typed routes are too deep to check here). */
export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  body?: Record<string, unknown> | FormData
  query?: Record<string, string | number | undefined>
  cache?: RequestCache
  headers?: Record<string, string>
}
type Fetcher = <T>(url: string, options?: ApiOptions & { parseResponse?: (text: string) => unknown, timeout?: number }) => Promise<T>

/**
 * How long a request from the browser may wait for its answer before it fails
 * with TIMEOUT_MESSAGE, so no button stays busy for good on a hung connection
 * (docs/behaviour.md, Errors).
 */
export const API_TIMEOUT_MS = 30_000
export const TIMEOUT_MESSAGE = 'The server did not answer in time. Please try again.'

/**
 * Our API's bodies are JSON, read with JSON.parse. ofetch's default (destr)
 * first scans the whole text for prototype keys, against JSON from anywhere:
 * 2% of a home page render at 48 uploads a page (`node --cpu-prof`), on lists
 * this server wrote itself. Not JSON (a proxy's error page): the text, as destr gives.
 */
function parseJson(text: string): unknown {
  if (import.meta.server) {
    const kept = parsedAnswers.get(text)
    if (kept) return kept
  }
  let answer: unknown
  try {
    answer = JSON.parse(text)
  }
  catch {
    return text
  }
  if (import.meta.server && typeof answer === 'object' && answer !== null) keepAnswer(text, answer)
  return answer
}

/** The answers read during server renders, with the JSON text each was parsed from (see plugins/api-answers.ts). */
const answers = new WeakMap<object, string>()

/** Texts of answers parsed lately during server renders, newest last, with what each was parsed to. */
const parsedAnswers = new Map<string, object>()
/** How many parsed answers renders share at most (a list answer of 60 uploads is about 60 KB of text). */
const PARSED_ANSWERS_MAX = 64

/**
 * A render reads answers and never changes them, so one parsed from the same
 * text as an earlier one is that one again: frozen, so a change would fail
 * where it is made instead of reaching another render. The text of a cached
 * list is the same from render to render until the data changes; parsing it
 * again was 3% of a signed-in home page render at 48 uploads a page
 * (`node --cpu-prof`), and its objects a share of the garbage each render left.
 */
function keepAnswer(text: string, answer: object): void {
  deepFreeze(answer)
  answers.set(answer, text)
  if (parsedAnswers.size >= PARSED_ANSWERS_MAX) parsedAnswers.delete(parsedAnswers.keys().next().value!)
  parsedAnswers.set(text, answer)
}

function deepFreeze(value: object): void {
  for (const child of Object.values(value)) {
    if (typeof child === 'object' && child !== null) deepFreeze(child)
  }
  Object.freeze(value)
}

/**
 * The JSON text of an object parsed from one of our API's bodies during SSR
 * (plain JSON values only), or undefined for any other value. A render reads
 * answers and never changes them, so the text is the object as JSON.
 */
export function apiAnswerText(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? answers.get(value) : undefined
}

/**
 * A composable made once per Nuxt app (per request during SSR, once in the
 * browser) and then shared: its refs, computeds and functions are built in the
 * app's own effect scope, so none is tied to, or stopped with, the component
 * that asked first. Every card asks for the account and the filters; made per
 * call, a signed-in home page built about 15 useState refs and 6 computeds a card.
 */
export function perApp<T extends object>(make: () => T): () => T {
  const made = new WeakMap<object, T>()
  return () => {
    const nuxtApp = useNuxtApp()
    let shared = made.get(nuxtApp)
    if (!shared) {
      shared = nuxtApp._scope.run(make)!
      made.set(nuxtApp, shared)
    }
    return shared
  }
}

/**
 * The fetch every composable uses: during SSR it forwards the visitor's
 * headers to the handlers in this process (plugins/api-fetch.server.ts, as
 * useRequestFetch does), in the browser it is plain $fetch. Reads in the browser
 * revalidate with the server (`cache: 'no-cache'` + ETag), so someone who just
 * wrote never sees a list cached from before their write.
 */
export function useApi() {
  const request: Fetcher = import.meta.server ? useNuxtApp().$apiFetch as Fetcher : $fetch as unknown as Fetcher
  return <T>(url: string, options: ApiOptions = {}): Promise<T> => {
    const extra: ApiOptions & { timeout?: number } = import.meta.client
      ? { timeout: API_TIMEOUT_MS, ...((options.method ?? 'GET') === 'GET' ? { cache: 'no-cache' } : {}) }
      : {}
    return request<T>(url, { ...extra, ...options, parseResponse: parseJson })
  }
}

/** Status code of a failed $fetch (0 when the request did not reach the server). */
export function errorStatus(error: unknown): number {
  const e = error as { statusCode?: number, status?: number, response?: { status?: number } }
  return e?.statusCode ?? e?.status ?? e?.response?.status ?? 0
}

/** The JSON error body of a failed $fetch, when there is one. */
export function errorBody(error: unknown): ApiErrorBody | undefined {
  const data = (error as { data?: unknown })?.data
  return data && typeof data === 'object' && 'message' in data ? data as ApiErrorBody : undefined
}

/** Seconds the server asked to wait (Retry-After, in seconds or as a date), when it said. */
export function retryAfterSeconds(value: string | null | undefined): number | null {
  if (!value) return null
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) : (Date.parse(value) - Date.now()) / 1000
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null
}

/** "Please try again in 12 minutes." from a 429's Retry-After, or a vaguer sentence without one. */
export function tryAgainIn(retryAfter: string | null | undefined): string {
  const seconds = retryAfterSeconds(retryAfter)
  return seconds === null ? 'Please wait a moment and try again.' : `Please try again in ${formatWait(seconds)}.`
}

/** Whether a request failed for want of an answer in time (ofetch's `timeout`; useAsyncData wraps the error as `cause`). */
function timedOut(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 3; cause = (cause as { cause?: unknown }).cause, depth++) {
    if ((cause as { name?: unknown }).name === 'TimeoutError') return true
  }
  return false
}

/** A sentence to show a person for a failed request. */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  const status = errorStatus(error)
  if (status === 429) {
    // $fetch's FetchError carries the response; useAsyncData wraps it in a NuxtError (as `cause`).
    type WithResponse = { response?: { headers?: Headers }, cause?: { response?: { headers?: Headers } } }
    const failed = error as WithResponse | undefined
    const headers = failed?.response?.headers ?? failed?.cause?.response?.headers
    return `Too many requests. ${tryAgainIn(headers?.get?.('retry-after'))}`
  }
  const body = errorBody(error)
  if (body?.message) return plainMessage(body.message)
  if (timedOut(error)) return TIMEOUT_MESSAGE
  if (status === 0) return 'Could not reach the server. Check your connection.'
  return fallback
}
