/** A list entry: its columns, its row, and the one mapping to the API's shape. */
import { uploadStats } from '../../../shared/utils/rating'
import type { Executor, Row } from '../../database/port'
import type { uploads } from '../../database/schema-postgres'
import { sql } from '../../database/sql'
import { tagIdsOf, tagRows, type TagRow } from '../upload-tags'

export type ListRow = Pick<Row<typeof uploads>, 'id' | 'user_id' | 'filename' | 'description' | 'upload_type' | 'external_url'
  | 'width' | 'height' | 'upvotes' | 'downvote_count' | 'is_private' | 'created_at' | 'edited_at' | 'revision' | 'rating' | 'tag_ids' | 'favourites' | 'comments'> & { username?: string }

/** The columns every list entry selects from `uploads u` (`tag_ids` for its tags, not shown itself). */
export const ENTRY_COLUMNS = sql.raw(`u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url,
  u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments`)

/** The one mapping of an upload row to a list entry (docs/behaviour.md, Lists). */
export function toListEntry(row: ListRow, tags: TagRow[]) {
  return {
    id: row.id,
    user_id: row.user_id,
    filename: row.filename,
    description: row.description,
    upload_type: row.upload_type,
    external_url: row.external_url,
    width: row.width,
    height: row.height,
    upvotes: row.upvotes,
    downvote_count: row.downvote_count,
    is_private: row.is_private,
    created_at: row.created_at,
    edited_at: row.edited_at,
    revision: row.revision,
    rating: row.rating,
    tags,
    ...(row.username === undefined ? {} : { username: row.username }),
    stats: uploadStats(row.upvotes, row.downvote_count),
    favourites: row.favourites,
    comments: row.comments,
  }
}

export type ListEntry = ReturnType<typeof toListEntry>

/**
 * The tags of a page of uploads: their ids come with the rows (`tag_ids`,
 * kept by the database), the tags' names and slugs from the kept rows
 * (`tagRows`), so a page is one query. On the bench's PostgreSQL a query for
 * the page's links was a second round trip of 0.4–0.5 ms.
 */
export async function withTags(db: Executor, rows: ListRow[]): Promise<ListEntry[]> {
  if (rows.length === 0) return []
  const ids = rows.map(row => tagIdsOf(row.tag_ids))
  const tags = await tagRows(db, ids.flat())
  return rows.map((row, i) => toListEntry(row, ids[i]!.map(id => tags.get(id)!)))
}
