import { IdParamsSchema } from '#shared/schemas/common'
import { listUploadTags } from '../../../services/upload-tags'

/** GET /api/uploads/{id}/tags: the upload's tags (a private upload only for its owner or an admin). */
export default defineEventHandler(async (event) => {
  const actor = await getOptionalUser(event)
  if (actor) setCachePolicy(event, 'personal')
  const { id } = paramsValidated(event, IdParamsSchema)
  return listUploadTags(useDB(), actor, id)
})
