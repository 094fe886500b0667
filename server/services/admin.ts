import type Database from 'better-sqlite3'
import { apiError } from '../utils/errors'
import { recountUploads } from './votes'

interface UserRow { id: string, username: string, email: string | null, is_admin: number, shadow_banned: number, created_at: string }

/** GET /api/admin/users: every account, newest first, optionally filtered by username or e-mail. */
export function listUsers(sqlite: Database.Database, query: { page: number, limit: number, q: string }, adminEmails: string[]) {
  const pattern = `%${query.q.replace(/[\\%_]/g, '\\$&')}%`
  const where = `WHERE username LIKE @pattern ESCAPE '\\' OR email LIKE @pattern ESCAPE '\\'`
  const { total } = sqlite.prepare(`SELECT count(*) AS total FROM users ${where}`).get({ pattern }) as { total: number }
  const rows = sqlite.prepare(`SELECT id, username, email, is_admin, shadow_banned, created_at FROM users ${where}
    ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`).all({ pattern, limit: query.limit, offset: (query.page - 1) * query.limit }) as UserRow[]
  return {
    users: rows.map(row => ({
      id: row.id,
      username: row.username,
      email: row.email,
      isAdmin: row.is_admin === 1 || (row.email !== null && adminEmails.includes(row.email)),
      shadowBanned: row.shadow_banned === 1,
      createdAt: row.created_at,
    })),
    total,
    page: query.page,
    limit: query.limit,
  }
}

/**
 * POST /api/admin/users/{id}/shadow-ban: sets the flag and, in the same
 * transaction, recomputes the counts of every upload the user voted on.
 */
export function setShadowBan(sqlite: Database.Database, userId: string, shadowBanned: boolean) {
  return sqlite.transaction(() => {
    const user = sqlite.prepare('UPDATE users SET shadow_banned = ? WHERE id = ? RETURNING id, username, shadow_banned')
      .get(shadowBanned ? 1 : 0, userId) as { id: string, username: string, shadow_banned: number } | undefined
    if (!user) throw apiError(404, 'User not found')
    recountUploads(sqlite, 'SELECT upload_id FROM votes WHERE user_id = ?', [userId])
    return { success: true as const, user: { id: user.id, username: user.username, shadowBanned: user.shadow_banned === 1 } }
  }).immediate()
}
