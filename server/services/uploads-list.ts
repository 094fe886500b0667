import { CONTENT_RATINGS, type ContentRating } from '../../shared/utils/content-rating'
import { PERIOD_SORTS, type Sort } from '../../shared/utils/ranking'
import { uploadStats } from '../../shared/utils/rating'
import { slugify } from '../../shared/utils/tags'
import type { Database, Executor, Row } from '../database/port'
import type { uploads } from '../database/schema-postgres'
import { dialects, inList, sql, type Query } from '../database/sql'
import { apiError } from './errors'
import { flushRankCopies } from './rank-copies'
import { cachedList, type DataVersion } from './list-cache'
import { resolveSlugsIn } from './tag-rules'
import { tagIdsOf, tagRows, type TagRow } from './upload-tags'
import { ENTRY_COLUMNS } from './upload-queries'

export type ListRow = Pick<Row<typeof uploads>, 'id' | 'user_id' | 'filename' | 'description' | 'upload_type' | 'external_url'
  | 'width' | 'height' | 'upvotes' | 'downvote_count' | 'is_private' | 'created_at' | 'edited_at' | 'revision' | 'rating' | 'tag_ids' | 'favourites' | 'comments'> & { username?: string }

/** The cheapest key from an index entry back to its row: SQLite's rowid, PostgreSQL's primary key. */
const ROW_KEY = dialects({ sqlite: 'rowid', postgres: 'id' })
/** A join whose order SQLite must keep (CROSS JOIN pins it there); PostgreSQL plans it well as is. */
const THEN_JOIN = dialects({ sqlite: 'CROSS JOIN', postgres: 'JOIN' })

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

/** Distinct slugs of a comma-separated `tags` parameter (names or slugs). */
export function tagSlugs(param: string | undefined): string[] {
  return [...new Set((param ?? '').split(',').map(slugify).filter(Boolean))]
}

/**
 * SQLite: how many times more public uploads the second rarest tag of an AND
 * must carry than the rarest for the filter to start from the rarest tag's
 * links and look each up in the others' by primary key, rather than
 * intersect every tag's links. A lookup costs about as much as reading 7–9
 * links in a merge (at 100,000 uploads, counting an AND's matches: 0.8 µs a
 * lookup against 0.11 µs a link merged); a tag on 57 uploads AND one on 5,152
 * went from 0.50 to 0.04 ms, two tags of 1,651 and 2,178 stay intersected
 * (0.45 ms; looked up, 1.3).
 */
const LOOKUP_RATIO = 10

/**
 * Counts kept for a minute by key (at most KEPT_COUNTS keys; the oldest go
 * first), apart for each database, so a process that opens several (`npm run
 * bench:scale`, one per size) never reads one's counts for another's.
 */
class KeptCounts {
  private readonly byDatabase = new WeakMap<Executor, Map<string, { count: number, until: number }>>()

  get(db: Executor, key: string, now: number): number | undefined {
    const kept = this.byDatabase.get(db)?.get(key)
    return kept && kept.until > now ? kept.count : undefined
  }

  set(db: Executor, key: string, count: number, now: number): void {
    let counts = this.byDatabase.get(db)
    if (!counts) this.byDatabase.set(db, counts = new Map())
    counts.delete(key)
    if (counts.size >= KEPT_COUNTS) counts.delete(counts.keys().next().value!)
    counts.set(key, { count, until: now + KEPT_COUNT_TTL_MS })
  }
}
const KEPT_COUNTS = 10_000
const KEPT_COUNT_TTL_MS = 60_000

/**
 * Public upload counts by slug, as an AND reads them to choose its way, kept
 * so a rare tag's lookup is one statement. A count a minute old can only
 * choose the slower way, never other uploads, and a tag once seen exists for
 * good (no route deletes a tag).
 */
const tagSizesKept = new KeptCounts()

/** The slugs with their public upload counts, rarest first (ties by slug), or null when a slug has no tag. */
async function tagSizes(db: Executor, slugs: string[]): Promise<{ slug: string, publicUploads: number }[] | null> {
  const now = Date.now()
  const sizes = new Map<string, number>()
  const missing: string[] = []
  for (const slug of slugs) {
    const kept = tagSizesKept.get(db, slug, now)
    if (kept !== undefined) sizes.set(slug, kept)
    else missing.push(slug)
  }
  if (missing.length > 0) {
    const rows = await db.all<{ slug: string, public_uploads: number }>(sql`SELECT slug, public_uploads FROM tags WHERE slug ${inList(missing)}`)
    if (rows.length < missing.length) return null
    for (const row of rows) {
      sizes.set(row.slug, row.public_uploads)
      tagSizesKept.set(db, row.slug, row.public_uploads, now)
    }
  }
  return slugs.map(slug => ({ slug, publicUploads: sizes.get(slug)! }))
    .sort((a, b) => a.publicUploads - b.publicUploads || (a.slug < b.slug ? -1 : 1))
}

/**
 * The kept count of public uploads carrying both tags (tag_pairs, kept by
 * triggers; no row when they never met), as a statement yielding `total`.
 * The pair's key is ordered by the database, as its triggers order it.
 */
function pairCount(first: string, second: string): Query {
  const [a, b] = [tagIdOf(first), tagIdOf(second)]
  return sql`SELECT coalesce((SELECT public_uploads FROM tag_pairs
    WHERE first_tag_id = ${LEAST}(${a}, ${b}) AND second_tag_id = ${GREATEST}(${a}, ${b})), 0) AS total`
}

const LEAST = dialects({ sqlite: 'min', postgres: 'least' })
const GREATEST = dialects({ sqlite: 'max', postgres: 'greatest' })

/**
 * Pair counts by their slugs, as an AND of two tags reads them to choose its
 * way (pairPage), kept like the tags' sizes: an old count can only choose the
 * slower way; a page's total always comes from the table.
 */
const pairSizesKept = new KeptCounts()

async function pairSize(db: Executor, first: string, second: string): Promise<number> {
  const key = first < second ? `${first} ${second}` : `${second} ${first}`
  const now = Date.now()
  const kept = pairSizesKept.get(db, key, now)
  if (kept !== undefined) return kept
  const count = (await db.get<{ total: number }>(pairCount(first, second)))!.total
  pairSizesKept.set(db, key, count, now)
  return count
}

/**
 * Whether a page of two tags walks the rarer tag's links (pairIds) rather
 * than matching both tags whole: `share` is the part of each tag's range the
 * page reaches (its last row over the uploads carrying both). SQLite reads
 * that share of the rarer tag's links, each looked up in the other tag's
 * range, a lookup costing 4 links merged (0.34 µs against 0.08 at 100,000
 * uploads), against merging all of both. PostgreSQL merges that share of
 * both ranges, 0.08 µs an index entry, against its GIN index: 8.6 ns an
 * entry of both posting lists and 1.9 µs an upload matched, fetched and
 * sorted (fitted at 1,000,000 uploads: two tags of 16,792 and 21,697
 * uploads, 406 with both, 1.1 ms by GIN and 0.10 walked; one of 576 and one
 * of 51,237, 0.5 ms by GIN and 1.4-2.0 walked).
 */
function walkPays(db: Executor, rarer: number, other: number, pair: number, share: number): boolean {
  if (db.dialect === 'postgres') return share * (rarer + other) * 0.08 < (rarer + other) * 0.0086 + pair * 1.9
  return share * rarer * 4 < rarer + other
}

/**
 * A page of the public uploads carrying both of two tags, over all time in
 * the order of `sort`, with its total; or null when matching both tags whole
 * costs less (walkPays) or a slug has no tag. The total is the pair's kept
 * count (tag_pairs), so nothing counts the intersection, which grows with
 * the tags. The page reads the rarer tag's public links in the order's index
 * as a tag's page does (pairIds), as far as the page reaches: its cost
 * follows how often the tags meet, not how many uploads carry them. Page 1
 * of two common tags (`npm run bench:scale`, before and after in the same
 * hour; 1,651 and 2,178 uploads, 31 with both, at 100,000 uploads; 16,792
 * and 21,697, 406 with both, at 1,000,000), matched whole and counted: 0.29
 * and 2.65 ms on SQLite, 0.26 and 1.09 on PostgreSQL; walked: 0.24 and 0.20,
 * 0.26 and 0.25.
 */
async function pairPage(db: Executor, slugs: string[], paging: Paging, sort: Sort) {
  const tags = await tagSizes(db, slugs)
  if (!tags) return null
  const [rarer, other] = tags as [{ slug: string, publicUploads: number }, { slug: string, publicUploads: number }]
  const pair = await pairSize(db, rarer.slug, other.slug)
  const share = pair === 0 ? 1 : Math.min(1, (offset(paging) + paging.limit) / pair)
  if (!walkPays(db, rarer.publicUploads, other.publicUploads, pair, share)) return null
  return totalAndPage(db, pairCount(rarer.slug, other.slug), pairIds(tagIdOf(rarer.slug), tagIdOf(other.slug), sort, pageWindow(paging)),
    LIST_SORTS[sort], { username: true, join: sql`u.id = p.upload_id` })
}

/**
 * The ids of the public uploads carrying both tags (`rarer` and `other`,
 * each a tag id or a statement giving it) in the order of `sort`, in
 * `window`: the rarer tag's public links read in the order's index
 * (upload_tags_tag_newest_idx, upload_tags_tag_top_idx …), each joined to
 * the other tag's link of the same upload by the order's columns (copied on
 * every link, see taggedIds) and the upload id, one entry of the same index.
 * SQLite looks each up there; PostgreSQL merges the two ranges, both read in
 * the page's order: at 100,000 uploads, page 1 of two common tags took
 * 0.15-0.17 ms merged so, and about 0.8 ms looked up link by link in
 * upload_tags_tag_idx (an EXISTS, which it also planned as a join of both
 * tags' whole ranges).
 */
function pairIds(rarer: Query, other: Query, sort: Sort, window: Query): Query {
  const columns = ORDER_COLUMNS[sort].map(column => `upload_${column}`)
  return sql`SELECT ut.upload_id FROM upload_tags ut ${THEN_JOIN} upload_tags o ON ${sql.raw(columns.map(column => `o.${column} = ut.${column}`).join(' AND '))}
    WHERE ${publicLinksOf(rarer)} AND o.tag_id = ${other} AND o.upload_is_private = 0
    ORDER BY ${sql.raw(columns.map(column => `ut.${column} DESC`).join(', '))} ${window}`
}

/**
 * The public uploads carrying the slugs, as a list's source: `uploads u` and
 * its WHERE (more conditions may follow, each starting with AND), or null
 * when none can (`all` with a slug no tag has). Any of them (`match=any`) or
 * all of them.
 *
 * On PostgreSQL, one condition on the upload's tag ids read from
 * uploads_public_tag_ids_idx (a GIN index over `tag_ids` as an array, see
 * drizzle/postgres/0017), whose posting lists are intersected or united
 * inside the index. On the bench's 100,000 uploads, counted and paged: all of
 * two tags of 2,178 and 1,651 uploads in 0.66 ms (1.59 joining their links),
 * a tag of 57 and one of 5,152 in 0.37 (0.48 looking the rare one's up), one
 * tag of 1,139 in 4.6 (10.3), any of two common tags in 11 (27). A slug no
 * tag has stands for NULL, which no array contains.
 */
async function taggedSource(db: Executor, slugs: string[], match: 'all' | 'any'): Promise<Query | null> {
  if (db.dialect === 'postgres') return sql`uploads u WHERE u.is_private = 0 AND ${carryingTags(slugs, match)}`
  const tagged = await taggedUploads(db, slugs, match)
  return tagged && sql`(${tagged}) m CROSS JOIN uploads u ON u.id = m.upload_id WHERE u.is_private = 0`
}

/**
 * One tag's public uploads created since `since`, as a list's source: the
 * period's links of the tag in upload_tags_tag_newest_idx, each carrying its
 * upload's date and privacy, so a period reads its own uploads, not all of
 * the tag's. The date is the link's copy, not a condition on `uploads`, so
 * PostgreSQL keeps one plan for every period. Side by side at 100,000
 * uploads, a tag of 1,139 ranked over a week (2 uploads): SQLite 1.56 -> 0.07
 * ms, PostgreSQL 2.32 -> 1.27; over a month (33): 2.13 -> 0.32 and 4.46 -> 1.63.
 */
function oneTagSince(slug: string, since: string): Query {
  return sql`upload_tags ut ${THEN_JOIN} uploads u ON u.id = ut.upload_id
    WHERE ${publicLinksOf(tagIdOf(slug))} AND ut.upload_created_at >= ${since}`
}

/** The tag's id, looked up by its slug inside the statement. */
function tagIdOf(slug: string): Query {
  return sql`(SELECT id FROM tags WHERE slug = ${slug})`
}

/**
 * `upload_tags ut` restricted to one tag's public links: one range of
 * upload_tags_tag_newest_idx (tag, upload's date, upload; public links only).
 * `tag` is the tag's id, or a statement giving it.
 */
function publicLinksOf(tag: string | Query): Query {
  return sql`ut.tag_id = ${tag} AND ut.upload_is_private = 0`
}

/**
 * The ids of one tag's public uploads in the order of `sort`, in `window`
 * (LIMIT/OFFSET), read in its index's order: each link carries its upload's
 * order columns as `upload_<column>` (copied by triggers), so a tag's public
 * uploads in any order are one range of an index on upload_tags
 * (upload_tags_tag_newest_idx, upload_tags_tag_top_idx …); `narrowing` (conditions on
 * `ut.upload_id`, each starting with AND) leaves links out as they are read.
 */
export function taggedIds(tag: string | Query, sort: Sort, window: Query, narrowing: Query = NOTHING): Query {
  return sql`SELECT ut.upload_id FROM upload_tags ut WHERE ${publicLinksOf(tag)}${narrowing}
    ORDER BY ${sql.raw(ORDER_COLUMNS[sort].map(column => `ut.upload_${column} DESC`).join(', '))} ${window}`
}

/** PostgreSQL: `uploads u` carries all (or any) of the slugs, as uploads_public_tag_ids_idx answers. */
export function carryingTags(slugs: string[], match: 'all' | 'any'): Query {
  return match === 'all'
    ? sql`string_to_array(u.tag_ids, ',') @> ARRAY[${sql.join(slugs.map(slug => tagIdOf(slug)))}]`
    : sql`string_to_array(u.tag_ids, ',') && ARRAY(SELECT id FROM tags WHERE slug ${inList(slugs)})`
}

/**
 * SQLite: the ids of uploads carrying the slugs, as a column `upload_id`, or
 * null when none can (`all` with a slug no tag has). Any of them: each tag's
 * links. All of them, rarest tag first (tags.public_uploads): when the rarest
 * is far rarer than the rest (LOOKUP_RATIO), its links with each other tag
 * looked up; otherwise each tag's links intersected, read in upload id order
 * from upload_tags_tag_idx, without a sort.
 */
async function taggedUploads(db: Executor, slugs: string[], match: 'all' | 'any'): Promise<Query | null> {
  if (match === 'any' || slugs.length === 1) {
    return sql`SELECT DISTINCT ut.upload_id FROM upload_tags ut WHERE ut.tag_id IN (SELECT id FROM tags WHERE slug ${inList(slugs)})`
  }
  const tags = await tagSizes(db, slugs)
  if (!tags) return null
  const named = tags.map(tag => tagIdOf(tag.slug))
  const [rarest, ...others] = named
  if (tags[1]!.publicUploads >= LOOKUP_RATIO * Math.max(1, tags[0]!.publicUploads)) {
    // LIMIT -1 (none) keeps SQLite from flattening this into the caller's join with
    // uploads, which read each of the rare tag's uploads before checking its other tags:
    // a tag on 576 uploads AND one on 51,237 of 1,000,000, the page 3.9 -> 1.7 ms.
    return sql`SELECT t0.upload_id FROM upload_tags t0 WHERE t0.tag_id = ${rarest}${sql.join(others.map(tag => sql`
      AND EXISTS (SELECT 1 FROM upload_tags t1 WHERE t1.upload_id = t0.upload_id AND t1.tag_id = ${tag})`), '')} LIMIT -1`
  }
  return sql.join(named.map(tag => sql`SELECT upload_id FROM upload_tags WHERE tag_id = ${tag}`), ' INTERSECT ')
}

export interface Paging { page: number, limit: number }
const offset = ({ page, limit }: Paging) => (page - 1) * limit

/**
 * A list's LIMIT and OFFSET. The LIMIT is written into the SQL: SQLite runs
 * a bound LIMIT slower (the statement of page 500 of the newest, over 100,000
 * uploads side by side: 0.61 ms bound, 0.45 ms written out; page 1's 0.40 and
 * 0.22 ms). The first page's OFFSET is written too, so PostgreSQL plans page 1,
 * the page nearly every request asks for, knowing it reads a few rows, and
 * keeps that plan (server/database/postgres.ts). Other pages keep the OFFSET a
 * parameter, so page numbers add no statements; limits are at most 100
 * (shared/schemas). Every paged statement here ends with it.
 */
export function pageWindow(paging: Paging): Query {
  if (!Number.isSafeInteger(paging.limit) || paging.limit <= 0) return sql`LIMIT ${paging.limit} OFFSET ${offset(paging)}`
  const limit = sql.raw(String(paging.limit))
  return paging.page === 1 ? sql`LIMIT ${limit} OFFSET 0` : sql`LIMIT ${limit} OFFSET ${offset(paging)}`
}

const NEWEST = sql`u.created_at DESC, u.id DESC`

/** An empty fragment. */
const NOTHING = sql`${sql.raw('')}`

/**
 * The orders of the public lists (docs/behaviour.md, "Voting flow and
 * feeds"), ties newest first, as the columns each sorts by (all descending).
 * hot, best and divisive read the kept score columns (generated from the
 * counts, see server/database/ranking-columns.ts), each with its own partial
 * index; top reads uploads_public_top_idx. A period's page merges day heads
 * that carry these columns (periodPage).
 */
const ORDER_COLUMNS: Record<Sort, readonly string[]> = {
  new: ['created_at', 'id'],
  top: ['upvotes', 'downvote_count', 'created_at', 'id'],
  hot: ['hot_score', 'created_at', 'id'],
  best: ['best_score', 'created_at', 'id'],
  divisive: ['divisive_score', 'created_at', 'id'],
  favourites: ['favourites', 'created_at', 'id'],
}

/**
 * The sorts whose columns every tag link copies (upload_tags.upload_*), so a
 * tag's page and a pair's are one range of a link index (tagPage, pairPage).
 * Favourites are not copied: a favourite would rewrite each of its upload's
 * links; a tag's page by favourites matches the tag's uploads and sorts them
 * on uploads_public_favourites_idx's column, as a filter of several tags does.
 */
const LINK_SORTS: readonly Sort[] = ['new', 'top', 'hot', 'best', 'divisive']

/** Each public list's ORDER BY, from ORDER_COLUMNS. */
export const LIST_SORTS = Object.fromEntries(Object.entries(ORDER_COLUMNS)
  .map(([sort, columns]) => [sort, sql`${sql.raw(columns.map(column => `u.${column} DESC`).join(', '))}`])) as Record<Sort, Query>

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
const narrowed = (view: ListView) => view.unvotedBy !== null || isFiltering(view)

/** Whether the filter leaves anything out. */
const isFiltering = (filter: CallerFilter) => filter.ratings !== null || filter.hiddenTags.length > 0

/**
 * The view's conditions on `uploads u`, each starting with AND (empty when
 * none apply). A period's range holds a thousandth of the uploads (a day) or
 * all of them: PostgreSQL plans a statement with it for its values each time.
 */
function viewConditions(view: ListView): Query {
  const since = periodSince(view)
  return sql`${since === null ? sql.raw('') : sql.replanned(sql` AND u.created_at >= ${since}`)}${callerConditions(view)}`
}

/** The lower bound of created_at the view's sort takes, or null. */
const periodSince = (view: ListView) => PERIOD_SORTS.includes(view.sort) ? view.since : null

/**
 * The caller's own conditions (unvoted, ratings, hidden tags) on the upload whose id
 * is `upload` (`uploads u` unless told), each starting with AND.
 */
function callerConditions(view: ListView, upload: Query = UPLOAD_ID): Query {
  return sql`${view.unvotedBy === null ? sql.raw('') : sql` AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.user_id = ${view.unvotedBy} AND v.upload_id = ${upload})`}${
    filtering(view, upload, view.sort === 'new')}`
}

const UPLOAD_ID = sql`u.id`

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
  if (ratings.length === 1) return sql` AND ${rating} = ${ratings[0]!}`
  return sql` AND ${rating} <> ${CONTENT_RATINGS.find(other => !ratings.includes(other))!}`
}

/** `u.rating` that SQLite reads from the row, not from an index on it. */
const UNINDEXED_RATING = sql`${dialects({ sqlite: '+u.rating', postgres: 'u.rating' })}`

/** The part of a cache key that tells filters apart. */
function filterKey(filter: CallerFilter): string {
  return `${filter.ratings?.join(',') ?? '*'} ${filter.hiddenTags.join(',')}`
}

/** ` AND` the upload (`uploads u` unless told) carries none of the slugs (empty for none). */
export function hidingTags(slugs: readonly string[], upload: Query = UPLOAD_ID): Query {
  if (slugs.length === 0) return NOTHING
  return sql` AND NOT EXISTS (SELECT 1 FROM upload_tags ht
    WHERE ht.upload_id = ${upload} AND ht.tag_id IN (SELECT id FROM tags WHERE slug ${inList(slugs)}))`
}

/** The part of a cache key that tells views apart. */
function viewKey(view: ListView): string {
  const since = periodSince(view) ?? ''
  return `${view.sort} ${since} ${view.unvotedBy ?? ''} ${filterKey(view)}`
}

/**
 * The row keys of a page past the first of the newest public uploads (no
 * filters of the caller's own). Skipping the offset row by row cost a walk
 * of the newest index as long as the offset: on the bench's PostgreSQL, page
 * 500 read 10,000 index entries (3.7 ms in EXPLAIN ANALYZE against 0.2 ms for
 * page 1). Instead, upload_days (public uploads per day, kept by triggers)
 * is summed from the newest day to the day that holds the page's first row,
 * and the page is read from the end of that day, skipping only its newer
 * rows of that day: 0.6 ms, and a cost that follows the days and the uploads
 * of one day, not the offset. Where the uploads are few a day, summing the
 * days cost a walk of every day back to the page's: page 500 of 10 at 10,000
 * uploads summed 580 of 1,096 days (0.21 ms against 0.07 for page 1). So a
 * page whose first row is older than the newest RECENT_DAYS days sums
 * upload_months (kept alike) to find its month, then that month's days. One
 * statement, so the counts and the rows are read at one moment. LIMIT is
 * written out, so PostgreSQL keeps one plan (limits are at most 100).
 *
 * PostgreSQL only: SQLite walks its covering index at about 16 ns an entry
 * (page 500 in 0.16 ms), and sums every day before picking one (1.4 ms).
 */
async function newestPage(db: Executor, paging: Paging): Promise<Query> {
  const skip = offset(paging)
  const newer = sql`sum(public_uploads) OVER (ORDER BY day DESC) AS through`
  const start = skip < await recentUploads(db)
    ? sql`SELECT d.day, ${skip} - (d.through - d.public_uploads) AS skip FROM (SELECT day, public_uploads, ${newer} FROM upload_days) d
      WHERE d.through > ${skip} ORDER BY d.day DESC LIMIT 1`
    : sql`SELECT d.day, ${skip} - (m.before + d.through - d.public_uploads) AS skip
      FROM (SELECT x.month, x.through - x.public_uploads AS before
        FROM (SELECT month, public_uploads, sum(public_uploads) OVER (ORDER BY month DESC) AS through FROM upload_months) x
        WHERE x.through > ${skip} ORDER BY x.month DESC LIMIT 1) m
      CROSS JOIN LATERAL (SELECT day, public_uploads, ${newer} FROM upload_days WHERE day > m.month AND day < m.month || '.') d
      WHERE m.before + d.through > ${skip} ORDER BY d.day DESC LIMIT 1`
  return sql`WITH start AS MATERIALIZED (${start})
    SELECT u.id AS rid FROM uploads u WHERE u.is_private = 0 AND u.created_at < (SELECT to_char(CAST(day AS date) + 1, 'YYYY-MM-DD') FROM start)
    ORDER BY ${NEWEST} LIMIT ${sql.raw(String(Math.trunc(paging.limit)))} OFFSET coalesce((SELECT skip FROM start), 0)`
}

/**
 * Public uploads of the newest RECENT_DAYS days of upload_days, kept like the
 * tags' sizes: a count a minute old can only choose the slower way to a page
 * (newestPage), never other rows.
 */
const recentKept = new KeptCounts()
const RECENT_DAYS = 32

async function recentUploads(db: Executor): Promise<number> {
  const now = Date.now()
  const kept = recentKept.get(db, 'recent', now)
  if (kept !== undefined) return kept
  const count = Number((await db.get<{ n: number | string }>(sql`SELECT coalesce(sum(public_uploads), 0) AS n
    FROM (SELECT public_uploads FROM upload_days ORDER BY day DESC LIMIT ${sql.raw(String(RECENT_DAYS))}) r`))!.n)
  recentKept.set(db, 'recent', count, now)
  return count
}

/** GET /api/uploads: public uploads in the view's order (no total). */
export function listUploads(db: Database, paging: Paging, view: ListView = PUBLIC_VIEW, at?: DataVersion) {
  return cachedList(db, `uploads ${paging.page} ${paging.limit} ${viewKey(view)}`, async () => {
    const order = LIST_SORTS[view.sort]
    const since = periodSince(view)
    const entries = (page: Query) => db.all<ListRow>(sql`SELECT ${ENTRY_COLUMNS}, us.username
    FROM (${page}) p
    ${THEN_JOIN} uploads u ON u.${ROW_KEY} = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY ${order}`)
    let rows: ListRow[]
    if (since !== null && offset(paging) + paging.limit <= PERIOD_MERGE_MAX) {
      // A long period's page is first looked for among the ranking's first rows, in the
      // statement that reads its entries: a full page is the page (periodWalk).
      const walk = periodWalk(since, view, paging)
      const walked = walk && await entries(walk)
      rows = walked?.length === paging.limit ? walked : await entries(await periodPage(db, since, view, paging))
    }
    else {
      rows = await entries(db.dialect === 'postgres' && view.sort === 'new' && paging.page > 1 && !narrowed(view)
        ? await newestPage(db, paging)
        : sql`SELECT u.${ROW_KEY} AS rid FROM uploads u WHERE u.is_private = 0${viewConditions(view)} ORDER BY ${order} ${pageWindow(paging)}`)
    }
    return { uploads: await withTags(db, rows), page: paging.page, limit: paging.limit }
  }, at)
}

/**
 * Deepest row (offset + limit) a period's page is merged from day heads for;
 * deeper pages walk the whole period instead (each day would give that many).
 */
const PERIOD_MERGE_MAX = 200

/**
 * On PostgreSQL, a period's page reads `offset + limit` rows from each of its
 * days up to this many rows in all, and bounds the reads above it (periodPage).
 * An index row costs it about 0.2 µs, starting a read on a day several, so
 * reading more rows in fewer starts wins on small reads: side by side on the
 * bench data, bounded reads took a week's first page from 1.26 to 1.46 ms
 * (160 rows read plainly) but page 2 of a month from 2.9 to 2.0 ms (1,280)
 * and page 3 of a week from 2.5 to 2.2 ms (480); a month's first page (640)
 * costs the same either way.
 */
const PERIOD_BOUND_ROWS = 300

const DAY_MS = 24 * 3600 * 1000

/** Day lists made by periodDays, by first and last day: a few periods of today's. */
const periodDaysKept = new Map<string, readonly string[]>()

/**
 * The UTC days (YYYY-MM-DD) from the one holding `since` to tomorrow (an
 * instance's clock may run ahead). Kept once made: a year's 367 dates took
 * 40% of a year's uncached page on SQLite in a CPU profile.
 */
export function periodDays(since: string, now = Date.now()): readonly string[] {
  const last = new Date(now + DAY_MS).toISOString().slice(0, 10)
  const key = `${since.slice(0, 10)} ${last}`
  const kept = periodDaysKept.get(key)
  if (kept) return kept
  const days: string[] = []
  for (let day = Date.parse(`${since.slice(0, 10)}T00:00:00.000Z`); ; day += DAY_MS) {
    const text = new Date(day).toISOString().slice(0, 10)
    days.push(text)
    if (text >= last) break
  }
  if (periodDaysKept.size >= 16) periodDaysKept.clear()
  periodDaysKept.set(key, Object.freeze(days))
  return days
}

type HeadRow = Record<string, string | number>

/** Rows of a sort's whole index a long period's page first looks among (see periodPage). */
const PERIOD_WALK_ROWS = 1000

/** Periods of more days than this look among the first rows of the whole ranking first. */
const PERIOD_WALK_DAYS = 32

/**
 * A year has 367 days to read (periodPage); but its uploads are usually many
 * among the best of all, so a period of more than PERIOD_WALK_DAYS days is
 * first looked for among the first PERIOD_WALK_ROWS rows of the whole ranking
 * (its index): when offset + limit of them fall within the period, the page
 * of them is the period's page exactly, and the days are not read. The row
 * keys of that page, to be read with its entries in one statement (a page of
 * fewer than `limit` rows says the walk fell short), or null for a shorter
 * period. On PostgreSQL a year's ranking was three round trips (the walk, the
 * entries, their tags) and is two.
 */
function periodWalk(since: string, view: ListView, paging: Paging): Query | null {
  if (periodDays(since).length <= PERIOD_WALK_DAYS) return null
  const order = LIST_SORTS[view.sort]
  const selected = sql.raw(ORDER_COLUMNS[view.sort].map(column => `u.${column}`).join(', '))
  return sql`SELECT u.rid FROM (SELECT u.${ROW_KEY} AS rid, ${selected} FROM uploads u
      WHERE u.is_private = 0${callerConditions(view)} ORDER BY ${order} LIMIT ${sql.raw(String(PERIOD_WALK_ROWS))}) u
      WHERE u.created_at >= ${since} ORDER BY ${order} ${pageWindow(paging)}`
}

/**
 * The row keys of a page of a period's ranking: the first offset + limit
 * rows of the period's days, read in order from that sort's day index
 * (uploads_public_day_*_idx), merged and cut to the page. Each day read gives
 * as many rows as the page could need from it, so the merge is exact; the
 * cost follows the days in the period, never the uploads they hold or how
 * low the period's uploads rank among all the others (a long period tries
 * periodWalk first).
 */
async function periodPage(db: Executor, since: string, view: ListView, paging: Paging): Promise<Query> {
  const order = LIST_SORTS[view.sort]
  const columns = ORDER_COLUMNS[view.sort]
  const need = offset(paging) + paging.limit
  const selected = sql.raw(columns.map(column => `u.${column}`).join(', '))
  const page = (rows: HeadRow[]) => rowKeys(rows.slice(offset(paging), need).map(row => row.rid!))
  const days = periodDays(since)
  const head = (day: Query | string, rows: number, inPeriod: Query) => sql`SELECT u.${ROW_KEY} AS rid, ${selected} FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = ${day}${inPeriod}${callerConditions(view)}
      ORDER BY ${order} LIMIT ${sql.raw(String(rows))}`
  /** The sort's order (every column descending) between two rows read here. */
  const inOrder = (a: HeadRow, b: HeadRow) => {
    for (const column of columns) {
      if (a[column] !== b[column]) return a[column]! < b[column]! ? 1 : -1
    }
    return 0
  }
  const first = Math.max(1, Math.ceil(need / days.length))
  if (db.dialect === 'postgres') {
    // Only the first day starts before `since`; every later one lies wholly in the period.
    // Said so, the planner expects a day's whole share of rows (about 90 at 100k uploads)
    // and reads each day's first rows from that sort's day index. With `created_at >= since`
    // on every day it took the two conditions as independent, expected 3 rows a day, and
    // read and sorted each whole day from another index: a month of `best` took 2.3 ms in
    // EXPLAIN ANALYZE.
    const inPeriod = (day: string) => sql` AND (${sql.raw(day)} <> ${days[0]!} OR u.created_at >= ${since})`
    if (days.length * need <= PERIOD_BOUND_ROWS) {
      return sql`SELECT u.rid FROM unnest(CAST(${days} AS text[])) AS d(day) CROSS JOIN LATERAL (${head(sql`d.day`, need, inPeriod('d.day'))}) u
        ORDER BY ${order} ${pageWindow(paging)}`
    }
    const tuple = (alias: string) => sql.raw(`(${columns.map(column => `${alias}.${column}`).join(', ')})`)
    const readOn = (bounded: boolean) => sql`SELECT u.* FROM heads l${sql.raw(bounded ? ' CROSS JOIN bound b' : '')}
        CROSS JOIN LATERAL (${head(sql`l.day`, need, sql`${inPeriod('l.day')} AND ${tuple('u')} < ${tuple('l')}${bounded ? sql` AND ${tuple('u')} >= ${tuple('b')}` : sql.raw('')}`)}) u
        WHERE l.n = ${sql.raw(String(first))} AND ${bounded ? sql`${tuple('l')} > ${tuple('b')}` : sql`NOT EXISTS (SELECT 1 FROM bound)`}`
    // Past that, the same bound as SQLite's below, in one statement (one snapshot, one round
    // trip): each day's first `first` rows (`heads`, numbered within the day), their need-th
    // best (`bound`), and each day that gave all `first` rows with its last above the bound
    // read on down to it (a row-value range on the day index).
    return sql`WITH heads AS MATERIALIZED (SELECT d.day, u.*, ${first === 1 ? sql.raw('1') : sql`row_number() OVER (PARTITION BY d.day ORDER BY ${order})`} AS n
        FROM unnest(CAST(${days} AS text[])) AS d(day) CROSS JOIN LATERAL (${head(sql`d.day`, first, inPeriod('d.day'))}) u),
      bound AS MATERIALIZED (SELECT ${selected} FROM heads u ORDER BY ${order} LIMIT 1 OFFSET ${sql.raw(String(need - 1))}),
      more AS (${readOn(true)} UNION ALL ${readOn(false)})
      SELECT u.rid FROM (SELECT u.rid, ${selected} FROM heads u UNION ALL SELECT u.rid, ${selected} FROM more u) u
      ORDER BY ${order} ${pageWindow(paging)}`
  }
  // SQLite has no LATERAL, and a compound of a year's 367 arms costs more than its reads:
  // prepared statements per day, merged here, reading as few rows as the merge can use
  // (better-sqlite3 builds an object for every row: a day's first 20 rows cost six times
  // its first one). First each day's first `first` rows, together at least `need`; the
  // need-th best of them, `bound`, is then no better than the page's last row. A day read
  // to its end, or whose last row read is no better than `bound`, has given every row it
  // can add to the page; each other day is read on from its last row down to `bound`.
  // A month of `best` read 20 rows from each of its 20 best days (400 rows, 1.2–1.7 ms on
  // the bench machine); it reads 33 now (0.36–0.52 ms). The LIMIT is written out (a whole
  // number of ours): SQLite runs a bound LIMIT several times slower on reads this small.
  const inPeriod = sql` AND u.created_at >= ${since}`
  const rowValue = sql.raw(`(${columns.map(column => `u.${column}`).join(', ')})`)
  const valueOf = (row: HeadRow) => sql`(${sql.join(columns.map(column => sql`${row[column]}`))})`
  const reads = await Promise.all(days.map(async day => ({ day, rows: await db.all<HeadRow>(head(day, first, inPeriod)) })))
  const found = reads.flatMap(read => read.rows).sort(inOrder)
  const bound = found.length >= need ? found[need - 1]! : undefined
  const after = (last: HeadRow) => sql`${inPeriod} AND ${rowValue} < ${valueOf(last)}${bound ? sql` AND ${rowValue} >= ${valueOf(bound)}` : sql.raw('')}`
  const more = await Promise.all(reads
    .filter(read => read.rows.length === first && (!bound || inOrder(read.rows.at(-1)!, bound) < 0))
    .map(read => db.all<HeadRow>(head(read.day, need, after(read.rows.at(-1)!)))))
  return page([...found, ...more.flat()].sort(inOrder))
}

/** Row keys (in order) as a derived table of one column, `rid`. */
function rowKeys(keys: (string | number)[]): Query {
  return sql`${dialects({
    sqlite: sql`SELECT value AS rid FROM json_each(${JSON.stringify(keys)})`,
    postgres: sql`SELECT unnest(CAST(${keys} AS text[])) AS rid`,
  })}`
}

/**
 * One statement for a page and its total: the count over `source` and the
 * page's rows, LEFT JOINed so an empty page still yields the total. `source`
 * yields the uploads as `u` from its own bound parameters. A tag-filtered
 * source is matched once (materialised: the row key and the columns its
 * order reads, given in `materialise`) and then counted and paged. Only the
 * order's columns: the scores are virtual columns on SQLite, computed per
 * row read, and every score for each of a tag's 1,139 uploads took its ranked
 * page 7.5 ms against 5.4 ms so (side by side, 100,000 uploads).
 */
export function pageWithTotal(db: Executor, source: Query, order: Query, paging: Paging, options: { username: boolean, materialise?: readonly string[] }) {
  if (!options.materialise) {
    return totalAndPage(db, sql`SELECT count(*) AS total FROM ${source}`,
      sql`SELECT u.${ROW_KEY} AS rid FROM ${source} ORDER BY ${order} ${pageWindow(paging)}`, order, options)
  }
  return totalAndPage(db, sql`SELECT count(*) AS total FROM matched`,
    sql`SELECT u.rid FROM matched u ORDER BY ${order} ${pageWindow(paging)}`, order, {
      ...options,
      prefix: sql`WITH matched AS MATERIALIZED (SELECT u.${ROW_KEY} AS rid, ${sql.raw(options.materialise.map(column => `u.${column}`).join(', '))} FROM ${source})
`,
    })
}

/**
 * The statement shell of every page with its total: `total` yields one row
 * (`total`), `keys` the page's uploads (`rid`, their row key, unless `join`
 * says how they meet `uploads u`), LEFT JOINed so an empty page still
 * yields the total; the entries in `order`, with the owner's username when
 * asked. `prefix` goes before it (a WITH).
 */
export async function totalAndPage(db: Executor, total: Query, keys: Query, order: Query,
  options: { username: boolean, prefix?: Query, join?: Query }) {
  return entriesWithTotal(db, await db.all<ListRow & { total: number }>(sql`${options.prefix ?? NOTHING}SELECT c.total, ${ENTRY_COLUMNS}${sql.raw(options.username ? ', us.username' : '')}
    FROM (${total}) c
    LEFT JOIN (${keys}) p ON true
    LEFT JOIN uploads u ON ${options.join ?? sql`u.${ROW_KEY} = p.rid`}
    ${sql.raw(options.username ? 'LEFT JOIN users us ON us.id = u.user_id' : '')}
    ORDER BY ${order}`))
}

/** A tag's kept count of public uploads, as a page's total. */
const keptTagCount = (slug: string) => sql`SELECT public_uploads AS total FROM tags WHERE slug = ${slug}`

/** A page's entries and its total, from rows that each carry `total` (one row with a null id when the page is empty). */
async function entriesWithTotal(db: Executor, rows: (ListRow & { total: number })[]) {
  const total = rows[0]?.total ?? 0
  const found = rows.filter(row => row.id !== null).map(({ total: _, ...row }) => row)
  return { uploads: await withTags(db, found), total }
}

/**
 * A page of one tag's public uploads over all time in the view's order, with
 * its total (a tag's page): the page is one range of the order's index on
 * upload_tags (each link carries its upload's date, privacy, counts and
 * rankings, kept by triggers). With nothing of the caller's narrowing it,
 * the total is the tag's kept count, so the cost follows the page, not the
 * tag. The caller's hidden tags and unvoted=true are checked link by link as
 * the range is read, and the total counts the tag's links so (side by side at
 * 100,000 uploads, a tag of 1,139, answers equal: unvoted 6.2 -> 1.1 ms on
 * SQLite, 4.4 -> 2.2 on PostgreSQL; before, every upload of the tag was
 * matched, counted, sorted). Ranked top, the same tag (`npm run bench:scale`,
 * before and after in the same hour): PostgreSQL 4.43 -> 0.56 ms (its 1,139
 * uploads were read from 1,033 heap pages and sorted); SQLite, which walked
 * the order's index checking each upload for the tag when the tag was common
 * enough and matched it whole otherwise, 0.72 -> 0.25 at 100,000 uploads and
 * 1.65 -> 0.24 at 1,000,000. The cost is the vote's: each moves its upload's
 * links (2.5 on average) with it, in four more indexes (a vote alone, one
 * after another: PostgreSQL 2.6 -> 3.3 ms, SQLite 0.52-0.60 -> 0.63 ms).
 */
async function tagPage(db: Executor, slug: string, paging: Paging, view: ListView) {
  const tag = tagIdOf(slug)
  const narrowing = callerConditions(view, sql`ut.upload_id`)
  const total = !narrowed(view)
    ? keptTagCount(slug)
    : sql`SELECT count(*) AS total FROM upload_tags ut WHERE ${publicLinksOf(tag)}${narrowing}`
  return totalAndPage(db, total, taggedIds(tag, view.sort, pageWindow(paging), narrowing), LIST_SORTS[view.sort], { username: true, join: sql`u.id = p.upload_id` })
}

/** GET /api/uploads/filtered: public uploads with all (or any) of the tags, in the view's order. */
export function listFilteredUploads(db: Database, query: Paging & { tags?: string, match: 'all' | 'any' }, view: ListView = PUBLIC_VIEW, at?: DataVersion) {
  const slugs = tagSlugs(query.tags)
  return cachedList(db, `filtered ${query.match} ${query.page} ${query.limit} ${slugs.join(',')} ${viewKey(view)}`, async () => listFiltered(db, await resolveSlugsIn(db, slugs), query, view), at)
}

async function listFiltered(db: Executor, slugs: string[], query: Paging & { match: 'all' | 'any' }, view: ListView) {
  const since = periodSince(view)
  // A tag's (or a pair's) ranked page reads its links' copies of the counts: first
  // copy the counts of uploads voted on since (services/rank-copies.ts).
  const onLinks = LINK_SORTS.includes(view.sort)
  if (onLinks && view.sort !== 'new' && since === null && (slugs.length === 1 || slugs.length === 2)) await flushRankCopies(db)
  if (onLinks && slugs.length === 1 && since === null) {
    return { ...await tagPage(db, slugs[0]!, query, view), page: query.page, limit: query.limit }
  }
  if (onLinks && slugs.length === 2 && query.match === 'all' && since === null && !narrowed(view)) {
    const paired = await pairPage(db, slugs, query, view.sort)
    if (paired) return { ...paired, page: query.page, limit: query.limit }
  }
  let source: Query | null
  if (slugs.length === 0) source = sql`uploads u WHERE u.is_private = 0${viewConditions(view)}`
  else if (slugs.length === 1 && since !== null) source = sql`${oneTagSince(slugs[0]!, since)}${callerConditions(view)}`
  else {
    const tagged = await taggedSource(db, slugs, query.match)
    source = tagged && sql`${tagged}${viewConditions(view)}`
  }
  if (source === null) return { uploads: [], total: 0, page: query.page, limit: query.limit }
  const { uploads, total } = await pageWithTotal(db, source, LIST_SORTS[view.sort], query, { username: true, materialise: slugs.length > 0 ? ORDER_COLUMNS[view.sort] : undefined })
  return { uploads, total, page: query.page, limit: query.limit }
}

/**
 * GET /api/search: the public uploads matching `condition` (on `uploads u`,
 * server/services/search.ts), in the view's order, with the total, cached like
 * the other lists under `key` (what tells conditions apart). Matched once
 * (materialised with the order's columns), then counted and paged.
 */
export function listMatchingUploads(db: Database, key: string, condition: Query, query: Paging, view: ListView, at?: DataVersion) {
  return cachedList(db, `search ${query.page} ${query.limit} ${viewKey(view)} ${key}`, async () => {
    const source = sql`uploads u WHERE u.is_private = 0 AND ${condition}${viewConditions(view)}`
    const { uploads, total } = await pageWithTotal(db, source, LIST_SORTS[view.sort], query, { username: true, materialise: ORDER_COLUMNS[view.sort] })
    return { uploads, total, page: query.page, limit: query.limit }
  }, at)
}

export const USER_SORTS = {
  date: NEWEST,
  votes: sql`u.upvotes DESC, u.created_at DESC, u.id DESC`,
  // Byte order of the lowered name on both engines (PostgreSQL would otherwise use the database's collation).
  name: sql`lower(u.original_name)${dialects({ sqlite: '', postgres: ' COLLATE "C"' })} ASC, u.created_at DESC, u.id DESC`,
  favourites: sql`u.favourites DESC, u.created_at DESC, u.id DESC`,
} as const

/** The columns of `uploads` each of USER_SORTS reads. */
const USER_SORT_COLUMNS: Record<keyof typeof USER_SORTS, readonly string[]> = {
  date: ['created_at', 'id'],
  votes: ['upvotes', 'created_at', 'id'],
  name: ['original_name', 'created_at', 'id'],
  favourites: ['favourites', 'created_at', 'id'],
}

/** GET /api/user/{username}/uploads: the user's public uploads only, even for the owner. */
export function listUserUploads(db: Database, username: string, query: Paging & { sort: keyof typeof USER_SORTS, tags?: string }, filter: CallerFilter = NO_FILTER, at?: DataVersion) {
  const slugs = tagSlugs(query.tags)
  const key = `user ${username.toLowerCase()} ${query.sort} ${query.page} ${query.limit} ${slugs.join(',')} ${filterKey(filter)}`
  return cachedList(db, key, async () => listOfUser(db, username, await resolveSlugsIn(db, slugs), query, filter), at)
}

/** Every account's name is made of these (the registration rule and OAuth's usernameBase). */
const POSSIBLE_USERNAME = /^[\w-]{1,100}$/

async function listOfUser(db: Executor, username: string, slugs: string[], query: Paging & { sort: keyof typeof USER_SORTS }, filter: CallerFilter) {
  if (!POSSIBLE_USERNAME.test(username)) throw apiError(404, 'User not found')
  const user = await db.get<{ id: string, username: string, created_at: string, public_uploads: number }>(sql`SELECT id, username, created_at, public_uploads
    FROM users WHERE lower(username) = lower(${username})`)
  if (!user) throw apiError(404, 'User not found')
  const tagged = slugs.length === 0 ? undefined : await taggedSource(db, slugs, 'all')
  const order = USER_SORTS[query.sort]
  let found: { uploads: ListEntry[], total: number }
  if (tagged === null) found = { uploads: [], total: 0 }
  else if (tagged === undefined && !isFiltering(filter)) {
    // Everything public of the user: the total is the count kept on the account.
    found = { uploads: await withTags(db, await db.all<ListRow>(sql`SELECT ${ENTRY_COLUMNS}
        FROM (SELECT u.${ROW_KEY} AS rid FROM uploads u WHERE u.user_id = ${user.id} AND u.is_private = 0
          ORDER BY ${order} ${pageWindow(query)}) p
        ${THEN_JOIN} uploads u ON u.${ROW_KEY} = p.rid ORDER BY ${order}`)),
    total: user.public_uploads }
  }
  else if (tagged === undefined) {
    found = await pageWithTotal(db, sql`uploads u WHERE u.user_id = ${user.id} AND u.is_private = 0${filtering(filter)}`, order, query, { username: false })
  }
  else {
    found = await pageWithTotal(db, sql`${tagged} AND u.user_id = ${user.id}${filtering(filter)}`, order, query, { username: false, materialise: USER_SORT_COLUMNS[query.sort] })
  }
  const { uploads, total } = found
  return {
    user: { username: user.username, created_at: user.created_at },
    uploads,
    total,
    page: query.page,
    totalPages: Math.ceil(total / query.limit),
    limit: query.limit,
  }
}

const FEATURE_ORDERS = {
  'recent': NEWEST,
  // Top-voted: upvotes, then total votes (= downvotes once upvotes tie), then newest.
  'top-voted': sql`u.upvotes DESC, u.downvote_count DESC, u.created_at DESC`,
} as const

/** GET /api/items-recent and /api/items-top-voted: exactly the first 6 public uploads (as the caller's filter leaves them). */
export function featureList(db: Database, type: keyof typeof FEATURE_ORDERS, filter: CallerFilter = NO_FILTER, at?: DataVersion) {
  return cachedList(db, `${type} ${filterKey(filter)}`, async () => {
    const rows = await db.all<ListRow>(sql`SELECT ${ENTRY_COLUMNS}, us.username
    FROM (SELECT u.${ROW_KEY} AS rid FROM uploads u WHERE u.is_private = 0${filtering(filter, UPLOAD_ID, type === 'recent')} ORDER BY ${FEATURE_ORDERS[type]} LIMIT 6) p
    ${THEN_JOIN} uploads u ON u.${ROW_KEY} = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY ${FEATURE_ORDERS[type]}`)
    return { items: await withTags(db, rows), type }
  }, at)
}

/** A visitor without an account: the keyed hash of their IP and their fingerprint, as anonymous votes store them. */
export interface AnonymousVisitor { ipHash: string, fingerprint: string }

/**
 * GET /api/vote/next: the newest public upload the caller has not voted on
 * (an account: by its votes, its hidden tags left out; a visitor: neither
 * the IP hash nor the fingerprint has voted on it), or null. Never cached.
 */
export async function nextUnvoted(db: Executor, caller: { userId: string, hiddenTags: readonly string[] } | AnonymousVisitor) {
  const notVoted = 'userId' in caller
    ? sql`NOT EXISTS (SELECT 1 FROM votes v WHERE v.user_id = ${caller.userId} AND v.upload_id = u.id)${hidingTags(caller.hiddenTags)}`
    : sql`NOT EXISTS (SELECT 1 FROM anonymous_votes a WHERE a.upload_id = u.id AND a.ip_hash = ${caller.ipHash})
      AND NOT EXISTS (SELECT 1 FROM anonymous_votes a WHERE a.upload_id = u.id AND a.fingerprint = ${caller.fingerprint})`
  const row = await db.get<ListRow>(sql`SELECT ${ENTRY_COLUMNS}, us.username
    FROM uploads u JOIN users us ON us.id = u.user_id
    WHERE u.is_private = 0 AND ${notVoted}
    ORDER BY ${NEWEST} LIMIT 1`)
  return { upload: row ? (await withTags(db, [row]))[0]! : null }
}
