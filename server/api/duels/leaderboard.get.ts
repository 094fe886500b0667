import { DuelLeaderboardQuerySchema } from '#shared/schemas/duels'
import { duelLeaderboard } from '../../services/duels'

/**
 * GET /api/duels/leaderboard?tag=&period=&rating=: public images judged at least five times, strongest
 * first, without what the caller's lists leave out (`rating=`, and an account's hidden tags and ratings).
 * A signed-in caller's entries say which are their favourites, as every list's do: that answer is private.
 */
export default defineEventHandler(async (event) => {
  const query = queryValidated(event, DuelLeaderboardQuerySchema)
  const at = dataVersionOf(event)
  return withCallerFavourites(event, await duelLeaderboard(useDB(), query, await filterOfCaller(event, query.rating), at))
})
