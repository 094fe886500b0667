import type * as v from 'valibot'
import type { AdminUserSchema, AdminUsersResponseSchema, ShadowBanResponseSchema } from '#shared/schemas/admin'
import type { BannedMediaResponseSchema, BannedMediaSchema } from '#shared/schemas/removal'

export type AdminUser = v.InferOutput<typeof AdminUserSchema>
export type BannedMedia = v.InferOutput<typeof BannedMediaSchema>

/** Admin moderation: the user list, the shadow-ban switch and the banned images. */
export function useAdmin() {
  const api = useApi()
  const users = (options: { q?: string, page?: number, limit?: number } = {}) =>
    api<v.InferOutput<typeof AdminUsersResponseSchema>>('/api/admin/users', {
      query: { page: options.page ?? 1, limit: options.limit ?? 20, ...(options.q ? { q: options.q } : {}) },
    })
  const setShadowBan = (id: string, shadowBanned: boolean) =>
    api<v.InferOutput<typeof ShadowBanResponseSchema>>(`/api/admin/users/${id}/shadow-ban`, { method: 'POST', body: { shadowBanned } })
  const bannedMedia = (options: { page?: number, limit?: number } = {}) =>
    api<v.InferOutput<typeof BannedMediaResponseSchema>>('/api/admin/banned-media', { query: { page: options.page ?? 1, limit: options.limit ?? 20 } })
  const liftBan = (id: string) => api<{ success: true }>(`/api/admin/banned-media/${id}`, { method: 'DELETE' })
  return { users, setShadowBan, bannedMedia, liftBan }
}
