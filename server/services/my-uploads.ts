import type { Executor } from '../database/port'
import { sql } from '../database/sql'
import type { Actor } from './sessions'
import { CONTENT_RATINGS, type ContentRating } from '../../shared/utils/content-rating'
import { filtering, pageWithTotal, USER_SORTS, type Paging } from './lists'

/**
 * GET /api/profile/uploads: every upload of the caller, private ones included
 * (the one list where an owner finds them again). Entries are the per-user
 * list's (no `username`), mapped by lists/entry.ts; ownership is in the WHERE.
 * Not cached: the answer is the caller's own.
 */
export async function listMyUploads(db: Executor, actor: Pick<Actor, 'id'>, query: Paging & { sort: keyof typeof USER_SORTS, rating?: readonly ContentRating[] }) {
  // Only rating= narrows it: the caller's own uploads are never hidden from them.
  const ratings = query.rating && query.rating.length < CONTENT_RATINGS.length ? query.rating : null
  const { uploads, total } = await pageWithTotal(db, sql`uploads u WHERE u.user_id = ${actor.id}${filtering({ ratings, hiddenTags: [] })}`, USER_SORTS[query.sort], query,
    { username: false })
  return { uploads, total, page: query.page, limit: query.limit }
}
