import { IdParamsSchema } from '#shared/schemas/common'
import { ResolveReportSchema } from '#shared/schemas/reports'
import { resolveReport } from '../../../../services/reports'

/** POST /api/admin/reports/{id}/resolve: one action resolves every unresolved report of the upload. */
export default defineEventHandler(async (event) => {
  const actor = await requireAdmin(event)
  const { id } = paramsValidated(event, IdParamsSchema)
  const input = await readValidated(event, ResolveReportSchema)
  return resolveReport(useDB(), actor, id, input, mediaStore())
})
