import { IdParamsSchema } from '#shared/schemas/common'
import { claimReport } from '../../../../services/reports'

/** POST /api/admin/reports/{id}/claim: the caller takes the upload's unresolved reports. */
export default defineEventHandler(async (event) => {
  const actor = await requireAdmin(event)
  const { id } = paramsValidated(event, IdParamsSchema)
  return claimReport(useDB(), actor, id)
})
