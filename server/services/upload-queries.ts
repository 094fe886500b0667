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
