import type { Executor, Row } from '../database/port'
import type { users } from '../database/schema-postgres'
import { FOR_UPDATE, sql } from '../database/sql'
import { apiError } from './errors'
import { logModeration } from './modlog'
import type { MediaStore } from './media-store'
import { isAdminRow, type Actor } from './sessions'
import { deleteUpload } from './uploads'
import { recountUploads } from './votes'

type UserRow = Pick<Row<typeof users>, 'id' | 'username' | 'email' | 'is_admin' | 'email_verified' | 'shadow_banned' | 'created_at'>

/** GET /api/admin/users: every account, newest first, optionally filtered by username or e-mail. */
export async function listUsers(db: Executor, query: { page: number, limit: number, q: string }, adminEmails: string[]) {
  // Case-insensitive on both engines: SQLite's LIKE folds ASCII, PostgreSQL's does not, so both sides are lowered.
  const pattern = `%${query.q.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`
  const where = sql`WHERE lower(username) LIKE ${pattern} ESCAPE '\\' OR lower(email) LIKE ${pattern} ESCAPE '\\'`
  const { total } = (await db.get<{ total: number }>(sql`SELECT count(*) AS total FROM users ${where}`))!
  const rows = await db.all<UserRow>(sql`SELECT id, username, email, is_admin, email_verified, shadow_banned, created_at FROM users ${where}
    ORDER BY created_at DESC, id DESC LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}`)
  return {
    users: rows.map(row => ({
      id: row.id,
      username: row.username,
      email: row.email,
      isAdmin: isAdminRow(row, adminEmails),
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
 * transaction, recomputes the counts of every upload the user voted on and
 * logs the action (`note` from a report's resolution).
 */
export function setShadowBan(db: Executor, actor: { id: string }, userId: string, shadowBanned: boolean, note?: string) {
  // An admin who banned themself could not see their own votes count, and would not know why.
  if (userId === actor.id) throw apiError(400, 'You cannot shadow-ban yourself')
  return db.transaction(async (tx) => {
    // The user row first (votes lock it FOR SHARE before their upload), then the uploads: one lock order, no deadlock.
    const user = await tx.get<Pick<UserRow, 'id' | 'username' | 'shadow_banned'>>(sql`UPDATE users SET shadow_banned = ${shadowBanned} WHERE id = ${userId}
      RETURNING id, username, shadow_banned`)
    if (!user) throw apiError(404, 'User not found')
    await recountUploads(tx, sql`SELECT upload_id AS id FROM votes WHERE user_id = ${userId}`)
    await logModeration(tx, { actorId: actor.id, action: shadowBanned ? 'shadow_ban_on' : 'shadow_ban_off', targetType: 'user', targetId: user.id, note })
    return { success: true as const, user: { id: user.id, username: user.username, shadowBanned: user.shadow_banned === 1 } }
  })
}

/**
 * DELETE /api/upload/{id} by an admin, or a report resolved with
 * `remove_upload`: someone else's upload goes as an admin's removal (a
 * tombstone that answers 410, its image banned unless `ban` is false), logged
 * in the same transaction; the admin's own goes as an owner's.
 */
export function removeUploadAsAdmin(db: Executor, actor: Actor, uploadId: string, store: MediaStore, options: { note?: string, ban?: boolean, reason?: string | null } = {}) {
  return db.transaction(async (tx) => {
    const upload = await tx.get<{ user_id: string }>(sql`SELECT user_id FROM uploads WHERE id = ${uploadId}${FOR_UPDATE}`)
    if (!upload) throw apiError(404, 'Upload not found')
    if (upload.user_id === actor.id) return deleteUpload(tx, uploadId, actor, store)
    await logModeration(tx, { actorId: actor.id, action: 'upload_removed', targetType: 'upload', targetId: uploadId, note: options.note })
    return deleteUpload(tx, uploadId, actor, store, { by: 'admin', reason: options.reason ?? options.note ?? null, ban: options.ban ?? true })
  })
}
