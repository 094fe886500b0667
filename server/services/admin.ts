import type { Executor, Row } from '../database/port'
import type { users } from '../database/schema-postgres'
import { sql } from '../database/sql'
import { apiError } from './errors'
import { recountUploads } from './votes'

type UserRow = Pick<Row<typeof users>, 'id' | 'username' | 'email' | 'is_admin' | 'shadow_banned' | 'created_at'>

/** GET /api/admin/users: every account, newest first, optionally filtered by username or e-mail. */
export async function listUsers(db: Executor, query: { page: number, limit: number, q: string }, adminEmails: string[]) {
  // Case-insensitive on both engines: SQLite's LIKE folds ASCII, PostgreSQL's does not, so both sides are lowered.
  const pattern = `%${query.q.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`
  const where = sql`WHERE lower(username) LIKE ${pattern} ESCAPE '\\' OR lower(email) LIKE ${pattern} ESCAPE '\\'`
  const { total } = (await db.get<{ total: number }>(sql`SELECT count(*) AS total FROM users ${where}`))!
  const rows = await db.all<UserRow>(sql`SELECT id, username, email, is_admin, shadow_banned, created_at FROM users ${where}
    ORDER BY created_at DESC, id DESC LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}`)
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
export function setShadowBan(db: Executor, actor: { id: string }, userId: string, shadowBanned: boolean) {
  // An admin who banned themself could not see their own votes count, and would not know why.
  if (userId === actor.id) throw apiError(400, 'You cannot shadow-ban yourself')
  return db.transaction(async (tx) => {
    // The user row first (votes lock it FOR SHARE before their upload), then the uploads: one lock order, no deadlock.
    const user = await tx.get<Pick<UserRow, 'id' | 'username' | 'shadow_banned'>>(sql`UPDATE users SET shadow_banned = ${shadowBanned} WHERE id = ${userId}
      RETURNING id, username, shadow_banned`)
    if (!user) throw apiError(404, 'User not found')
    await recountUploads(tx, sql`SELECT upload_id AS id FROM votes WHERE user_id = ${userId}`)
    return { success: true as const, user: { id: user.id, username: user.username, shadowBanned: user.shadow_banned === 1 } }
  })
}
