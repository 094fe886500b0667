import { CommentCreateSchema } from '#shared/schemas/comments'
import { UploadIdParamsSchema } from '#shared/schemas/uploads'
import { postComment } from '../../../services/comments'

/** POST /api/upload/{id}/comments: the caller comments, or replies (counted in COMMENT per account). */
export default defineEventHandler(async (event) => {
  const actor = await limitAccount(event, 'comment', requireUser)
  const { id } = paramsValidated(event, UploadIdParamsSchema)
  const input = await readValidated(event, CommentCreateSchema)
  const created = await answerOnce(event, actor.id, input, keep => postComment(useDB(), actor, id, input, keep))
  setResponseStatus(event, 201)
  return created
})
