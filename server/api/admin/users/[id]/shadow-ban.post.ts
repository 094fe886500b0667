import { IdParamsSchema } from '#shared/schemas/common'
import { ShadowBanSchema } from '#shared/schemas/admin'
import { setShadowBan } from '../../../../services/admin'

/** POST /api/admin/users/{id}/shadow-ban: bans or unbans, recomputing the user's votes' counts. */
export default defineEventHandler(async (event) => {
  const actor = await requireAdmin(event)
  const { id } = paramsValidated(event, IdParamsSchema)
  const { shadowBanned } = await readValidated(event, ShadowBanSchema)
  return setShadowBan(useDB(), actor, id, shadowBanned)
})
