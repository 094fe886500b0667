import { UploadIdParamsSchema } from '#shared/schemas/uploads'
import { getUploadForViewer } from '../../services/uploads'

/** GET /api/upload/{id}: the full Upload object; a private one only for its owner or an admin (else 404). */
export default defineEventHandler(async (event) => {
  const actor = await getOptionalUser(event)
  const { id } = paramsValidated(event, UploadIdParamsSchema)
  const upload = await getUploadForViewer(useDB(), id, actor)
  if (!upload) throw notFound('Upload not found')
  // A signed-in caller's answer says whether they have it as a favourite.
  if (upload.is_private || actor) setCachePolicy(event, 'personal')
  return upload
})
