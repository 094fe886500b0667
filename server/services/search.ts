import { parseSearchQuery, SEARCH_FIELDS, SearchQueryError, type CountField, type NumberTest, type SearchNode } from '../../shared/utils/search-query'
import { slugify } from '../../shared/utils/tags'
import type { Database, Executor } from '../database/port'
import { dialects, sql, type Query } from '../database/sql'
import { apiError, unauthorized } from './errors'
import type { BudgetOf } from './search-budget'
import { cachedList, type DataVersion } from './list-cache'
import { aliasesAmong, aliasesStartingWith } from './tag-rules'
import { searchTags } from './upload-tags'
import { carryingTags, listFilteredUploads, listMatchingUploads, onTagLinks, tagTermsIds, type LinkSearch, type ListView, type Paging, type TagTerms } from './lists'

/** The search language's fields this site offers: all of them. */
const OFFERED = { rating: true, favourites: true } as const

/**
 * A query parsed (docs/behaviour.md, Search), or 400: `Invalid query` with
 * `data: { position, expected }`, `Query too complex` likewise. A blank query
 * is null: every public upload.
 */
export function parseSearch(q: string, now = new Date()): SearchNode | null {
  if (q.trim() === '') return null
  try {
    return parseSearchQuery(q, now, OFFERED)
  }
  catch (error) {
    if (error instanceof SearchQueryError) throw apiError(400, error.message, { position: error.position, expected: error.expected })
    throw error
  }
}

/** Whether the query asks about the caller (`is:`): it then needs a signed-in caller. */
export function asksAboutCaller(node: SearchNode | null): boolean {
  if (node === null) return false
  switch (node.kind) {
    case 'and': case 'or': return node.children.some(asksAboutCaller)
    case 'not': return asksAboutCaller(node.child)
    default: return node.kind === 'is'
  }
}

/**
 * The query as one condition on `uploads u`: every value a bound parameter,
 * every condition true or false (never NULL), so NOT of anything is its
 * opposite. A tag no upload carries is false: an AND with it matches nothing,
 * an OR drops it. `caller` is the signed-in caller's id, needed by `is:`.
 */
export function searchCondition(node: SearchNode, caller: string | null, sets?: ReadonlyMap<SearchNode, TagSet>): Query {
  const set = sets?.get(node)
  const matched = set && (set.ids ? sql`u.id IN (${set.ids})` : sql`${FALSE}`)
  switch (node.kind) {
    case 'and': {
      const rest = node.children.filter(child => !set?.covers.has(child)).map(child => searchCondition(child, caller, sets))
      return sql`(${sql.join(matched ? [matched, ...rest] : rest, ' AND ')})`
    }
    case 'or': return matched ?? sql`(${sql.join(node.children.map(child => searchCondition(child, caller, sets)), ' OR ')})`
    case 'not': return sql`NOT (${searchCondition(node.child, caller, sets)})`
    case 'tag': return sql`${dialects({
      // PostgreSQL: uploads_public_tag_ids_idx (GIN) answers it; an unknown slug's NULL id is in no array.
      postgres: carryingTags([node.slug], 'all'),
      sqlite: sql`u.id IN (SELECT ut.upload_id FROM upload_tags ut WHERE ut.tag_id IN (SELECT id FROM tags WHERE slug = ${node.slug}))`,
    })}`
    case 'text': return textCondition(node.words, node.prefix)
    case 'count': return countCondition(node.field, node.test)
    case 'time': return sql`(${sql.join([
      ...(node.test.from === null ? [] : [sql`u.created_at >= ${node.test.from}`]),
      ...(node.test.to === null ? [] : [sql`u.created_at < ${node.test.to}`]),
    ], ' AND ')})`
    case 'user': return sql`u.user_id IN (SELECT id FROM users WHERE lower(username) = lower(${node.username}))`
    case 'type': return sql`u.upload_type = ${node.value}`
    case 'rating': return sql`u.rating = ${node.value}`
    case 'is': {
      if (caller === null) throw unauthorized()
      if (node.value === 'mine') return sql`u.user_id = ${caller}`
      const voted = sql`EXISTS (SELECT 1 FROM votes v WHERE v.user_id = ${caller} AND v.upload_id = u.id)`
      if (node.value === 'voted') return voted
      if (node.value === 'unvoted') return sql`NOT ${voted}`
      if (node.value === 'fav') return sql`EXISTS (SELECT 1 FROM favourites f WHERE f.user_id = ${caller} AND f.upload_id = u.id)`
      break
    }
  }
  throw apiError(400, 'Invalid query', { position: 0, expected: 'a supported field' })
}

/** Tags of an AND or an OR (`covers`, its children) matched as one set: its upload ids, null when none can match. */
interface TagSet { covers: ReadonlySet<SearchNode>, ids: Query | null }

/**
 * The query as searchCondition gives it; on SQLite with the tags under each
 * AND (its tags, its NOT tags and one OR of tags) and each OR of tags alone
 * matched as one set of upload ids (lists/tags.ts, tagTermsIds), where each
 * tag apart would look every match up in the others' links. `budgetOf`:
 * the search budget's test for the links read (search-budget.ts).
 */
export async function matchingCondition(db: Executor, node: SearchNode, caller: string | null, budgetOf?: BudgetOf): Promise<Query> {
  if (db.dialect !== 'sqlite') return searchCondition(node, caller)
  const sets = new Map<SearchNode, TagSet>()
  const visit = async (n: SearchNode): Promise<void> => {
    if (n.kind === 'not') return visit(n.child)
    if (n.kind === 'or') {
      const any = tagUnion(n)
      if (any) sets.set(n, { covers: new Set(n.children), ids: await tagTermsIds(db, { all: [], any, none: [] }, budgetOf) })
      else for (const child of n.children) await visit(child)
      return
    }
    if (n.kind !== 'and') return
    const terms: TagTerms = { all: [], any: [], none: [] }
    const covers = new Set<SearchNode>()
    for (const child of n.children) {
      const union = child.kind === 'or' && terms.any.length === 0 ? tagUnion(child) : undefined
      if (child.kind === 'tag') terms.all.push(child.slug)
      else if (child.kind === 'not' && child.child.kind === 'tag') terms.none.push(child.child.slug)
      else if (union) terms.any = union
      else continue
      covers.add(child)
    }
    const matches = covers.size >= 2 && (terms.all.length > 0 || terms.any.length > 0)
    if (matches) sets.set(n, { covers, ids: await tagTermsIds(db, terms, budgetOf) })
    for (const child of n.children) if (!matches || !covers.has(child)) await visit(child)
  }
  await visit(node)
  return searchCondition(node, caller, sets)
}

/** The slugs of an OR of tags alone (ORs of them too), or undefined. */
function tagUnion(node: SearchNode): string[] | undefined {
  if (node.kind === 'tag') return [node.slug]
  if (node.kind !== 'or') return undefined
  const slugs: string[] = []
  for (const child of node.children) {
    const found = tagUnion(child)
    if (!found) return undefined
    slugs.push(...found)
  }
  return slugs
}

/**
 * Full text over descriptions: whole words in order (`prefix`: the last a
 * prefix). The words are letters and digits only (the parser's rule), so
 * quoting them makes a phrase of FTS5's syntax on SQLite (uploads_fts) and
 * a tsquery literal on PostgreSQL (uploads.search_vector, normalised by the
 * same search_text() as the column).
 */
function textCondition(words: string[], prefix: boolean): Query {
  const phrase = words.join(' ')
  return sql`${dialects({
    sqlite: sql`u.rowid IN (SELECT rowid FROM uploads_fts WHERE uploads_fts MATCH ${`"${phrase}"${prefix ? '*' : ''}`})`,
    postgres: prefix && words.length === 1
      ? sql`u.search_vector @@ to_tsquery('simple', quote_literal(search_text(${phrase})) || ':*')`
      : sql`u.search_vector @@ phraseto_tsquery('simple', search_text(${phrase}))`,
  })}`
}

const TAG_COUNT = sql`(CASE WHEN u.tag_ids = '' THEN 0 ELSE length(u.tag_ids) - length(replace(u.tag_ids, ',', '')) + 1 END)`

/** The vote counts' fields, read from two columns: an upload's own counts or a tag link's copies of them. */
function voteFields(up: string, down: string) {
  const [u, d] = [sql.raw(up), sql.raw(down)]
  return {
    fucks: sql`${u}`,
    nope: sql`${d}`,
    votes: sql`(${u} + ${d})`,
    score: sql`(${u} - ${d})`,
    // An upload without votes has no ratio: it matches no ratio test (coalesce below).
    ratio: sql`(CAST(${u} AS ${dialects({ sqlite: 'REAL', postgres: 'double precision' })}) / nullif(${u} + ${d}, 0))`,
  }
}

const COUNT_FIELDS = { ...voteFields('u.upvotes', 'u.downvote_count'), tags: TAG_COUNT }

/** The same fields on a tag's link (`upload_tags ut`), read from its copies of the counts (lists/tags.ts, linkSearchPage). */
const LINK_COUNT_FIELDS: Partial<Record<CountField, Query>> = voteFields('ut.upload_upvotes', 'ut.upload_downvote_count')

/** And on a row of a tag's kept counts of links per pair of counts (`tag_vote_counts v`), which the page's total sums. */
const KEPT_COUNT_FIELDS: Partial<Record<CountField, Query>> = voteFields('v.upvotes', 'v.downvotes')

const FALSE = dialects({ sqlite: '0', postgres: 'false' })

function countCondition(field: CountField, test: NumberTest, fields: Partial<Record<CountField, Query>> = COUNT_FIELDS): Query {
  const value = fields[field]!
  const compared = test.op === 'range'
    ? sql`${value} BETWEEN ${test.from} AND ${test.to}`
    : sql`${value} ${sql.raw(test.op)} ${test.value}`
  return field === 'ratio' ? sql`coalesce(${compared}, ${FALSE})` : sql`(${compared})`
}

/**
 * GET /api/search: a page of the public uploads matching the query, in the
 * view's order, with the total, as /api/uploads/filtered answers. A blank
 * query is every public upload (the filtered list without tags).
 */
export async function searchUploads(db: Database, parsed: SearchNode | null, query: Paging, view: ListView, caller: string | null,
  budgetMs: number, at?: DataVersion) {
  if (parsed === null) return listFilteredUploads(db, { ...query, match: 'all' }, view, at)
  // One tag alone is the tag's list (which resolves an alias itself): it reads a page of
  // the tag's ordered links and its kept count instead of matching every upload carrying it.
  if (parsed.kind === 'tag') return listFilteredUploads(db, { ...query, tags: parsed.slug, match: 'all' }, view, at)
  // Two tags, both or either, read as the filtered list reads them: their pair's kept count
  // and the tags' pages (lists/tags.ts, pairPage and eitherTagPage).
  const pair = twoTags(parsed)
  if (pair && onTagLinks(view)) return listFilteredUploads(db, { ...query, tags: pair.slugs.join(','), match: pair.match }, view, at)
  const node = withAliasesResolved(parsed, await aliasesAmong(db, tagSlugsOf(parsed), at))
  // The tree names everything the answer depends on (an age as its instants); `is:` the caller too.
  const key = `${JSON.stringify(node)} ${asksAboutCaller(node) ? caller : ''}`
  return listMatchingUploads(db, key, (executor, budgetOf) => matchingCondition(executor, node, caller, budgetOf), query, view, budgetMs, at, { links: onOneTag(node), word: oneWord(node) })
}

/** Two tags, both wanted (`a b`) or either (`a OR b`), or undefined. */
function twoTags(node: SearchNode): { slugs: string[], match: 'all' | 'any' } | undefined {
  const all = node.kind === 'and' && node.children.every(child => child.kind === 'tag') ? tagSlugsOf(node) : undefined
  const any = [...new Set(tagUnion(node) ?? [])]
  if (all?.length === 2) return { slugs: all, match: 'all' }
  if (any.length === 2) return { slugs: any, match: 'any' }
  return undefined
}

/** The query's word when it is one word of the descriptions, whole (`text:word`, or a phrase of one word): its count is kept (lists/words.ts). */
export function oneWord(node: SearchNode): string | undefined {
  return node.kind === 'text' && node.words.length === 1 && !node.prefix ? node.words[0] : undefined
}

/**
 * The query as one tag's links narrowed (lists/tags.ts, linkSearchPage), when it is
 * an AND of one tag with tags left out (`a -b`), an OR of tags (`(a OR b) c`) or
 * tests of the vote counts (`votes:>=10 a`), which a link answers from its own
 * copies; otherwise undefined.
 */
export function onOneTag(node: SearchNode): LinkSearch | undefined {
  if (node.kind !== 'and') return undefined
  const found: LinkSearch = { tag: '', without: [], anyOf: [], tests: [], keptTests: [], unvoted: true }
  for (const child of node.children) {
    const union = child.kind === 'or' && found.anyOf.length === 0 ? tagUnion(child) : undefined
    if (child.kind === 'tag' && (found.tag === '' || found.tag === child.slug)) found.tag = child.slug
    else if (child.kind === 'not' && child.child.kind === 'tag') found.without.push(child.child.slug)
    else if (union) found.anyOf = [...new Set(union)]
    else if (child.kind === 'count' && LINK_COUNT_FIELDS[child.field]) {
      found.tests.push(countCondition(child.field, child.test, LINK_COUNT_FIELDS))
      found.keptTests.push(countCondition(child.field, child.test, KEPT_COUNT_FIELDS))
      found.unvoted &&= passesWithoutVotes(child.field, child.test)
    }
    else return undefined
  }
  return found.tag === '' ? undefined : { ...found, without: [...new Set(found.without)] }
}

/**
 * Whether an upload without votes passes the test: every count is 0 and it
 * has no ratio (countCondition), so `votes:>=10` leaves all of them out and
 * a tag's page of the test skips their links (lists/tags.ts, taggedIds).
 */
export function passesWithoutVotes(field: CountField, test: NumberTest): boolean {
  if (field === 'ratio') return false
  if (test.op === 'range') return test.from <= 0 && 0 <= test.to
  switch (test.op) {
    case '=': return test.value === 0
    case '>': return 0 > test.value
    case '>=': return 0 >= test.value
    case '<': return 0 < test.value
    case '<=': return 0 <= test.value
  }
}

/** The slugs of the tree's tags, each once. */
export function tagSlugsOf(node: SearchNode): string[] {
  const walk = (n: SearchNode): string[] => {
    switch (n.kind) {
      case 'and': case 'or': return n.children.flatMap(walk)
      case 'not': return walk(n.child)
      case 'tag': return [n.slug]
      default: return []
    }
  }
  return [...new Set(walk(node))]
}

/** The tree with each alias among its tags (`targets`: alias → its tag's slug) replaced by its tag's slug (server/services/tag-rules.ts). */
export function withAliasesResolved(node: SearchNode, targets: ReadonlyMap<string, string>): SearchNode {
  if (targets.size === 0) return node
  const rewrite = (n: SearchNode): SearchNode => {
    switch (n.kind) {
      case 'and': case 'or': return { ...n, children: n.children.map(rewrite) }
      case 'not': return { ...n, child: rewrite(n.child) }
      case 'tag': return { ...n, slug: targets.get(n.slug) ?? n.slug }
      default: return n
    }
  }
  return rewrite(node)
}

/**
 * Whether the full-text index holds every description as it is: SQLite's
 * uploads_fts (kept by triggers) checked against uploads; PostgreSQL's
 * search_vector is a generated column, always in step.
 */
export async function searchIndexIntact(db: Executor): Promise<boolean> {
  if (db.dialect === 'postgres') return true
  try {
    await db.run(sql`INSERT INTO uploads_fts (uploads_fts, rank) VALUES ('integrity-check', 1)`)
    return true
  }
  catch {
    return false
  }
}

/** Builds SQLite's full-text index again from the descriptions (`npm run admin -- recount`). */
export async function rebuildSearchIndex(db: Executor): Promise<void> {
  if (db.dialect === 'sqlite') await db.run(sql`INSERT INTO uploads_fts (uploads_fts) VALUES ('rebuild')`)
}

/** The fields a query may name here (OFFERED), as the search box suggests them. */
const OFFERED_FIELDS = SEARCH_FIELDS.filter(field => field !== 'rating' || OFFERED.rating)

/**
 * GET /api/search/suggest?q=: for the last term of `q` (what is being typed,
 * after the last space, comma or parenthesis, without a leading `-`), the 10
 * tags most used on public uploads whose slug starts with it (GET /api/tags's
 * prefix match) and the field names that start with it. A term that already
 * names a field (`votes:`) or is empty gets nothing.
 */
export async function suggestSearch(db: Database, q: string, at?: DataVersion) {
  const term = slugify((/[^\s,()]*$/.exec(q)?.[0] ?? '').replace(/^-+/, ''))
  if (term === '' || term.includes(':') || term.includes('"')) return { tags: [], fields: [] }
  const { tags } = await searchTags(db, { q: term, limit: 10 }, at)
  const aliases = await cachedList(db, `suggest-aliases ${term}`, () => aliasesStartingWith(db, term.replace(/[\\%_]/g, '\\$&'), 10), at)
  const found: { name: string, slug: string, count: number, aliasOf?: string }[] = [
    ...tags.map(tag => ({ name: tag.name, slug: tag.slug, count: tag.count })),
    ...aliases.map(alias => ({ name: alias.alias, slug: alias.alias, count: Number(alias.count), aliasOf: alias.slug })),
  ]
  return {
    // Most used first, as GET /api/tags; an alias after its tag on a tie.
    tags: found.sort((a, b) => b.count - a.count || Number(a.aliasOf !== undefined) - Number(b.aliasOf !== undefined)).slice(0, 10),
    fields: OFFERED_FIELDS.filter(field => field.startsWith(term)),
  }
}
