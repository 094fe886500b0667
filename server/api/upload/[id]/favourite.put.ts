import { UploadIdParamsSchema } from '#shared/schemas/uploads'
import { setFavourite } from '../../../services/favourites'

/** PUT /api/upload/{id}/favourite: the caller adds the upload to their favourites (again: no change). */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { id } = paramsValidated(event, UploadIdParamsSchema)
  return setFavourite(useDB(), actor, id, true)
})
