import * as v from 'valibot'
import { PERIODS } from '../utils/ranking'
import { limitSchema, ListEntrySchema, PageSchema, RatingFilterSchema } from './lists'

const FingerprintSchema = v.pipe(
  v.string('Invalid client fingerprint'),
  v.minLength(8, 'Invalid client fingerprint'),
  v.maxLength(256, 'Invalid client fingerprint'),
  v.description('Required without a session: the fingerprint sent with anonymous votes'),
)

/** GET /api/duel/next */
export const DuelNextQuerySchema = v.object({
  clientFingerprint: v.optional(FingerprintSchema),
  rating: RatingFilterSchema,
})

/** A duel's id as handed out by GET /api/duel/next: signed text, checked by the server (400 `Invalid duel`). */
const DuelIdSchema = v.pipe(
  v.string('Invalid duel'),
  v.minLength(1, 'Invalid duel'),
  v.maxLength(1000, 'Invalid duel'),
  v.description('The duelId of GET /api/duel/next: used once, valid for an hour, for the caller it was given to'),
)

/** POST /api/duel */
export const DuelJudgementSchema = v.object({
  duelId: DuelIdSchema,
  winner: v.picklist(['left', 'right', 'skip'], 'Invalid winner'),
  clientFingerprint: v.optional(FingerprintSchema),
}, (issue) => {
  const key = issue.path?.[0]?.key
  if (key === 'winner') return 'Invalid winner'
  if (key === 'clientFingerprint') return 'Invalid client fingerprint'
  return 'Invalid duel'
})

/** GET /api/duels/leaderboard */
export const DuelLeaderboardQuerySchema = v.object({
  tag: v.optional(v.pipe(v.string('Invalid tag'), v.maxLength(100, 'Invalid tag'), v.description('Only images carrying this tag (name or slug)'))),
  period: v.optional(v.pipe(
    v.picklist(PERIODS, 'Invalid period'),
    v.description('Only images uploaded within the last day, week, month (30 days) or year'),
  ), 'all'),
  page: PageSchema,
  limit: limitSchema(20, 100),
  rating: RatingFilterSchema,
})

const DuelStandingEntries = {
  strength: v.pipe(v.number(), v.description('Elo strength: 1500 to start, K = 24')),
  wins: v.pipe(v.number(), v.integer()),
  losses: v.pipe(v.number(), v.integer()),
}

/** A list entry with its strength: a side of a duel, a leaderboard row. */
export const DuelEntrySchema = v.object({ ...ListEntrySchema.entries, ...DuelStandingEntries })

export const DuelNextResponseSchema = v.union([
  v.object({ duelId: v.string(), left: DuelEntrySchema, right: DuelEntrySchema }),
  v.object({ duelId: v.null() }),
])

export const DuelStandingSchema = v.object({ id: v.pipe(v.string(), v.uuid()), ...DuelStandingEntries })

export const DuelResultSchema = v.object({ left: DuelStandingSchema, right: DuelStandingSchema })

export const DuelLeaderboardResponseSchema = v.object({
  uploads: v.array(DuelEntrySchema),
  total: v.pipe(v.number(), v.integer()),
  page: v.pipe(v.number(), v.integer()),
  limit: v.pipe(v.number(), v.integer()),
})
