import type { H3Event } from 'h3'
import { periodStart, type Period, type Sort } from '#shared/utils/ranking'
import { DEFAULT_RATING_PREFERENCES, ratingsShown, type ContentRating, type RatingPreferences } from '#shared/utils/content-rating'
import { withFavourited } from '../services/favourites'
import { hiddenTagsOf, ratingPreferencesOf } from '../services/lists'
import { sharedByPageView } from './in-process'
import type { CallerFilter, ListView } from '../services/lists'

/**
 * The view of a public list for this caller: the ranking and period asked
 * for, the ratings asked for (`rating=`), and for a signed-in caller their
 * hidden tags, the ratings they hide and (unvoted=true) the uploads they have
 * not voted on. unvoted=true without a session is a 401. An answer that
 * depends on the caller is marked private.
 */
export async function listViewOf(event: H3Event, query: { sort: Sort, period: Period, unvoted: boolean, rating?: readonly ContentRating[] }): Promise<ListView> {
  const actor = query.unvoted ? await requireUser(event) : await getOptionalUser(event)
  const filter = await filterOfActor(event, actor?.id ?? null, query.rating)
  if (query.unvoted) setCachePolicy(event, 'personal')
  return { sort: query.sort, since: periodStart(query.period), unvotedBy: query.unvoted ? actor!.id : null, ...filter }
}

/** The caller's filter on any other list (recent, top, a user's, favourites): `rating=` and their own hidden tags and ratings. */
export async function filterOfCaller(event: H3Event, rating?: readonly ContentRating[]): Promise<CallerFilter> {
  const actor = await getOptionalUser(event)
  return filterOfActor(event, actor?.id ?? null, rating)
}

/**
 * `rating=` less what the account hides, and its hidden tags; the answer is
 * marked private when the account's own settings narrow it. A visitor's
 * preferences stay in their browser: their lists answer as the defaults do
 * (which hide nothing) and the page blurs.
 */
async function filterOfActor(event: H3Event, userId: string | null, rating?: readonly ContentRating[]): Promise<CallerFilter> {
  const [hiddenTags, preferences] = userId
    ? await Promise.all([hiddenTagsOfActor(event, userId), ratingPreferencesOfActor(event, userId)])
    : [[], DEFAULT_RATING_PREFERENCES]
  const personal = hiddenTags.length > 0 || preferences.explicit === 'hide' || preferences.suggestive === 'hide'
  if (personal) setCachePolicy(event, 'personal')
  return { ratings: ratingsShown(rating, preferences), hiddenTags }
}

/** A signed-in caller's hidden tags, read once per page view (the array is shared: read it, do not change it). */
function hiddenTagsOfActor(event: H3Event, userId: string): Promise<readonly string[]> {
  return sharedByPageView(event, `hidden-tags ${userId}`, () => hiddenTagsOf(useDB(), userId))
}

/** A signed-in caller's rating preferences, read once per page view. */
function ratingPreferencesOfActor(event: H3Event, userId: string): Promise<RatingPreferences> {
  return sharedByPageView(event, `rating-preferences ${userId}`, () => ratingPreferencesOf(useDB(), userId))
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
