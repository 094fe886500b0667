import { TagSearchQuerySchema } from '#shared/schemas/tags'
import { searchTags } from '../services/upload-tags'

/** GET /api/tags?q=&limit=: tag discovery over public uploads, most used first. */
export default defineEventHandler((event) => {
  const query = queryValidated(event, TagSearchQuerySchema)
  return searchTags(useDB(), query, dataVersionOf(event))
})
