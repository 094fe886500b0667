import { VoteQuerySchema } from '#shared/schemas/votes'
import { removeVote } from '../../services/votes'

/** DELETE /api/vote?uploadId=: withdraws the caller's vote. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { uploadId } = queryValidated(event, VoteQuerySchema)
  return removeVote(useDB(), actor, uploadId)
})
