import { UploadIdParamsSchema } from '#shared/schemas/uploads'
import { setFavourite } from '../../../services/favourites'

/** DELETE /api/upload/{id}/favourite: the caller removes the upload from their favourites (none: no change). */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { id } = paramsValidated(event, UploadIdParamsSchema)
  return setFavourite(useDB(), actor, id, false)
})
