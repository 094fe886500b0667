import { VoteQuerySchema } from '#shared/schemas/votes'
import { removeVote } from '../../services/votes'

/** DELETE /api/vote?uploadId=: withdraws the caller's vote. */
export default defineEventHandler(async (event) => {
  const { voter, input: { uploadId } } = await requireVoter(event, () => queryValidated(event, VoteQuerySchema))
  return removeVote(useDB(), voter, uploadId)
})
