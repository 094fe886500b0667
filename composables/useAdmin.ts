export interface AdminUser {
  id: string
  username: string
  email: string | null
  isAdmin: boolean
  shadowBanned: boolean
  createdAt: string
}

/** Admin moderation: the user list and the shadow-ban switch. */
export function useAdmin() {
  const api = useApi()
  const users = (options: { q?: string, page?: number, limit?: number } = {}) =>
    api<{ users: AdminUser[], total: number, page: number, limit: number }>('/api/admin/users', {
      query: { page: options.page ?? 1, limit: options.limit ?? 20, ...(options.q ? { q: options.q } : {}) },
    })
  const setShadowBan = (id: string, shadowBanned: boolean) =>
    api<{ success: boolean, user: { id: string, username: string, shadowBanned: boolean } }>(`/api/admin/users/${id}/shadow-ban`, { method: 'POST', body: { shadowBanned } })
  return { users, setShadowBan }
}
