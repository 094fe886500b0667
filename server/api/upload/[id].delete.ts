import { UploadIdParamsSchema } from '#shared/schemas/uploads'
import { deleteUpload } from '../../services/uploads'

/** DELETE /api/upload/{id}: the owner or an admin removes the upload, its votes, tag links and files. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { id } = paramsValidated(event, UploadIdParamsSchema)
  return deleteUpload(useDB(), id, actor, mediaStore())
})
