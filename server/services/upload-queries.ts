import { sql } from '../database/sql'
import type { Actor } from './sessions'

/**
 * The one upload visibility rule, on `uploads u`: public, the viewer's own,
 * or any upload for an admin. `viewer` null = anonymous (public only).
 */
export function visibleTo(viewer: Pick<Actor, 'id' | 'isAdmin'> | null) {
  if (!viewer) return sql`u.is_private = 0`
  return sql`(u.is_private = 0 OR u.user_id = ${viewer.id} OR ${viewer.isAdmin ? 1 : 0} = 1)`
}

/** The columns every list entry selects from `uploads u` (`tag_ids` for its tags, not shown itself). */
export const ENTRY_COLUMNS = sql.raw(`u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url,
  u.width, u.height, u.upvotes, u.downvote_count, u.is_private, u.created_at, u.edited_at, u.revision, u.rating, u.tag_ids, u.favourites, u.comments`)
