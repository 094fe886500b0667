import type { ModerationAction, ModerationTarget } from '../../shared/schemas/modlog'
import type { Executor, Row } from '../database/port'
import type { moderationLog } from '../database/schema-postgres'
import { sql } from '../database/sql'
import { orderedId } from './ordered-ids'

export interface ModerationEntry {
  /** The acting admin; null for the command line. */
  actorId: string | null
  action: ModerationAction
  targetType: ModerationTarget
  targetId: string
  note?: string | null
}

/**
 * What an entry's target was called when the entry was written: a username,
 * the first 80 characters of an upload's description or a comment's body, a report's reason or a tag's name
 * (docs/behaviour.md, "Trust and safety").
 */
function targetLabel(type: ModerationTarget, id: string) {
  switch (type) {
    case 'user': return sql`SELECT username FROM users WHERE id = ${id}`
    // A removed upload is named by what its tombstone kept (nothing for an owner's removal).
    case 'upload': return sql`SELECT coalesce((SELECT substr(description, 1, 80) FROM uploads WHERE id = ${id}),
      (SELECT substr(description, 1, 80) FROM removed_uploads WHERE id = ${id}))`
    case 'report': return sql`SELECT reason FROM reports WHERE id = ${id}`
    case 'comment': return sql`SELECT substr(body, 1, 80) FROM comments WHERE id = ${id}`
    case 'tag': return sql`SELECT name FROM tags WHERE id = ${id}`
  }
}

/** Whether an entry's target is still there, on `moderation_log m`. */
const TARGET_EXISTS = sql.raw(`CASE m.target_type
    WHEN 'user' THEN EXISTS (SELECT 1 FROM users t WHERE t.id = m.target_id)
    WHEN 'upload' THEN EXISTS (SELECT 1 FROM uploads t WHERE t.id = m.target_id)
    WHEN 'report' THEN EXISTS (SELECT 1 FROM reports t WHERE t.id = m.target_id)
    WHEN 'comment' THEN EXISTS (SELECT 1 FROM comments t WHERE t.id = m.target_id AND t.deleted = 0)
    WHEN 'tag' THEN EXISTS (SELECT 1 FROM tags t WHERE t.id = m.target_id)
  END`)

/**
 * Appends one entry to the moderation log, with the actor's username and
 * the target's label as they are now, so the entry stays readable after
 * either is gone. Called with the transaction of the action it records, so
 * the entry and the action commit together or not at all, and before that
 * action removes its target. Nothing updates or deletes log rows. The id
 * is time-ordered, so two entries of one millisecond list in the order
 * they were written (newest first: created_at, then id).
 */
export async function logModeration(tx: Executor, entry: ModerationEntry): Promise<void> {
  const now = Date.now()
  await tx.run(sql`INSERT INTO moderation_log (id, actor_id, actor_username, action, target_type, target_id, target_label, note, created_at)
    VALUES (${orderedId(now)}, ${entry.actorId}, (SELECT username FROM users WHERE id = ${entry.actorId}), ${entry.action}, ${entry.targetType},
      ${entry.targetId}, (${targetLabel(entry.targetType, entry.targetId)}), ${entry.note ?? null}, ${new Date(now).toISOString()})`)
}

type LogRow = Pick<Row<typeof moderationLog>, 'id' | 'actor_id' | 'actor_username' | 'action' | 'target_type' | 'target_id' | 'target_label' | 'note' | 'created_at'>
  & { target_exists: number | boolean }

/**
 * GET /api/admin/modlog: newest first. An entry keeps its actor's username
 * after the account is gone (`actor.id` null then); `actor` is null only for
 * the command line.
 */
export async function listModerationLog(db: Executor, query: { page: number, limit: number }) {
  const { total } = (await db.get<{ total: number }>(sql`SELECT count(*) AS total FROM moderation_log`))!
  const rows = await db.all<LogRow>(sql`SELECT m.id, m.actor_id, m.actor_username, m.action, m.target_type, m.target_id, m.target_label, m.note, m.created_at,
      ${TARGET_EXISTS} AS target_exists
    FROM moderation_log m
    ORDER BY m.created_at DESC, m.id DESC LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}`)
  return {
    entries: rows.map(row => ({
      id: row.id,
      actor: row.actor_username !== null ? { id: row.actor_id, username: row.actor_username } : null,
      action: row.action,
      targetType: row.target_type,
      targetId: row.target_id,
      targetLabel: row.target_label,
      targetExists: Boolean(row.target_exists),
      note: row.note,
      createdAt: row.created_at,
    })),
    total,
    page: query.page,
    limit: query.limit,
  }
}
