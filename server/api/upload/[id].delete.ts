import { RemoveUploadSchema } from '#shared/schemas/removal'
import { UploadIdParamsSchema } from '#shared/schemas/uploads'
import { removeUploadAsAdmin } from '../../services/admin'
import { deleteUpload } from '../../services/uploads'

/**
 * DELETE /api/upload/{id}: the owner removes the upload, or an admin does
 * (logged, a tombstone kept, the image banned unless `ban` is false).
 */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { id } = paramsValidated(event, UploadIdParamsSchema)
  const input = await readValidated(event, RemoveUploadSchema)
  const store = mediaStore()
  return actor.isAdmin ? removeUploadAsAdmin(useDB(), actor, id, store, { note: input.reason, ban: input.ban }) : deleteUpload(useDB(), id, actor, store)
})
