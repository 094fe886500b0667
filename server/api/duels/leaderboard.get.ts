import { DuelLeaderboardQuerySchema } from '#shared/schemas/duels'
import { duelLeaderboard } from '../../services/duels'

/** GET /api/duels/leaderboard?tag=&period=: public images judged at least five times, strongest first. */
export default defineEventHandler(async (event) => {
  const query = queryValidated(event, DuelLeaderboardQuerySchema)
  return duelLeaderboard(useDB(), query, dataVersionOf(event))
})
