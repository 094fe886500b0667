import type * as v from 'valibot'
import type { AdminUserSchema, AdminUsersResponseSchema, ShadowBanResponseSchema } from '#shared/schemas/admin'

export type AdminUser = v.InferOutput<typeof AdminUserSchema>

/** Admin moderation: the user list and the shadow-ban switch. */
export function useAdmin() {
  const api = useApi()
  const users = (options: { q?: string, page?: number, limit?: number } = {}) =>
    api<v.InferOutput<typeof AdminUsersResponseSchema>>('/api/admin/users', {
      query: { page: options.page ?? 1, limit: options.limit ?? 20, ...(options.q ? { q: options.q } : {}) },
    })
  const setShadowBan = (id: string, shadowBanned: boolean) =>
    api<v.InferOutput<typeof ShadowBanResponseSchema>>(`/api/admin/users/${id}/shadow-ban`, { method: 'POST', body: { shadowBanned } })
  return { users, setShadowBan }
}
