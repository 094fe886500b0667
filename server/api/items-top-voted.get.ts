import { FeatureListQuerySchema } from '#shared/schemas/lists'
import { featureList } from '../services/lists'

/** GET /api/items-top-voted: the 6 public uploads with the most upvotes (rating=, and the caller's hidden tags and ratings left out). */
export default defineEventHandler(async (event) => {
  const query = queryValidated(event, FeatureListQuerySchema)
  const at = dataVersionOf(event)
  return withCallerFavourites(event, await featureList(useDB(), 'top-voted', await filterOfCaller(event, query.rating), at))
})
