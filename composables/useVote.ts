import type * as v from 'valibot'
import type { VoteDeleteResponseSchema, VoteResponseSchema, VoteStatusResponseSchema } from '#shared/schemas/votes'
import { drawFingerprintCanvas, FINGERPRINT_CANVAS, type FingerprintWorkerAnswer } from './fingerprint-canvas'

export type VoteValue = NonNullable<v.InferOutput<typeof VoteStatusResponseSchema>['vote']>

export type AnonymousVoteResult
  = | { ok: true, vote: VoteValue }
    | { ok: false, alreadyVoted: true, existingVote: VoteValue | null, message: string }

const FINGERPRINT_KEY = 'dif:fingerprint'
const ANON_VOTES_KEY = 'dif:anonymous-votes'

const toApi = (vote: VoteValue) => (vote === 'fucks' ? 'upvote' : 'downvote')
const fromApi = (vote: unknown): VoteValue | null => (vote === 'upvote' ? 'fucks' : vote === 'downvote' ? 'does_not_fuck' : null)

/** Signed-in votes (POST/GET/DELETE /api/vote) and anonymous votes with a browser fingerprint. */
export function useVote() {
  const api = useApi()

  async function mine(uploadId: string): Promise<VoteValue | null> {
    const { vote } = await api<v.InferOutput<typeof VoteStatusResponseSchema>>('/api/vote', { query: { uploadId } })
    return vote
  }

  const cast = (uploadId: string, vote: VoteValue) =>
    api<v.InferOutput<typeof VoteResponseSchema>>('/api/vote', { method: 'POST', body: { uploadId, vote } })

  const remove = (uploadId: string) => api<v.InferOutput<typeof VoteDeleteResponseSchema>>('/api/vote', { method: 'DELETE', query: { uploadId } })

  async function castAnonymous(uploadId: string, vote: VoteValue): Promise<AnonymousVoteResult> {
    const clientFingerprint = await fingerprint()
    try {
      await api('/api/vote/anonymous', { method: 'POST', body: { uploadId, vote: toApi(vote), clientFingerprint } })
      rememberAnonymous(uploadId, vote)
      return { ok: true, vote }
    }
    catch (error) {
      const body = errorBody(error)
      if (body?.alreadyVoted) {
        const existingVote = fromApi(body.existingVote)
        if (existingVote) rememberAnonymous(uploadId, existingVote)
        return { ok: false, alreadyVoted: true, existingVote, message: body.message }
      }
      throw error
    }
  }

  return { mine, cast, remove, castAnonymous, anonymousVoteOf }
}

/** The anonymous vote this browser gave an upload, as remembered locally. */
export function anonymousVoteOf(uploadId: string): VoteValue | null {
  if (!import.meta.client) return null
  try {
    const votes = JSON.parse(localStorage.getItem(ANON_VOTES_KEY) ?? '{}') as Record<string, VoteValue>
    return votes[uploadId] ?? null
  }
  catch {
    return null
  }
}

function rememberAnonymous(uploadId: string, vote: VoteValue) {
  try {
    const votes = JSON.parse(localStorage.getItem(ANON_VOTES_KEY) ?? '{}') as Record<string, VoteValue>
    votes[uploadId] = vote
    localStorage.setItem(ANON_VOTES_KEY, JSON.stringify(votes))
  }
  catch { /* storage unavailable: the server still refuses a second vote */ }
}

/**
 * A hash of signals that stay the same across visits of one browser (screen,
 * platform, languages, time zone, hardware, a canvas rendering), computed once
 * and kept in localStorage; it is sent as clientFingerprint.
 */
export async function fingerprint(): Promise<string> {
  try {
    const stored = localStorage.getItem(FINGERPRINT_KEY)
    if (stored && stored.length >= 8) return stored
  }
  catch { /* storage unavailable */ }
  const nav = navigator as Navigator & { deviceMemory?: number }
  const { timeZone, canvas } = await workerSignals()
  const signals = [
    nav.userAgent, nav.language, (nav.languages ?? []).join(','), nav.platform, nav.hardwareConcurrency, nav.deviceMemory ?? '',
    nav.maxTouchPoints, screen.width, screen.height, screen.colorDepth, window.devicePixelRatio,
    timeZone, new Date().getTimezoneOffset(), canvas,
  ].join('|')
  const value = await sha256Hex(signals)
  try {
    localStorage.setItem(FINGERPRINT_KEY, value)
  }
  catch { /* not kept: recomputed next time, to the same value */ }
  return value
}

/** How long the fingerprint's worker may take before the page reads its signals itself. */
const FINGERPRINT_WORKER_MS = 2000

/**
 * The browser's time zone (its IANA name) and the canvas signal, read by a
 * worker (composables/fingerprint-worker.ts): the first Intl.DateTimeFormat of
 * a page loads the locale's data, 33-40 ms of Chromium's main thread at full
 * speed, and the drawing took 36-49 ms of it with the CPU slowed four times, on
 * a first visit to vote mode before its first card (docs/performance.md,
 * "Profiling"). Where no worker starts or answers in time, or it has no canvas,
 * the page reads the same values itself.
 */
function workerSignals(): Promise<{ timeZone: string, canvas: string }> {
  const timeZoneHere = () => Intl.DateTimeFormat().resolvedOptions().timeZone
  const here = () => ({ timeZone: timeZoneHere(), canvas: canvasSignal() })
  let worker: Worker
  try {
    worker = new Worker(new URL('./fingerprint-worker.ts', import.meta.url), { type: 'module' })
  }
  catch {
    return Promise.resolve(here())
  }
  return new Promise((resolve) => {
    const done = (signals: { timeZone: string, canvas: string }) => {
      clearTimeout(timer)
      worker.terminate()
      resolve(signals)
    }
    const timer = setTimeout(() => done(here()), FINGERPRINT_WORKER_MS)
    worker.onmessage = (event: MessageEvent<Partial<FingerprintWorkerAnswer> | null>) => {
      const timeZone = typeof event.data?.timeZone === 'string' ? event.data.timeZone : timeZoneHere()
      done({ timeZone, canvas: typeof event.data?.canvas === 'string' ? event.data.canvas : canvasSignal() })
    }
    worker.onerror = () => done(here())
  })
}

/** The canvas signal drawn on the page's own canvas. */
function canvasSignal(): string {
  try {
    const canvas = document.createElement('canvas')
    canvas.width = FINGERPRINT_CANVAS.width
    canvas.height = FINGERPRINT_CANVAS.height
    const context = canvas.getContext('2d')
    if (!context) return ''
    drawFingerprintCanvas(context)
    return canvas.toDataURL()
  }
  catch {
    return ''
  }
}

async function sha256Hex(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text)
  if (globalThis.crypto?.subtle) {
    const digest = await crypto.subtle.digest('SHA-256', bytes)
    return [...new Uint8Array(digest)].map(b => b.toString(16).padStart(2, '0')).join('')
  }
  // Plain-http origins have no crypto.subtle: two independent 53-bit FNV-style hashes instead.
  let h1 = 0xDEADBEEF
  let h2 = 0x41C6CE57
  for (const byte of bytes) {
    h1 = Math.imul(h1 ^ byte, 2654435761)
    h2 = Math.imul(h2 ^ byte, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0')
}
