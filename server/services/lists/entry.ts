/** A list entry: its columns, its row, and the one mapping to the API's shape. */
import { uploadStats } from '../../../shared/utils/rating'
import type { Executor, Row } from '../../database/port'
import type { uploads } from '../../database/schema-postgres'
import { sql } from '../../database/sql'
import { tagLists, type TagRow } from '../upload-tags'

/** A row of `uploads` as SQL text returns it. */
type UploadsRow = Row<typeof uploads>

/** The columns of `uploads u` named, in order, as one piece of a SELECT. */
function uploadColumns(names: readonly (keyof UploadsRow)[]) {
  return sql.raw(names.map(name => `u.${name}`).join(', '))
}

/**
 * The columns of a list entry, declared once: the row type, the SELECT piece
 * and the mapping below all follow from this list (`tag_ids` for its tags,
 * not shown itself). A field of an entry is one name here and one line in
 * toListEntry; a name that is no column of `uploads` does not compile.
 */
const ENTRY_FIELDS = ['id', 'user_id', 'filename', 'description', 'upload_type', 'external_url', 'width', 'height', 'upvotes',
  'downvote_count', 'is_private', 'created_at', 'edited_at', 'revision', 'rating', 'tag_ids', 'favourites', 'comments'] as const satisfies readonly (keyof UploadsRow)[]

/** The entry's columns of `uploads u`, for a SELECT (`SELECT ${ENTRY_COLUMNS}, us.username …`). */
export const ENTRY_COLUMNS = uploadColumns(ENTRY_FIELDS)

/** A row selected with ENTRY_COLUMNS, with the owner's `username` when the query joins it. */
export type ListRow = Pick<UploadsRow, typeof ENTRY_FIELDS[number]> & { username?: string }

/** The one mapping of an upload row to a list entry (docs/behaviour.md, Lists). */
export function toListEntry(row: ListRow, tags: readonly TagRow[]) {
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
 * kept by the database), the tags' names and slugs from the kept lists
 * (`tagLists`), so a page is one query. On the bench's PostgreSQL a query for
 * the page's links was a second round trip of 0.4–0.5 ms.
 */
export async function withTags(db: Executor, rows: ListRow[]): Promise<ListEntry[]> {
  if (rows.length === 0) return []
  const lists = await tagLists(db, rows.map(row => row.tag_ids))
  return rows.map((row, i) => toListEntry(row, lists[i]!))
}

/** The full upload's columns: the entry's and what only the upload's own page shows. */
const UPLOAD_FIELDS = [...ENTRY_FIELDS, 'original_name', 'locked'] as const satisfies readonly (keyof UploadsRow)[]

/** The full upload's columns of `uploads u`, for a SELECT that joins the owner as `us`. */
export const UPLOAD_COLUMNS = uploadColumns(UPLOAD_FIELDS)

/** A row selected with UPLOAD_COLUMNS, the owner's `username`, and `favourited` (0/1) when the viewer is signed in. */
export type UploadRow = Pick<UploadsRow, typeof UPLOAD_FIELDS[number]> & { username: string, favourited?: number }

/** The one mapping of an upload row to the full Upload object (GET /api/upload/{id}, an edit's answer): the list entry and what only it shows. */
export function toFullUpload(row: UploadRow, tags: readonly TagRow[]) {
  return {
    ...toListEntry(row, tags),
    original_name: row.original_name,
    locked: row.locked,
    username: row.username,
    ...(row.favourited === undefined ? {} : { favourited: row.favourited === 1 }),
  }
}
