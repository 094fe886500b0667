import { IdParamsSchema } from '#shared/schemas/common'
import { LockUploadSchema } from '#shared/schemas/upload-edits'
import { lockUpload } from '../../../../services/upload-edits'

/** POST /api/admin/uploads/{id}/lock: locks (only admins may edit) or unlocks an upload (logged). */
export default defineEventHandler(async (event) => {
  const actor = await requireAdmin(event)
  const { id } = paramsValidated(event, IdParamsSchema)
  const input = await readValidated(event, LockUploadSchema)
  return lockUpload(useDB(), actor, id, input)
})
