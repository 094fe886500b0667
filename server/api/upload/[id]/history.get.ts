import { HistoryQuerySchema } from '#shared/schemas/upload-edits'
import { UploadIdParamsSchema } from '#shared/schemas/uploads'
import { uploadHistory } from '../../../services/upload-edits'

/** GET /api/upload/{id}/history?page&limit: the upload's revisions, newest first, for whoever may see it. */
export default defineEventHandler(async (event) => {
  const actor = await getOptionalUser(event)
  const { id } = paramsValidated(event, UploadIdParamsSchema)
  const query = queryValidated(event, HistoryQuerySchema)
  const history = await uploadHistory(useDB(), actor, id, query)
  if (actor) setCachePolicy(event, 'personal')
  return history
})
