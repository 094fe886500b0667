import { VoteSchema } from '#shared/schemas/votes'
import { castVote } from '../../services/votes'

/** POST /api/vote: records (or replaces) the caller's vote on an upload. */
export default defineEventHandler(async (event) => {
  const { voter, input } = await requireVoter(event, () => readValidated(event, VoteSchema))
  return castVote(useDB(), voter, input)
})
