import { getQuery, getRouterParam, isError } from 'h3'
import { DeadlinePassedError } from '../../database/port'
import { asksAboutCaller, parseSearch } from '../../services/search'
import { overBudget } from '../../services/search-budget'
import type { FeedSource } from '../../services/feeds'

/**
 * GET /feeds/recent.atom|.json and /feeds/top.atom|.json: the 50 newest or
 * top-voted public uploads; /feeds/search.atom|.json?q=: the 50 newest
 * public uploads matching the query (400 for an invalid one; `is:` needs a
 * caller, and a feed has none: 401; past the search budget: 400 `Query too complex`).
 */
export default defineEventHandler((event) => {
  const file = feedFile(getRouterParam(event, 'file'))
  let source: FeedSource | null = null
  if (file?.name === 'recent' || file?.name === 'top') source = { kind: file.name }
  else if (file?.name === 'search') {
    const q = getQuery(event).q
    if (q !== undefined && typeof q !== 'string') return feedErrorBody(event, 400, 'Invalid query', { position: 0, expected: 'one query' })
    try {
      const node = parseSearch(q ?? '')
      if (asksAboutCaller(node)) return feedErrorBody(event, 401, 'Authentication required')
      source = { kind: 'search', q: q ?? '', node, budgetMs: useRuntimeConfig(event).searchBudgetMs }
    }
    catch (error) {
      if (isError(error) && error.statusCode === 400) return feedErrorBody(event, 400, error.message, error.data as Record<string, unknown> | undefined)
      throw error
    }
  }
  return sendFeed(event, source, file?.format, 'Feed not found').catch((error: unknown) => {
    if (!(error instanceof DeadlinePassedError)) throw error
    const refused = overBudget()
    return feedErrorBody(event, 400, refused.message, refused.data as Record<string, unknown>)
  })
})
