import { CommentIdParamsSchema, CommentVoteSchema } from '#shared/schemas/comments'
import { voteComment } from '../../../services/comments'

/** PUT /api/comments/{id}/vote: up, down, or null to withdraw. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { id } = paramsValidated(event, CommentIdParamsSchema)
  const { vote } = await readValidated(event, CommentVoteSchema)
  return voteComment(useDB(), actor, id, vote)
})
