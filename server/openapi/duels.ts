import {
  DuelJudgementSchema, DuelLeaderboardQuerySchema, DuelLeaderboardResponseSchema, DuelNextQuerySchema, DuelNextResponseSchema, DuelResultSchema,
} from '#shared/schemas/duels'
import { defineApiPaths } from '../utils/openapi'

const limited = { description: 'Rate limited', headers: { 'Retry-After': 'Seconds until the window resets' } }

export default defineApiPaths({
  '/api/duel/next': {
    get: {
      operationId: 'getNextDuel',
      summary: 'Two public images to compare (This or That)',
      description: 'Two public images the caller has not compared yet, the second among the closest in strength to the first; the caller\'s hidden tags and the ratings it hides (PUT /api/profile/preferences) apply, and `rating=` (as on the lists) keeps only those ratings: how a visitor\'s browser leaves out what it hides. Without a session `clientFingerprint` is required, and a pair counts as compared when the fingerprint or the keyed hash of the caller\'s IP has judged it. `duelId` is signed, valid for an hour, for this caller only, and used once; `{ duelId: null }` when no pair is left. Cache-Control: private, no-store.',
      tags: ['This or That'],
      security: ['none', 'cookie'],
      params: { query: DuelNextQuerySchema },
      responses: {
        200: { description: 'A duel, or `{ duelId: null }`', schema: DuelNextResponseSchema, headers: { 'Cache-Control': 'private, no-store' } },
        400: { description: '`Invalid client fingerprint` (missing without a session, or not 8–256 characters), `Invalid rating`' },
        401: { description: 'A session cookie was sent but is not valid' },
      },
    },
  },
  '/api/duel': {
    post: {
      operationId: 'judgeDuel',
      summary: 'Choose the left or right image of a duel, or skip it',
      description: 'Elo from 1500 with K = 24: the winner gains what the loser loses. `skip` changes no strength but uses the duel and the pair. One judgement per caller and pair; a shadow-banned account\'s judgement is answered normally but moves nothing. Counted in VOTE with a session, ANON_VOTE without.',
      tags: ['This or That'],
      security: ['none', 'cookie'],
      body: { json: DuelJudgementSchema },
      responses: {
        200: { description: 'Both images\' strength, wins and losses after the judgement', schema: DuelResultSchema },
        400: { description: '`Invalid duel` (unknown, forged, expired, already used, given to another caller, or an image gone since), `Invalid winner`, `Invalid client fingerprint`' },
        401: { description: 'A session cookie was sent but is not valid' },
        409: { description: '`Already judged`: the caller judged this pair before' },
        429: limited,
      },
    },
  },
  '/api/duels/leaderboard': {
    get: {
      operationId: 'getDuelLeaderboard',
      summary: 'The strongest images of This or That',
      description: 'Public images judged at least 5 times (wins plus losses), strongest first, with their strength, wins and losses; optionally of one tag, and of uploads created within the period. As on the lists, `rating=` keeps only those ratings, and a signed-in caller\'s hidden tags and the ratings it hides (PUT /api/profile/preferences) are left out. With a session cookie every entry carries `favourited` and the answer is `private, no-store`; a visitor\'s is `no-cache`. `total` counts them up to 10,000.',
      tags: ['This or That'],
      security: ['none', 'cookie'],
      params: { query: DuelLeaderboardQuerySchema },
      responses: {
        200: { description: 'A page of the leaderboard with its total', schema: DuelLeaderboardResponseSchema },
        400: { description: '`Invalid period`, `Invalid page`, `Invalid limit`, `Invalid tag`, `Invalid rating`' },
      },
    },
  },
})
