import { VoteQuerySchema } from '#shared/schemas/votes'
import { voteOf } from '../../services/votes'

/** GET /api/vote?uploadId=: the caller's vote on one upload, or null. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { uploadId } = queryValidated(event, VoteQuerySchema)
  return voteOf(useDB(), actor, uploadId)
})
