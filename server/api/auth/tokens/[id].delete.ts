import { IdParamsSchema } from '#shared/schemas/common'
import { revokeApiToken } from '../../../services/api-tokens'

/** DELETE /api/auth/tokens/{id} (JWT bearer or cookie): revokes one of the caller's tokens. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event, { allowBearer: true })
  const { id } = paramsValidated(event, IdParamsSchema)
  return revokeApiToken(useDB(), actor.id, id)
})
