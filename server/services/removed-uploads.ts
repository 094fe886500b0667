import type { Executor, Row } from '../database/port'
import type { removedUploads } from '../database/schema-postgres'
import { inList, sql } from '../database/sql'

type TombstoneRow = Pick<Row<typeof removedUploads>, 'id' | 'description' | 'uploader_id' | 'upload_type' | 'removed_at' | 'removed_by' | 'reason'>
  & { uploader_username: string | null }

/**
 * The one mapping of a tombstone to its answer (docs/behaviour.md,
 * "Curation"): an admin's keeps the description, uploader, type and reason;
 * an owner's only the id and when.
 */
function toTombstone(row: TombstoneRow) {
  if (row.removed_by === 'owner') return { id: row.id, removed_at: row.removed_at, removed_by: 'owner' as const }
  return {
    id: row.id,
    description: row.description,
    uploader: row.uploader_id !== null && row.uploader_username !== null ? { id: row.uploader_id, username: row.uploader_username } : null,
    upload_type: row.upload_type,
    removed_at: row.removed_at,
    removed_by: 'admin' as const,
    reason: row.reason,
  }
}

export type Tombstone = ReturnType<typeof toTombstone>

/** The tombstones of these removed uploads (ids with none are left out). */
export async function tombstones(db: Executor, ids: string[]): Promise<Tombstone[]> {
  if (ids.length === 0) return []
  const rows = await db.all<TombstoneRow>(sql`SELECT r.id, r.description, r.uploader_id, r.upload_type, r.removed_at, r.removed_by, r.reason,
      us.username AS uploader_username
    FROM removed_uploads r LEFT JOIN users us ON us.id = r.uploader_id WHERE r.id ${inList(ids)}`)
  return rows.map(toTombstone)
}

/** Whether an admin removed this upload: GET /api/upload/{id} then answers 410 rather than 404. */
export async function removedByAdmin(db: Executor, id: string): Promise<boolean> {
  return (await db.get(sql`SELECT id FROM removed_uploads WHERE id = ${id} AND removed_by = 'admin'`)) !== undefined
}
