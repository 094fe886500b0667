import { AdminUsersQuerySchema } from '#shared/schemas/admin'
import { listUsers } from '../../../services/admin'

/** GET /api/admin/users?page&limit&q: accounts for moderation (admins only). */
export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const query = queryValidated(event, AdminUsersQuerySchema)
  return listUsers(useDB(), query, adminEmails())
})
