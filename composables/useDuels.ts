import type * as v from 'valibot'
import type { ContentRating } from '#shared/utils/content-rating'
import type { DuelEntrySchema, DuelLeaderboardResponseSchema, DuelResultSchema } from '#shared/schemas/duels'
import { fingerprint } from './useVote'

export type DuelEntry = v.InferOutput<typeof DuelEntrySchema>
export type DuelResult = v.InferOutput<typeof DuelResultSchema>
export type DuelLeaderboard = v.InferOutput<typeof DuelLeaderboardResponseSchema>
export type Duel = { duelId: string, left: DuelEntry, right: DuelEntry } | { duelId: null }

/** This or That: the next pair (GET /api/duel/next), a judgement (POST /api/duel), the leaderboard. */
export function useDuels() {
  const api = useApi()
  const { signedIn } = useAuth()
  /** A visitor without an account names their fingerprint, as anonymous votes do. */
  const visitor = async () => (signedIn.value ? {} : { clientFingerprint: await fingerprint() })

  /** The next pair; `rating`: only images of these ratings (useContentRatings().shown()). */
  const next = async (rating?: readonly ContentRating[] | null) =>
    api<Duel>('/api/duel/next', { query: { ...await visitor(), ...(rating ? { rating: rating.join(',') } : {}) } })
  const judge = async (duelId: string, winner: 'left' | 'right' | 'skip') =>
    api<DuelResult>('/api/duel', { method: 'POST', body: { duelId, winner, ...await visitor() } })
  const leaderboard = (query: { page?: number, limit?: number, tag?: string, period?: string } = {}) =>
    api<DuelLeaderboard>('/api/duels/leaderboard', { query })

  return { next, judge, leaderboard }
}
