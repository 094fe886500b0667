import type * as v from 'valibot'
import type { VoteDeleteResponseSchema, VoteResponseSchema, VoteStatusResponseSchema } from '#shared/schemas/votes'

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
  const signals = [
    nav.userAgent, nav.language, (nav.languages ?? []).join(','), nav.platform, nav.hardwareConcurrency, nav.deviceMemory ?? '',
    nav.maxTouchPoints, screen.width, screen.height, screen.colorDepth, window.devicePixelRatio,
    await timeZone(), new Date().getTimezoneOffset(), canvasSignal(),
  ].join('|')
  const value = await sha256Hex(signals)
  try {
    localStorage.setItem(FINGERPRINT_KEY, value)
  }
  catch { /* not kept: recomputed next time, to the same value */ }
  return value
}

/** How long the time zone's worker may take before the page reads the zone itself. */
const TIME_ZONE_WORKER_MS = 2000

/**
 * The browser's time zone (its IANA name), read by a worker: the first
 * Intl.DateTimeFormat of a page loads the locale's data, 33-40 ms of Chromium's
 * main thread at full speed, on a first visit to vote mode before its first
 * card (docs/performance.md, "Profiling"). Where no worker starts or answers
 * in time, the page reads the same name itself.
 */
function timeZone(): Promise<string> {
  const here = () => Intl.DateTimeFormat().resolvedOptions().timeZone
  let worker: Worker
  try {
    worker = new Worker(new URL('./time-zone-worker.ts', import.meta.url), { type: 'module' })
  }
  catch {
    return Promise.resolve(here())
  }
  return new Promise<string>((resolve) => {
    const done = (zone: string) => {
      clearTimeout(timer)
      worker.terminate()
      resolve(zone)
    }
    const timer = setTimeout(() => done(here()), TIME_ZONE_WORKER_MS)
    worker.onmessage = (event: MessageEvent<unknown>) => done(typeof event.data === 'string' ? event.data : here())
    worker.onerror = () => done(here())
  })
}

function canvasSignal(): string {
  try {
    const canvas = document.createElement('canvas')
    canvas.width = 200
    canvas.height = 40
    const context = canvas.getContext('2d')
    if (!context) return ''
    context.textBaseline = 'top'
    context.font = '16px sans-serif'
    context.fillStyle = '#6a2bd9'
    context.fillRect(0, 0, 100, 20)
    context.fillStyle = '#13773b'
    context.fillText('Does It Fuck? 🗳', 4, 12)
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
