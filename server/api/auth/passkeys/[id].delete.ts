import { IdParamsSchema } from '#shared/schemas/common'
import { deletePasskey } from '../../../services/passkeys'

/** DELETE /api/auth/passkeys/{id} (cookie): removes one of the caller's passkeys. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { id } = paramsValidated(event, IdParamsSchema)
  return deletePasskey(useDB(), actor.id, id)
})
