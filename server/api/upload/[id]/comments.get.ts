import { CommentsQuerySchema } from '#shared/schemas/comments'
import { UploadIdParamsSchema } from '#shared/schemas/uploads'
import { listComments } from '../../../services/comments'

/** GET /api/upload/{id}/comments: a page of top-level comments with their replies. */
export default defineEventHandler(async (event) => {
  const actor = await getOptionalUser(event)
  if (actor) setCachePolicy(event, 'personal')
  const { id } = paramsValidated(event, UploadIdParamsSchema)
  const query = queryValidated(event, CommentsQuerySchema)
  return listComments(useDB(), actor, id, query)
})
