import { UploadIdParamsSchema } from '#shared/schemas/uploads'
import { removedByAdmin } from '../../services/removed-uploads'
import { getUploadForViewer } from '../../services/uploads'

/** GET /api/upload/{id}: the full Upload object; a private one only for its owner or an admin (else 404); 410 once an admin removed it. */
export default defineEventHandler(async (event) => {
  const actor = await getOptionalUser(event)
  const { id } = paramsValidated(event, UploadIdParamsSchema)
  const upload = await getUploadForViewer(useDB(), id, actor)
  if (!upload) throw await removedByAdmin(useDB(), id) ? apiError(410, 'Upload removed') : notFound('Upload not found')
  // A signed-in caller's answer says whether they have it as a favourite.
  if (upload.is_private || actor) setCachePolicy(event, 'personal')
  return upload
})
