import { ModlogQuerySchema } from '#shared/schemas/modlog'
import { listModerationLog } from '../../services/modlog'

/** GET /api/admin/modlog?page&limit: the moderation log, newest first (admins only). */
export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const query = queryValidated(event, ModlogQuerySchema)
  return listModerationLog(useDB(), query)
})
