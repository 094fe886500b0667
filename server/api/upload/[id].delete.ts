import { UploadIdParamsSchema } from '#shared/schemas/uploads'
import { removeUploadAsAdmin } from '../../services/admin'
import { deleteUpload } from '../../services/uploads'

/** DELETE /api/upload/{id}: the owner or an admin (logged) removes the upload, its votes, tag links and files. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { id } = paramsValidated(event, UploadIdParamsSchema)
  const store = mediaStore()
  return actor.isAdmin ? removeUploadAsAdmin(useDB(), actor, id, store) : deleteUpload(useDB(), id, actor, store)
})
