import { SearchQuerySchema } from '#shared/schemas/lists'
import { asksAboutCaller, parseSearch, searchUploads } from '../../services/search'

/**
 * GET /api/search?q=: public uploads matching a query of the search language, as
 * /api/uploads/filtered answers; 400 `Query too complex` past NUXT_SEARCH_BUDGET_MS.
 */
export default defineEventHandler(async (event) => {
  const query = queryValidated(event, SearchQuerySchema)
  const node = parseSearch(query.q)
  const at = dataVersionOf(event)
  const view = await listViewOf(event, { ...query, unvoted: false })
  const caller = asksAboutCaller(node) ? (await requireUser(event)).id : null
  if (caller !== null) setCachePolicy(event, 'personal')
  return withCallerFavourites(event, await searchUploads(useDB(), node, query, view, caller, useRuntimeConfig(event).searchBudgetMs, at))
})
