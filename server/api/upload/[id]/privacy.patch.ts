import { UploadIdParamsSchema } from '#shared/schemas/uploads'
import { toggleUploadPrivacy } from '../../../services/uploads'

/** PATCH /api/upload/{id}/privacy: the owner toggles public/private (any body is ignored). */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { id } = paramsValidated(event, UploadIdParamsSchema)
  return toggleUploadPrivacy(useDB(), id, actor)
})
