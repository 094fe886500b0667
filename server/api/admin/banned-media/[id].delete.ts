import { IdParamsSchema } from '#shared/schemas/common'
import { liftBan } from '../../../services/banned-media'

/** DELETE /api/admin/banned-media/{id}: lifts a ban (logged). */
export default defineEventHandler(async (event) => {
  const actor = await requireAdmin(event)
  const { id } = paramsValidated(event, IdParamsSchema)
  return liftBan(useDB(), actor, id)
})
