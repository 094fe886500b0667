import { AdminReportsQuerySchema } from '#shared/schemas/reports'
import { listReports } from '../../../services/reports'

/** GET /api/admin/reports?status&page&limit: the report queue, grouped by upload (admins only). */
export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const query = queryValidated(event, AdminReportsQuerySchema)
  return listReports(useDB(), query)
})
