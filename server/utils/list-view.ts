import type { H3Event } from 'h3'
import { periodStart, type Period, type Sort } from '#shared/utils/ranking'
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
