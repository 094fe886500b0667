import { AliasParamsSchema } from '#shared/schemas/tags'
import { removeTagAlias } from '../../../../services/tag-rules'

/** DELETE /api/admin/tags/aliases/{from}: the alias is gone; links already moved stay (logged). */
export default defineEventHandler(async (event) => {
  const actor = await requireAdmin(event)
  const { from } = paramsValidated(event, AliasParamsSchema)
  return removeTagAlias(useDB(), actor, from)
})
