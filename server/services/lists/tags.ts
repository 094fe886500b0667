/** Lists narrowed to tags: a tag's page, a pair's, and the tagged uploads as a list's source. */
import type { Sort } from '../../../shared/utils/ranking'
import type { Executor } from '../../database/port'
import { hotAgeSql, postgresEpochOf, sqliteEpochOf } from '../../database/ranking-columns'
import { dialects, inList, sql, type Query } from '../../database/sql'
import { callerConditions, narrowed, PUBLIC_VIEW, type ListView } from './filters'
import { KeptCounts } from './kept-sizes'
import { keptTotalAndPage, totalAndPage } from './page'
import { offset, pageReach, pageWindow, type Paging } from './paging'
import { NOTHING, THEN_JOIN } from './pieces'
import { flushRankCopies } from '../rank-copies'
import { resolveSlugsIn } from '../tag-rules'
import { withinBudget, type BudgetOf } from '../search-budget'
import { LIST_SORTS, ORDER_COLUMNS } from './sorts'
import { foundWithoutRoom, keepTriple, keptTriple } from './triples'

/**
 * SQLite: how many links read in a merge one lookup by primary key costs,
 * as tags matched as one set weigh their two ways (tagTermsIds): start from
 * the smallest term's links and look each up in the other terms, or merge
 * every term's links. A lookup costs about as much as reading 7–9 links in a
 * merge (at 100,000 uploads, counting an AND's matches: 0.8 µs a lookup
 * against 0.11 µs a link merged); a tag on 57 uploads AND one on 5,152 went
 * from 0.50 to 0.04 ms looked up, two tags of 1,651 and 2,178 stay merged
 * (0.45 ms; looked up, 1.3).
 */
const LOOKUP_RATIO = 10

/**
 * Public upload counts by slug, as an AND reads them to choose its way, kept
 * so a rare tag's lookup is one statement. A count a minute old can only
 * choose the slower way, never other uploads, and a tag once seen exists for
 * good (no route deletes a tag).
 */
const tagSizesKept = new KeptCounts()

/** The slugs with their public upload counts, rarest first (ties by slug), or null when a slug has no tag. */
async function tagSizes(db: Executor, slugs: string[]): Promise<{ slug: string, publicUploads: number }[] | null> {
  const sizes = await knownTagSizes(db, slugs)
  if (slugs.some(slug => !sizes.has(slug))) return null
  return slugs.map(slug => ({ slug, publicUploads: sizes.get(slug)! }))
    .sort((a, b) => a.publicUploads - b.publicUploads || (a.slug < b.slug ? -1 : 1))
}

/** The public upload counts of the tags the slugs name (an alias its tag's), for those that name one. */
async function knownTagSizes(db: Executor, slugs: string[]): Promise<Map<string, number>> {
  const now = Date.now()
  const sizes = new Map<string, number>()
  const missing: string[] = []
  for (const slug of new Set(slugs)) {
    const kept = tagSizesKept.get(db, slug, now)
    if (kept !== undefined) sizes.set(slug, kept)
    else missing.push(slug)
  }
  if (missing.length > 0) {
    const rows = await db.all<{ slug: string, public_uploads: number }>(sql`SELECT n.slug, t.public_uploads FROM ${namedTags(missing)}
      JOIN tags t ON t.id = n.tag_id`)
    for (const row of rows) {
      sizes.set(row.slug, row.public_uploads)
      tagSizesKept.set(db, row.slug, row.public_uploads, now)
    }
  }
  return sizes
}

/**
 * The kept count of public uploads carrying both tags (tag_pairs, kept by
 * triggers; no row when they never met), as a statement yielding `total`;
 * each tag a slug or a statement giving its id. The pair's key is ordered
 * by the database, as its triggers order it.
 */
function pairCount(first: string | Query, second: string | Query): Query {
  const [a, b] = [idOf(first), idOf(second)]
  return sql`SELECT coalesce((SELECT public_uploads FROM tag_pairs
    WHERE first_tag_id = ${LEAST}(${a}, ${b}) AND second_tag_id = ${GREATEST}(${a}, ${b})), 0) AS total`
}

/**
 * The tags two slugs name, each an alias or a tag's own (aliasedTagIdOf),
 * looked up once for a whole statement, and a total from them: a WITH to put
 * before the statement, naming `named` (`a`, `b`), which NAMED_TAGS read, and
 * `counted` (`total`), which NAMED_TOTAL reads. `total` is made from the
 * pair's kept count (pairCount, where two names of one tag count that tag's
 * uploads), the count itself by default. A pair's and an OR's page so need no
 * round trip to resolve their slugs, and stay exact whatever aliases were
 * added or removed since their way was chosen. Both are materialised, so
 * each is computed once: PostgreSQL pulled a subquery of the two lookups up
 * into each use (a pair's page looked each slug up seven times), and a total
 * read from `named` in the page's join into each row of the page.
 */
function namedPair(first: string, second: string, total: (pair: Query) => Query = pair => pair): Query {
  const pair = sql`CASE WHEN n.a = n.b THEN (${keptTagCount(sql`n.a`)}) ELSE (${pairCount(sql`n.a`, sql`n.b`)}) END`
  return sql`WITH named AS MATERIALIZED (SELECT ${aliasedTagIdOf(first)} AS a, ${aliasedTagIdOf(second)} AS b),
    counted AS MATERIALIZED (SELECT ${total(pair)} AS total FROM named n)
`
}

/** The two tags of namedPair, each as a statement giving its id. */
const NAMED_TAGS = [sql`(SELECT a FROM named)`, sql`(SELECT b FROM named)`] as const

/** The total of namedPair, as a statement yielding `total`. */
const NAMED_TOTAL = sql`SELECT total FROM counted`

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
  const count = (await db.get<{ total: number }>(sql`${namedPair(first, second)}${NAMED_TOTAL}`))!.total
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
export async function pairPage(db: Executor, slugs: string[], paging: Paging, sort: Sort) {
  const tags = await tagSizes(db, slugs)
  if (!tags) return null
  const [rarer, other] = tags as [{ slug: string, publicUploads: number }, { slug: string, publicUploads: number }]
  const pair = await pairSize(db, rarer.slug, other.slug)
  const share = pair === 0 ? 1 : Math.min(1, (offset(paging) + paging.limit) / pair)
  if (!walkPays(db, rarer.publicUploads, other.publicUploads, pair, share)) return null
  // Every order reads the copies, `new` too: both links of an upload must be in the same
  // range (with votes, or without), and a link added since a vote (an edit, an alias, an
  // implication) copied the upload's counts where its other links wait for theirs.
  return totalAndPage(db, NAMED_TOTAL, pairIds(...NAMED_TAGS, sort, paging), LIST_SORTS[sort],
    { username: true, join: sql`u.id = p.upload_id`, copies: true, prefix: namedPair(rarer.slug, other.slug) })
}

/**
 * A page of the public uploads carrying either of two tags (`match=any`, or
 * the search `a OR b`), over all time in the order of `sort`, with its
 * total; or null when a slug has no tag. The total is the tags' kept counts
 * less their pair's (tag_pairs): nothing is counted. The page is each tag's
 * own page reaching as far (taggedIds: two ranges of the order's indexes), the
 * two united, ordered and cut: an upload on the page is within that reach of
 * its own tag's page, so the cost follows the page, not the tags. Two tags of
 * 23,000 and 17,000 uploads at 1,000,000, page 1 newest: 257 ms on SQLite
 * matched whole and counted, 0.49 so (at 100,000: 15.9 and 0.44).
 */
export async function eitherTagPage(db: Executor, slugs: readonly [string, string], paging: Paging, sort: Sort) {
  if (!await tagSizes(db, [...slugs])) return null
  const [first, second] = NAMED_TAGS
  const either = (pair: Query) => sql`coalesce((${keptTagCount(sql`n.a`)}), 0) + coalesce((${keptTagCount(sql`n.b`)}), 0) - ${pair}`
  const head = { ...paging, from: 'start' as const }
  const keys = sql`SELECT u.id AS upload_id FROM uploads u
    WHERE u.id IN (SELECT upload_id FROM (${taggedIds(first, sort, head)}) a UNION SELECT upload_id FROM (${taggedIds(second, sort, head)}) b)
    ORDER BY ${LIST_SORTS[sort]} ${pageWindow(paging)}`
  return totalAndPage(db, NAMED_TOTAL, keys, LIST_SORTS[sort],
    { username: true, join: sql`u.id = p.upload_id`, copies: sort !== 'new', prefix: namedPair(...slugs, either) })
}

/**
 * The ids of the public uploads carrying both tags (`rarer` and `other`,
 * each a tag id or a statement giving it) in the order of `sort`, in the
 * page's window: the rarer tag's public links read in the order's index as
 * a tag's page reads them (taggedIds), each joined to the other tag's link
 * of the same upload by the index's columns (copied on every link, see
 * taggedIds) and the upload id, one entry of the same index. SQLite looks
 * each up there; PostgreSQL merges the two ranges, both read in the page's
 * order: at 100,000 uploads, page 1 of two common tags took 0.15-0.17 ms
 * merged so, and about 0.8 ms looked up link by link in upload_tags_tag_idx
 * (an EXISTS, which it also planned as a join of both tags' whole ranges).
 */
function pairIds(rarer: Query, other: Query, sort: Sort, paging: Paging): Query {
  const pairLinks = (keys: readonly string[], votes: Query) => sql`upload_tags ut ${THEN_JOIN} upload_tags o
    ON ${sql.raw(keys.map(key => `o.${key} = ut.${key}`).join(' AND '))}
    WHERE ${publicLinksOf(rarer)} AND o.tag_id = ${other} AND o.upload_is_private = 0${votes}`
  return linkRanges(sort, paging, voted => pairLinks(voted ? linkColumns(sort) : BY_DATE,
    sql` AND ${linkVotes('ut', voted)} AND ${linkVotes('o', voted)}`), true)
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
 * tag has stands for NULL, which no array contains. A slug may be an alias:
 * PostgreSQL resolves it in the statement; SQLite first (resolveSlugsIn), as
 * the tags' own sizes choose its way.
 */
export async function taggedSource(db: Executor, slugs: string[], match: 'all' | 'any'): Promise<Query | null> {
  if (db.dialect === 'postgres') return sql`uploads u WHERE u.is_private = 0 AND ${carryingTags(slugs, match, true)}`
  const tagged = await taggedUploads(db, await resolveSlugsIn(db, slugs), match)
  return tagged && sql`(${tagged}) m CROSS JOIN uploads u ON u.id = m.upload_id WHERE u.is_private = 0`
}

/**
 * One tag's public uploads created since `since`, as a list's source: the
 * period's links of the tag, each carrying its upload's date and privacy,
 * read by date in its two ranges (upload_tags_tag_newest_idx for uploads
 * with votes, upload_tags_tag_unvoted_idx for the others), so a period
 * reads its own uploads, not all of the tag's; `slug` may be an alias. The
 * date is the link's copy, not a condition on `uploads`, so PostgreSQL keeps
 * one plan for every period. Side by side at 100,000 uploads, a tag of 1,139 ranked over a week
 * (2 uploads): SQLite 1.56 -> 0.07 ms, PostgreSQL 2.32 -> 1.27; over a month
 * (33): 2.13 -> 0.32 and 4.46 -> 1.63.
 */
export function oneTagSince(slug: string, since: string): Query {
  const range = (voted: boolean) => sql`SELECT ut.upload_id FROM ${linkRange(aliasedTagIdOf(slug), voted)} AND ut.upload_created_at >= ${since}`
  return sql`(${range(true)} UNION ALL ${range(false)}) m ${THEN_JOIN} uploads u ON u.id = m.upload_id
    WHERE u.is_private = 0`
}

/** The tag's id, looked up by its slug inside the statement. */
function tagIdOf(slug: string): Query {
  return sql`(SELECT id FROM tags WHERE slug = ${slug})`
}

/**
 * The tags the slugs name, as `n` (`slug`, `tag_id`): an alias's tag for an
 * alias, as aliasedTagIdOf reads it, else the tag's own; none for a slug
 * that names no tag.
 */
function namedTags(slugs: string[]): Query {
  return sql`(SELECT slug, tag_id FROM tag_aliases WHERE slug ${inList(slugs)}
    UNION ALL SELECT slug, id FROM tags WHERE slug ${inList(slugs)} AND slug NOT IN (SELECT slug FROM tag_aliases)) n`
}

/** A tag's id: given as a statement, or looked up by its slug (tagIdOf). */
const idOf = (tag: string | Query): Query => typeof tag === 'string' ? tagIdOf(tag) : tag

/**
 * The id of the tag a slug names, looked up inside the statement: an alias's
 * tag for an alias (first: a tag made an alias keeps its row, emptied), else
 * the tag's own. A tag's page so needs no round trip to resolve its slug.
 */
function aliasedTagIdOf(slug: string): Query {
  return sql`COALESCE((SELECT tag_id FROM tag_aliases WHERE slug = ${slug}), ${tagIdOf(slug)})`
}

/**
 * `ut.` restricted to one tag's public links. `tag` is the tag's id, or a
 * statement giving it.
 */
function publicLinksOf(tag: string | Query): Query {
  return sql`ut.tag_id = ${tag} AND ut.upload_is_private = 0`
}

/**
 * `upload_tags ut` and its WHERE: one tag's public links of uploads with
 * votes (`voted`) or of those without, one range of an index either way
 * (upload_tags_tag_newest_idx and the ranked ones, or
 * upload_tags_tag_unvoted_idx). More conditions may follow, each starting
 * with AND.
 */
function linkRange(tag: string | Query, voted: boolean): Query {
  return sql`upload_tags ut WHERE ${publicLinksOf(tag)} AND ${linkVotes('ut', voted)}`
}

/**
 * The ids of one tag's public uploads in the order of `sort`, in the page's
 * window, read in its index's order: each link carries its upload's order
 * columns as `upload_<column>` (copied by triggers), so a tag's public
 * uploads in any order are two ranges of indexes, those with votes and
 * those without (linkRanges); `narrowing` (conditions on `ut.upload_id` or
 * the link's copies, each starting with AND) leaves links out as they are
 * read. `unvoted` false: no upload without votes passes the narrowing, so
 * their range is not read.
 */
export function taggedIds(tag: string | Query, sort: Sort, paging: Paging, narrowing: Query = NOTHING, unvoted = true): Query {
  return linkRanges(sort, paging, voted => sql`${linkRange(tag, voted)}${narrowing}`, unvoted)
}

/**
 * The count of one tag's public links that pass `narrowing`, as a page's
 * total: each of the two ranges counted in its own index (the partial
 * condition word for word, so from the index alone; one count over the
 * tag's links read every link's row). `unvoted` false counts the links of
 * uploads with votes only.
 */
function linkCount(tag: Query, narrowing: Query, unvoted = true): Query {
  const inRange = (voted: boolean) => sql`(SELECT count(*) FROM ${linkRange(tag, voted)}${narrowing})`
  return sql`SELECT ${inRange(true)}${unvoted ? sql` + ${inRange(false)}` : NOTHING} AS total`
}

/**
 * The count of one tag's public links whose copies of the counts pass `tests`
 * (conditions on a row of tag_vote_counts, `v`), as a search's total: the
 * sum of the tag's kept rows that pass, one per pair of counts its links
 * hold, so its cost follows how many pairs there are, not how many links.
 * `unvoted`: the links without votes pass too; they are the tag's kept
 * count less all its rows.
 */
function keptVotedCount(tag: Query, tests: Query[], unvoted: boolean): Query {
  const summed = (conditions: Query[]) => sql`(SELECT coalesce(sum(v.links), 0) FROM tag_vote_counts v
    WHERE v.tag_id = ${tag}${sql.join(conditions.map(test => sql` AND ${test}`), '')})`
  return unvoted
    ? sql`SELECT ${summed(tests)} + coalesce((${keptTagCount(tag)}), 0) - ${summed([])} AS total`
    : sql`SELECT ${summed(tests)} AS total`
}

/** The columns a link copies of its upload for `sort`'s order (ORDER_COLUMNS, as `upload_<column>`). */
const linkColumns = (sort: Sort) => ORDER_COLUMNS[sort].map(column => `upload_${column}`)
const BY_DATE = linkColumns('new')

/** `names` as a list of `alias.name` (and `order` after each). */
const columns = (alias: string, names: readonly string[], order = '') => sql.raw(names.map(name => `${alias}.${name}${order}`).join(', '))

/** The page of one range of links (`links`: FROM and WHERE, the links as `ut`), read in the order of `keys`, all descending. */
function oneRange(links: Query, keys: readonly string[], paging: Paging): Query {
  return sql`SELECT ut.upload_id FROM ${links}
    ORDER BY ${columns('ut', keys, ' DESC')} ${pageWindow(paging)}`
}

/**
 * Whether the link's upload has votes, as the partial indexes of upload_tags
 * test it (server/database/schema.ts, VOTED_PUBLIC_LINK): the same words, or
 * SQLite would not use them.
 */
function linkVotes(alias: string, voted: boolean): Query {
  return sql`${sql.raw(`${alias}.upload_upvotes + ${alias}.upload_downvote_count ${voted ? '>' : '='} 0`)}`
}

/**
 * A page of tag links in `sort`'s order, as the ids of its uploads: the
 * links of uploads with votes read in the order's index
 * (upload_tags_tag_newest_idx, upload_tags_tag_top_idx …), those of uploads
 * without read newest first in upload_tags_tag_unvoted_idx, each as far as
 * the page reaches, merged. The second range is in the order of `sort` too:
 * without votes an upload's counts and scores are those of every other
 * without (hot's grows with the date), so a ranking orders them by date,
 * and the merge puts them among the voted ones with the same score, ties
 * newest first, as one index did. `links(voted)` is the FROM and WHERE of
 * one range, a tag's links as `ut`; `unvoted` false leaves the second range
 * out.
 *
 * The split writes a new link, which has no votes, in two per-tag indexes
 * instead of seven (docs/database.md, "Unvoted links"). A page reads up to
 * twice its reach.
 */
function linkRanges(sort: Sort, paging: Paging, links: (voted: boolean) => Query, unvoted: boolean): Query {
  const ranked = linkColumns(sort)
  if (!unvoted) return oneRange(links(true), ranked, paging)
  const reach = pageReach(paging)
  const unvotedColumns = sql.join(ranked.map(name => UNVOTED_COPIES[name] ?? sql`${sql.raw(`ut.${name}`)}`))
  return sql`SELECT upload_id FROM (
    SELECT * FROM (SELECT ${columns('ut', ranked)} FROM ${links(true)} ORDER BY ${columns('ut', ranked, ' DESC')} LIMIT ${reach}) r
    UNION ALL
    SELECT * FROM (SELECT ${unvotedColumns} FROM ${links(false)} ORDER BY ${columns('ut', BY_DATE, ' DESC')} LIMIT ${reach}) r) m
    ORDER BY ${columns('m', ranked, ' DESC')} ${pageWindow(paging)}`
}

/**
 * What the links of an upload without votes copy in the ranking columns,
 * computed rather than read, so their range is read from
 * upload_tags_tag_unvoted_idx alone: the counts and the best and divisive
 * scores are 0, and the hot score is its part that grows with the date,
 * from the link's copy of the date, as the upload's generated column
 * computes it (server/database/ranking-columns.ts): the same value to the
 * bit, so ties break as they did.
 */
const UNVOTED_COPIES: Record<string, Query> = {
  upload_upvotes: sql`0 AS upload_upvotes`,
  upload_downvote_count: sql`0 AS upload_downvote_count`,
  upload_best_score: sql`0 AS upload_best_score`,
  upload_divisive_score: sql`0 AS upload_divisive_score`,
  upload_hot_score: sql`${dialects({
    sqlite: hotAgeSql(sqliteEpochOf('ut.upload_created_at')),
    postgres: hotAgeSql(postgresEpochOf('ut.upload_created_at')),
  })} AS upload_hot_score`,
}

/**
 * PostgreSQL: `uploads u` carries all (or any) of the slugs, as
 * uploads_public_tag_ids_idx answers. `aliases`: a slug may be an alias,
 * resolved to its tag in the statement.
 */
export function carryingTags(slugs: string[], match: 'all' | 'any', aliases = false): Query {
  if (match === 'all') return sql`string_to_array(u.tag_ids, ',') @> ARRAY[${sql.join(slugs.map(aliases ? aliasedTagIdOf : tagIdOf))}]`
  const ids = aliases ? sql`SELECT tag_id FROM ${namedTags(slugs)}` : sql`SELECT id FROM tags WHERE slug ${inList(slugs)}`
  return sql`string_to_array(u.tag_ids, ',') && ARRAY(${ids})`
}

/**
 * SQLite: the ids of uploads carrying the slugs, as a column `upload_id`, or
 * null when none can (`all` with a slug no tag has). Any of them: each tag's
 * links, each upload once. All of them: the tags as one set (tagTermsIds).
 */
async function taggedUploads(db: Executor, slugs: string[], match: 'all' | 'any'): Promise<Query | null> {
  if (match === 'any' || slugs.length === 1) {
    return sql`SELECT DISTINCT ut.upload_id FROM upload_tags ut WHERE ut.tag_id IN (SELECT id FROM tags WHERE slug ${inList(slugs)})`
  }
  return tagTermsIds(db, { all: slugs, any: [], none: [] })
}

/**
 * The tags of a search under one AND (server/services/search.ts): uploads
 * carrying every tag of `all`, at least one of `any` when it has some, and
 * none of `none`.
 */
export interface TagTerms { all: string[], any: string[], none: string[] }

/**
 * SQLite: the ids of uploads matching the terms, as a statement yielding
 * `upload_id` for `u.id IN (…)`, or null when none can (a tag of `all` that
 * no upload carries, or only such tags in `any`; in `none` they drop out).
 * By the tags' kept sizes: from the smallest positive term
 * (a tag of `all`, or `any` whole), each other term looked up by primary
 * key, when that costs less than merging every term's links in upload id
 * order (upload_tags_tag_idx). The merge is one compound statement read left
 * to right, (any₁ UNION any₂ …) INTERSECT all₁ … EXCEPT none₁ …, and its
 * ORDER BY makes SQLite merge the sorted ranges instead of building a
 * temporary tree of each. `(a OR b) c` at 100,000 uploads (2,306, 1,737
 * and 5,412 uploads), counted: 6.6 ms matching each tag apart, 4.5 looked
 * up from `a OR b`, 1.2 merged. `budgetOf` puts the search budget's test on
 * the links read (search-budget.ts): they are read before any upload is
 * weighed.
 */
export async function tagTermsIds(db: Executor, terms: TagTerms, budgetOf: BudgetOf = () => NOTHING): Promise<Query | null> {
  const sizes = await knownTagSizes(db, [...terms.all, ...terms.any, ...terms.none])
  const known = (slugs: string[]) => [...new Set(slugs)].filter(slug => sizes.has(slug))
  const [all, any, none] = [known(terms.all), known(terms.any), known(terms.none)]
  if (all.length < new Set(terms.all).size || (terms.any.length > 0 && any.length === 0)) return null
  // The positive terms, smallest first: each tag of `all`, and `any` as one.
  const positive = [...all.map(slug => [slug]), ...(any.length > 0 ? [any] : [])]
    .map(slugs => ({ slugs, size: slugs.reduce((sum, slug) => sum + sizes.get(slug)!, 0) }))
    .sort((a, b) => a.size - b.size)
  const [first, ...others] = positive
  if (!first) return null
  const merged = [...all, ...any, ...none].reduce((sum, slug) => sum + sizes.get(slug)!, 0)
  if (LOOKUP_RATIO * (others.length + none.length) * Math.max(1, first.size) < merged) {
    const has = (slugs: string[]) => sql`EXISTS (SELECT 1 FROM upload_tags t1 WHERE t1.upload_id = t0.upload_id AND t1.tag_id ${tagIn(slugs)})`
    // LIMIT -1 (none) keeps SQLite from flattening this into the caller's join with
    // uploads, which read each of the rare tag's uploads before checking its other tags:
    // a tag on 576 uploads AND one on 51,237 of 1,000,000, the page 3.9 -> 1.7 ms.
    return sql`SELECT t0.upload_id FROM upload_tags t0 WHERE ${budgetOf('t0')}t0.tag_id ${tagIn(first.slugs)}${sql.join([
      ...others.map(term => sql` AND ${has(term.slugs)}`),
      ...none.map(slug => sql` AND NOT ${has([slug])}`),
    ], '')} LIMIT -1`
  }
  const linksOf = (slug: string) => sql`SELECT ut.upload_id FROM upload_tags ut WHERE ${budgetOf('ut')}ut.tag_id = ${tagIdOf(slug)}`
  const pieces = [...(any.length > 0 ? [sql.join(any.map(linksOf), ' UNION ')] : []), ...all.map(linksOf)]
  return sql`${sql.join(pieces, ' INTERSECT ')}${sql.join(none.map(slug => sql` EXCEPT ${linksOf(slug)}`), '')} ORDER BY 1`
}

/**
 * `= the tag's id`, or `IN (the tags' ids)`. On PostgreSQL each id is its
 * own parameter, looked up once per statement: inside a link's look-up a
 * list in one parameter was looked up again for every link read (2,100
 * buffers read for a page of `(a OR b) c` at 1,000,000 uploads, 1,150 so),
 * and, as it may hold any number of slugs, the statement was planned anew
 * at each search (1.1 ms) where with a fixed count it keeps one plan.
 */
function tagIn(slugs: string[]): Query {
  if (slugs.length === 1) return sql`= ${tagIdOf(slugs[0]!)}`
  return sql`${dialects({
    sqlite: sql`IN (SELECT id FROM tags WHERE slug ${inList(slugs)})`,
    postgres: sql`IN (${sql.join(slugs.map(tagIdOf))})`,
  })}`
}

/** A tag's kept count of public uploads, as a page's total; `tag` a statement giving its id. */
const keptTagCount = (tag: Query) => sql`SELECT public_uploads AS total FROM tags WHERE id = ${tag}`

/**
 * A page of one tag's public uploads (`slug` the tag's or an alias's) over
 * all time in the view's order, with its total (a tag's page): the page is
 * two ranges of the order's indexes on upload_tags (each link carries its
 * upload's date, privacy, counts and rankings, kept by triggers), so its
 * cost follows the page, not the tag. With nothing of the caller's
 * narrowing it, the total is the tag's kept count; the caller's hidden tags
 * and unvoted=true are checked link by link as the ranges are read, and the
 * total counts the tag's links so. A vote does not write the links: their
 * copies of its counts wait in rank_copies_pending until a ranked page
 * reads them (totalAndPage's `copies`, services/rank-copies.ts).
 */
export async function tagPage(db: Executor, slug: string, paging: Paging, view: ListView) {
  const tag = aliasedTagIdOf(slug)
  const narrowing = callerConditions(view, sql`ut.upload_id`)
  const total = !narrowed(view)
    ? keptTagCount(tag)
    : linkCount(tag, narrowing)
  return totalAndPage(db, total, taggedIds(tag, view.sort, paging, narrowing), LIST_SORTS[view.sort],
    { username: true, join: sql`u.id = p.upload_id`, copies: view.sort !== 'new' })
}

/**
 * Ends a NOT EXISTS that must be looked up link by link as the page is read.
 * PostgreSQL otherwise made it an anti join, reading every link of the
 * left-out tag into a hash and sorting the rest: `a -b` at 100,000 uploads
 * took 3.1 ms so (5,412 links of b hashed for a page of 20), 0.41 looked up.
 * An OFFSET keeps a subquery from being pulled up into a join.
 */
const LOOKED_UP = dialects({ sqlite: '', postgres: ' OFFSET 0' })

/** A search one tag's public links answer: the tag, tags left out of it, tests of the counts its links copy. */
export interface LinkSearch {
  tag: string
  /** Slugs of tags the uploads must not carry. */
  without: string[]
  /** Slugs of tags the uploads must carry one of at least (an OR of tags), or none. */
  anyOf: string[]
  /** Conditions on the link's copies of its upload's counts (`ut.upload_upvotes`, `ut.upload_downvote_count`). */
  tests: Query[]
  /** The same conditions on a row of tag_vote_counts (`v.upvotes`, `v.downvotes`), for the total. */
  keptTests: Query[]
  /** Whether an upload without votes can pass the tests (search.ts, passesWithoutVotes). */
  unvoted: boolean
}

/**
 * A page of a search that one tag's public links answer, over all time in
 * the order of `sort`, with its total; or null when no total here is exact
 * without matching every upload, or matching costs less (server/services/search.ts
 * then matches the query whole). The page walks the tag's links in the order's index
 * as a tag's page does, leaving links out as they are read (a left-out tag or
 * the tags of an OR looked up by the link's upload, a count test on the link's
 * copy), so it costs what it skips, not the tag's size. The total: with one
 * tag left out, the tag's kept count less the pair's (tag_pairs), both read
 * by key; with count tests alone, the tag's kept counts per pair of vote
 * counts that pass (keptVotedCount); with an OR of tags, orTotal. Either way
 * nothing reads `uploads` but the page's rows and, for an OR of two tags,
 * the uploads carrying all three (docs/performance.md, "The latest runs of
 * the other benches"). `budgetMs`: the search budget for that count.
 */
export async function linkSearchPage(db: Executor, search: LinkSearch, paging: Paging, sort: Sort, budgetMs = Number.POSITIVE_INFINITY) {
  if (search.anyOf.length > 0) return anyOfPage(db, search, paging, sort, budgetMs)
  const { tag, without, tests } = search
  const counted = tests.length > 0
  if (counted ? without.length > 0 : without.length !== 1) return null
  if (!await tagSizes(db, [tag]) || without.includes(tag)) return { uploads: [], total: 0 }
  const narrowing = sql`${sql.join(without.map(slug => sql` AND NOT EXISTS (SELECT 1 FROM upload_tags x
    WHERE x.upload_id = ut.upload_id AND x.tag_id = ${tagIdOf(slug)}${LOOKED_UP})`), '')}${sql.join(tests.map(test => sql` AND ${test}`), '')}`
  const total = counted
    ? keptVotedCount(tagIdOf(tag), search.keptTests, search.unvoted)
    : sql`SELECT (${keptTagCount(tagIdOf(tag))}) - (${pairCount(tag, without[0]!)}) AS total`
  // The count tests and a ranked order read the links' copies of the counts.
  return totalAndPage(db, total, taggedIds(tagIdOf(tag), sort, paging, narrowing, search.unvoted), LIST_SORTS[sort],
    { username: true, join: sql`u.id = p.upload_id`, copies: counted || sort !== 'new' })
}

/**
 * linkSearchPage for a tag AND an OR of tags (`(a OR b) c`), nothing else:
 * the page walks c's links, each looked up for a or b. An OR drops a tag no
 * upload has, and one holding c itself is c alone. The total of c with one
 * tag is the pair's kept count; with two, the two pairs' kept counts less
 * the three tags' kept triple (triples.ts, kept from the first such search
 * on; matched within the budget while it cannot be kept). Null for more
 * than two, or when the walk would read more than matching does
 * (orWalkPays, the page's reach over the larger pair's count: the share of
 * c's links it reads).
 */
async function anyOfPage(db: Executor, search: LinkSearch, paging: Paging, sort: Sort, budgetMs: number) {
  const { tag, anyOf } = search
  if (search.without.length > 0 || search.tests.length > 0) return null
  const sizes = await knownTagSizes(db, [tag, ...anyOf])
  const known = anyOf.filter(slug => sizes.has(slug))
  if (!sizes.has(tag) || known.length === 0) return { uploads: [], total: 0 }
  if (known.includes(tag)) return tagPage(db, tag, paging, { ...PUBLIC_VIEW, sort })
  if (known.length > 2) return null
  const pairs = await Promise.all(known.map(slug => pairSize(db, tag, slug)))
  const share = Math.min(1, (offset(paging) + paging.limit) / Math.max(1, ...pairs))
  const others = known.reduce((sum, slug) => sum + sizes.get(slug)!, 0)
  if (!orWalkPays(db, sizes.get(tag)!, others, pairs.reduce((sum, pair) => sum + pair, 0), share)) return null
  const narrowing = sql` AND EXISTS (SELECT 1 FROM upload_tags x WHERE x.upload_id = ut.upload_id AND x.tag_id ${tagIn(known)}${LOOKED_UP})`
  const keys = taggedIds(tagIdOf(tag), sort, paging, narrowing)
  const options = { username: true, join: sql`u.id = p.upload_id`, copies: sort !== 'new' }
  const page = (executor: Executor, total: Query) => totalAndPage(executor, total, keys, LIST_SORTS[sort], options)
  if (known.length === 1) return page(db, pairCount(tag, known[0]!))
  const either = [known[0]!, known[1]!] as const
  const all = [tag, ...either] as const
  if (!foundWithoutRoom(db, all)) {
    // The kept triple is read with the page: its total is null while the triple is not kept.
    const kept = await keptTotalAndPage(db, orTotal(tag, either, keptTriple(all)), keys, LIST_SORTS[sort], options)
    if (kept) return kept
    if (await keepTriple(db, all, (executor, budgetOf) => matchedTriple(executor, all, budgetOf), budgetMs)) {
      return page(db, orTotal(tag, either, keptTriple(all)))
    }
  }
  // A ranked page may copy pending votes first (totalAndPage): not within the budget.
  if (sort !== 'new') await flushRankCopies(db)
  return withinBudget(db, budgetMs, async (executor, _budget, budgetOf) => page(executor, orTotal(tag, either, await matchedTriple(executor, all, budgetOf))))
}

/**
 * Whether anyOfPage's walk costs less than matching: it reads `share` of the
 * walked tag's links (`walked` of them), each looked up among the OR's tags'
 * links, where matching reads those of all the tags (`walked` + `others`)
 * and then every upload found (`found`, the pairs' counts summed), as
 * walkPays weighs a pair's page. A look-up of one link costs SQLite about two
 * lookups by key (8 links merged) and PostgreSQL about 2 µs.
 */
function orWalkPays(db: Executor, walked: number, others: number, found: number, share: number): boolean {
  if (db.dialect === 'postgres') return share * walked * 2 < (walked + others) * 0.0086 + found * 1.9
  return share * walked * 8 < walked + others
}

/**
 * The count of public uploads carrying `tag` and one of `either` at least,
 * as a statement yielding `total`: the two pairs' kept counts (tag_pairs)
 * less `triple`, the uploads carrying all three (null when `triple` yields
 * no row).
 */
function orTotal(tag: string, either: readonly [string, string], triple: Query): Query {
  return sql`SELECT (${pairCount(tag, either[0])}) + (${pairCount(tag, either[1])}) - (${triple}) AS total`
}

/**
 * The public uploads carrying all three tags, matched: on PostgreSQL in
 * uploads_public_tag_ids_idx, whose three posting lists are intersected
 * inside the index; on SQLite the three tags' links merged in upload id
 * order (tagTermsIds), each found upload then checked for being public.
 */
async function matchedTriple(db: Executor, all: readonly string[], budgetOf: BudgetOf): Promise<Query> {
  return db.dialect === 'postgres'
    ? sql`SELECT count(*) FROM uploads u WHERE u.is_private = 0 AND ${carryingTags([...all], 'all')}`
    : sql`SELECT count(*) FROM (${(await tagTermsIds(db, { all: [...all], any: [], none: [] }, budgetOf))!}) m CROSS JOIN uploads u ON u.id = m.upload_id WHERE u.is_private = 0`
}
