import { VoteSchema } from '#shared/schemas/votes'
import { castVote } from '../../services/votes'

/** POST /api/vote: records (or replaces) the caller's vote on an upload. */
export default defineEventHandler(async (event) => {
  const { caller, input } = await requireCaller(event, () => readValidated(event, VoteSchema), { lockUser: true })
  return castVote(useDB(), caller, input)
})
