import { randomUUID } from 'node:crypto'
import type { ModerationAction, ModerationTarget } from '../../shared/schemas/modlog'
import type { Executor, Row } from '../database/port'
import type { moderationLog } from '../database/schema-postgres'
import { sql } from '../database/sql'

export interface ModerationEntry {
  /** The acting admin; null for the command line. */
  actorId: string | null
  action: ModerationAction
  targetType: ModerationTarget
  targetId: string
  note?: string | null
}

/**
 * Appends one entry to the moderation log. Called with the transaction of
 * the action it records, so the entry and the action commit together or not
 * at all. Nothing updates or deletes log rows.
 */
export async function logModeration(tx: Executor, entry: ModerationEntry): Promise<void> {
  await tx.run(sql`INSERT INTO moderation_log (id, actor_id, action, target_type, target_id, note, created_at)
    VALUES (${randomUUID()}, ${entry.actorId}, ${entry.action}, ${entry.targetType}, ${entry.targetId}, ${entry.note ?? null}, ${new Date().toISOString()})`)
}

type LogRow = Pick<Row<typeof moderationLog>, 'id' | 'actor_id' | 'action' | 'target_type' | 'target_id' | 'note' | 'created_at'> & { actor_username: string | null }

/** GET /api/admin/modlog: newest first. A deleted actor's entries stay, with `actor` null. */
export async function listModerationLog(db: Executor, query: { page: number, limit: number }) {
  const { total } = (await db.get<{ total: number }>(sql`SELECT count(*) AS total FROM moderation_log`))!
  const rows = await db.all<LogRow>(sql`SELECT m.id, m.actor_id, m.action, m.target_type, m.target_id, m.note, m.created_at, us.username AS actor_username
    FROM moderation_log m LEFT JOIN users us ON us.id = m.actor_id
    ORDER BY m.created_at DESC, m.id DESC LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}`)
  return {
    entries: rows.map(row => ({
      id: row.id,
      actor: row.actor_id && row.actor_username !== null ? { id: row.actor_id, username: row.actor_username } : null,
      action: row.action,
      targetType: row.target_type,
      targetId: row.target_id,
      note: row.note,
      createdAt: row.created_at,
    })),
    total,
    page: query.page,
    limit: query.limit,
  }
}
