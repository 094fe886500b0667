import { VoteQuerySchema } from '#shared/schemas/votes'
import { removeVote } from '../../services/votes'

/** DELETE /api/vote?uploadId=: withdraws the caller's vote. */
export default defineEventHandler(async (event) => {
  const { caller, input: { uploadId } } = await requireCaller(event, () => queryValidated(event, VoteQuerySchema), { lockUser: true })
  return removeVote(useDB(), caller, uploadId)
})
