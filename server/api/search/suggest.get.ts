import { SearchSuggestQuerySchema } from '#shared/schemas/lists'
import { suggestSearch } from '../../services/search'

/** GET /api/search/suggest?q=: tags and field names completing the last term of a query. */
export default defineEventHandler((event) => {
  const { q } = queryValidated(event, SearchSuggestQuerySchema)
  return suggestSearch(useDB(), q, dataVersionOf(event))
})
