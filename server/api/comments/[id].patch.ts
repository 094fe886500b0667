import { CommentBodyInputSchema, CommentIdParamsSchema } from '#shared/schemas/comments'
import { editComment } from '../../services/comments'

/** PATCH /api/comments/{id}: the author edits within 24 hours (counted in COMMENT per account). */
export default defineEventHandler(async (event) => {
  const actor = await limitAccount(event, 'comment', requireUser)
  const { id } = paramsValidated(event, CommentIdParamsSchema)
  const input = await readValidated(event, CommentBodyInputSchema)
  return editComment(useDB(), actor, id, input)
})
