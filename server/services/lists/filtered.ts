/** GET /api/uploads/filtered and GET /api/search: public uploads narrowed by tags or a search, with their total. */
import { DeadlinePassedError, type Database, type Executor } from '../../database/port'
import { sql, type Query } from '../../database/sql'
import { cachedList, type DataVersion } from '../list-cache'
import { overBudget, withinBudget, type BudgetOf } from '../search-budget'
import { callerConditions, narrowed, periodSince, PUBLIC_VIEW, tagSlugs, viewConditions, viewKey, type ListView } from './filters'
import { pageWithTotal } from './page'
import type { Paging } from './paging'
import { LINK_SORTS, LIST_SORTS, ORDER_COLUMNS } from './sorts'
import { eitherTagPage, linkSearchPage, oneTagSince, pairPage, taggedSource, tagPage, type LinkSearch } from './tags'
import { wordPage } from './words'

/** GET /api/uploads/filtered: public uploads with all (or any) of the tags, in the view's order. */
export function listFilteredUploads(db: Database, query: Paging & { tags?: string, match: 'all' | 'any' }, view: ListView = PUBLIC_VIEW, at?: DataVersion) {
  const slugs = tagSlugs(query.tags)
  return cachedList(db, `filtered ${query.match} ${query.page} ${query.limit} ${slugs.join(',')} ${viewKey(view)}`, async () => listFiltered(db, slugs, query, view), at)
}

/** Whether a list over tags may read their links' pages and kept counts: over all time, in an order the links keep, nothing of the caller's narrowing it. */
export function onTagLinks(view: ListView): boolean {
  return LINK_SORTS.includes(view.sort) && periodSince(view) === null && !narrowed(view)
}

async function listFiltered(db: Executor, slugs: string[], query: Paging & { match: 'all' | 'any' }, view: ListView) {
  const since = periodSince(view)
  const onLinks = LINK_SORTS.includes(view.sort)
  // Over all time, a tag's page and a pair's read the tags' links.
  const onAllLinks = onLinks && since === null
  // Each way resolves aliases where it reads the tags (in its statement, or taggedSource on
  // SQLite): no round trip for it on PostgreSQL.
  if (slugs.length === 2 && onTagLinks(view)) {
    const paired = query.match === 'all'
      ? await pairPage(db, slugs, query, view.sort)
      : await eitherTagPage(db, [slugs[0]!, slugs[1]!], query, view.sort)
    if (paired) return { ...paired, page: query.page, limit: query.limit }
  }
  if (onAllLinks && slugs.length === 1) {
    return { ...await tagPage(db, slugs[0]!, query, view), page: query.page, limit: query.limit }
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
 * server/services/search.ts; or made when the answer is not cached, as it
 * may read the tags' sizes, with the budget's test for the rows it reads), in the view's order, with the total, cached like
 * the other lists under `key` (what tells conditions apart). When nothing of
 * the caller's or a period narrows the list, a query that kept data answers
 * (`kept`, the same uploads as `condition`) reads it: one tag's links
 * (`links`, linkSearchPage), or one word's kept count (`word`, wordPage). Any
 * other is matched once (materialised with the order's columns), then counted
 * and paged, within `budgetMs` or refused: 400 `Query too complex`
 * (search-budget.ts). A refusal is kept like an answer, so the same query is
 * not weighed again until the next write.
 */
export async function listMatchingUploads(db: Database, key: string, condition: Query | ((db: Executor, budgetOf: BudgetOf) => Promise<Query>), query: Paging, view: ListView, budgetMs: number, at?: DataVersion,
  kept: { links?: LinkSearch, word?: string } = {}) {
  const answer = await cachedList(db, `search ${query.page} ${query.limit} ${viewKey(view)} ${key}`, async () => {
    const onAll = !narrowed(view) && periodSince(view) === null
    try {
      if (kept.links && onAll && LINK_SORTS.includes(view.sort)) {
        const found = await linkSearchPage(db, kept.links, query, view.sort, budgetMs)
        if (found) return { ...found, page: query.page, limit: query.limit }
      }
      if (kept.word !== undefined && onAll) {
        const found = await wordPage(db, kept.word, query, view.sort, budgetMs)
        if (found) return { ...found, page: query.page, limit: query.limit }
      }
      return await withinBudget(db, budgetMs, async (executor, budget, budgetOf) => {
        const where = typeof condition === 'function' ? await condition(executor, budgetOf) : condition
        const source = sql`uploads u WHERE ${budget}u.is_private = 0 AND ${where}${viewConditions(view)}`
        const { uploads, total } = await pageWithTotal(executor, source, LIST_SORTS[view.sort], query, { username: true, materialise: ORDER_COLUMNS[view.sort] })
        return { uploads, total, page: query.page, limit: query.limit }
      })
    }
    catch (error) {
      if (error instanceof DeadlinePassedError) return null
      throw error
    }
  }, at)
  if (answer === null) throw overBudget()
  return answer
}
