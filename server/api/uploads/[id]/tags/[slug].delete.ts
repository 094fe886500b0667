import { UploadTagParamsSchema } from '#shared/schemas/upload-edits'
import { removeUploadTag } from '../../../../services/upload-edits'

/** DELETE /api/uploads/{id}/tags/{slug}: the owner (unless locked) or an admin removes one tag (a revision when it was there). */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { id, slug } = paramsValidated(event, UploadTagParamsSchema)
  return removeUploadTag(useDB(), actor, id, slug)
})
