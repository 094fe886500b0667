import { IdParamsSchema } from '#shared/schemas/common'
import { RevertUploadSchema } from '#shared/schemas/upload-edits'
import { revertUpload } from '../../../../services/upload-edits'

/** POST /api/admin/uploads/{id}/revert: restores a revision's description, link and tags as a new revision (logged). */
export default defineEventHandler(async (event) => {
  const actor = await requireAdmin(event)
  const { id } = paramsValidated(event, IdParamsSchema)
  const input = await readValidated(event, RevertUploadSchema)
  return revertUpload(useDB(), actor, id, input)
})
