/** What narrows a list for its caller (period, unvoted, ratings, hidden tags, tags asked for), as conditions and cache keys. */
import { CONTENT_RATINGS, type ContentRating } from '../../../shared/utils/content-rating'
import { PERIOD_SORTS, type Sort } from '../../../shared/utils/ranking'
import { slugify } from '../../../shared/utils/tags'
import { dialects, inList, sql, type Query } from '../../database/sql'
import { NOTHING } from './pieces'

/** Distinct slugs of a comma-separated `tags` parameter (names or slugs). */
export function tagSlugs(param: string | undefined): string[] {
  return [...new Set((param ?? '').split(',').map(slugify).filter(Boolean))]
}

/**
 * What narrows a list for its caller: the ratings shown (`rating=` without
 * those the caller's preferences hide; null: every rating) and the caller's
 * hidden tags (uploads carrying any of them are left out).
 */
export interface CallerFilter {
  ratings: readonly ContentRating[] | null
  hiddenTags: readonly string[]
}

/** Nothing narrowed: every rating, no hidden tags. */
export const NO_FILTER: CallerFilter = { ratings: null, hiddenTags: [] }

/** What narrows a public list beyond visibility: its order, period, and the caller's own filters. */
export interface ListView extends CallerFilter {
  sort: Sort
  /** Lower bound of created_at (ISO), from the period; ignored by new and hot. */
  since: string | null
  /** Only uploads this account has not voted on (unvoted=true). */
  unvotedBy: string | null
}

export const PUBLIC_VIEW: ListView = { sort: 'new', since: null, unvotedBy: null, ...NO_FILTER }

/** Whether anything of the caller's (unvoted, ratings, hidden tags) narrows the view: then no kept count is its total. */
export const narrowed = (view: ListView) => view.unvotedBy !== null || isFiltering(view)

/** Whether the filter leaves anything out. */
export const isFiltering = (filter: CallerFilter) => filter.ratings !== null || filter.hiddenTags.length > 0

/**
 * The view's conditions on `uploads u`, each starting with AND (empty when
 * none apply). A period's range holds a thousandth of the uploads (a day) or
 * all of them: PostgreSQL plans a statement with it for its values each time.
 */
export function viewConditions(view: ListView): Query {
  const since = periodSince(view)
  return sql`${since === null ? sql.raw('') : sql.replanned(sql` AND u.created_at >= ${since}`)}${callerConditions(view)}`
}

/** The lower bound of created_at the view's sort takes, or null. */
export const periodSince = (view: ListView) => PERIOD_SORTS.includes(view.sort) ? view.since : null

/**
 * The caller's own conditions (unvoted, ratings, hidden tags) on the upload whose id
 * is `upload` (`uploads u` unless told), each starting with AND.
 */
export function callerConditions(view: ListView, upload: Query = UPLOAD_ID): Query {
  return sql`${view.unvotedBy === null ? sql.raw('') : sql` AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.user_id = ${view.unvotedBy} AND v.upload_id = ${upload})`}${
    filtering(view, upload, view.sort === 'new')}`
}

export const UPLOAD_ID = sql`u.id`

/**
 * The filter's conditions on the upload whose id is `upload` (`uploads u` unless told), each
 * starting with AND. `newest`: the list is read newest first (see ratedAs).
 */
export function filtering(filter: CallerFilter, upload: Query = UPLOAD_ID, newest = false): Query {
  return sql`${ratedAs(filter.ratings, upload, newest)}${hidingTags(filter.hiddenTags, upload)}`
}

/**
 * ` AND` the upload's rating is one of `ratings` (empty for null: every
 * rating). One rating of a list read newest first is a range of
 * uploads_public_rating_newest_idx, however rare the rating. Otherwise the
 * list's own order index is walked and each row's rating checked, so a page
 * costs what it skips, never a sort of the rating's rows: SQLite (without
 * statistics) would read the whole rating's range and sort it, 900,000 rows
 * of `safe` at 1,000,000 uploads; a unary plus keeps it off the rating index.
 * Two ratings are written as "not the third", which no index answers either.
 * On a tag's links (`upload` another id) the rating is read by the upload's
 * primary key.
 */
function ratedAs(ratings: readonly ContentRating[] | null, upload: Query, newest: boolean): Query {
  if (ratings === null) return NOTHING
  if (ratings.length === 0) return sql` AND 1 = 0`
  const rating = upload !== UPLOAD_ID
    ? sql`(SELECT r.rating FROM uploads r WHERE r.id = ${upload})`
    : newest && ratings.length === 1 ? sql`u.rating` : UNINDEXED_RATING
  if (ratings.length === 1) return sql` AND ${rating} = ${ratingLiteral(ratings[0]!)}`
  return sql` AND ${rating} <> ${ratingLiteral(CONTENT_RATINGS.find(other => !ratings.includes(other))!)}`
}

/**
 * A rating written into the statement, not bound: there are three, so a few
 * texts at most, and PostgreSQL plans each for its value. Bound, its generic
 * plan took `rating <> $1` to match nothing where every upload had the same
 * rating (a young site, or the bench's seed), so it planned the list anew on
 * every call.
 */
function ratingLiteral(rating: ContentRating): Query {
  if (!CONTENT_RATINGS.includes(rating)) throw new Error(`Not a content rating: ${rating}`)
  return sql`${sql.raw(`'${rating}'`)}`
}

/** `u.rating` that SQLite reads from the row, not from an index on it. */
const UNINDEXED_RATING = sql`${dialects({ sqlite: '+u.rating', postgres: 'u.rating' })}`

/** The part of a cache key that tells filters apart. */
export function filterKey(filter: CallerFilter): string {
  return `${filter.ratings?.join(',') ?? '*'} ${filter.hiddenTags.join(',')}`
}

/** ` AND` the upload (`uploads u` unless told) carries none of the slugs (empty for none). */
export function hidingTags(slugs: readonly string[], upload: Query = UPLOAD_ID): Query {
  if (slugs.length === 0) return NOTHING
  return sql` AND NOT EXISTS (SELECT 1 FROM upload_tags ht
    WHERE ht.upload_id = ${upload} AND ht.tag_id IN (SELECT id FROM tags WHERE slug ${inList(slugs)}))`
}

/** The part of a cache key that tells views apart. */
export function viewKey(view: ListView): string {
  const since = periodSince(view) ?? ''
  return `${view.sort} ${since} ${view.unvotedBy ?? ''} ${filterKey(view)}`
}
