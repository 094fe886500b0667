import { DuelLeaderboardQuerySchema } from '#shared/schemas/duels'
import { duelLeaderboard } from '../../services/duels'

/**
 * GET /api/duels/leaderboard?tag=&period=&rating=: public images judged at least five times, strongest
 * first, without what the caller's lists leave out (`rating=`, and an account's hidden tags and ratings:
 * then the answer is private).
 */
export default defineEventHandler(async (event) => {
  const query = queryValidated(event, DuelLeaderboardQuerySchema)
  const at = dataVersionOf(event)
  return duelLeaderboard(useDB(), query, await filterOfCaller(event, query.rating), at)
})
