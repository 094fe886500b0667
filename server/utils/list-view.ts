import type { H3Event } from 'h3'
import { periodStart, type Period, type Sort } from '#shared/utils/ranking'
import { withFavourited } from '../services/favourites'
import { hiddenTagsOf } from '../services/list-filters'
import { sharedByPageView } from './in-process'
import type { ListView } from '../services/uploads-list'

/**
 * The view of a public list for this caller: the ranking and period asked
 * for, and for a signed-in caller their hidden tags and (unvoted=true) the
 * uploads they have not voted on. unvoted=true without a session is a 401.
 * An answer that depends on the caller is marked private.
 */
export async function listViewOf(event: H3Event, query: { sort: Sort, period: Period, unvoted: boolean }): Promise<ListView> {
  const actor = query.unvoted ? await requireUser(event) : await getOptionalUser(event)
  const hiddenTags = actor ? await hiddenTagsOfActor(event, actor.id) : []
  if (query.unvoted || hiddenTags.length > 0) setCachePolicy(event, 'personal')
  return { sort: query.sort, since: periodStart(query.period), unvotedBy: query.unvoted ? actor!.id : null, hiddenTags }
}

/** The caller's hidden tags on a feature list (recent, top), the answer then private. */
export async function hiddenTagsOfCaller(event: H3Event): Promise<readonly string[]> {
  const actor = await getOptionalUser(event)
  const hiddenTags = actor ? await hiddenTagsOfActor(event, actor.id) : []
  if (hiddenTags.length > 0) setCachePolicy(event, 'personal')
  return hiddenTags
}

/** A signed-in caller's hidden tags, read once per page view (the array is shared: read it, do not change it). */
function hiddenTagsOfActor(event: H3Event, userId: string): Promise<readonly string[]> {
  return sharedByPageView(event, `hidden-tags ${userId}`, () => hiddenTagsOf(useDB(), userId))
}

/**
 * A list answer with `favourited` on each entry (under `uploads` or
 * `items`) for a signed-in caller, the answer then private; as it is for a
 * visitor. The answer may be the list cache's, shared by every caller: the
 * caller's field goes on a copy.
 */
export async function withCallerFavourites<T extends { uploads: readonly { id: string }[] } | { items: readonly { id: string }[] }>(event: H3Event, answer: T): Promise<T> {
  const actor = await getOptionalUser(event)
  if (!actor) return answer
  setCachePolicy(event, 'personal')
  if ('uploads' in answer) return { ...answer, uploads: await withFavourited(useDB(), actor.id, answer.uploads) }
  return { ...answer, items: await withFavourited(useDB(), actor.id, answer.items) }
}
