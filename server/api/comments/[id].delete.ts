import { CommentIdParamsSchema } from '#shared/schemas/comments'
import { deleteComment } from '../../services/comments'

/** DELETE /api/comments/{id}: the author or an admin. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { id } = paramsValidated(event, CommentIdParamsSchema)
  return deleteComment(useDB(), actor, id)
})
