import { FeatureListQuerySchema } from '#shared/schemas/lists'
import { featureList } from '../services/lists'

/** GET /api/items-recent: the 6 newest public uploads (rating=, and the caller's hidden tags and ratings left out). */
export default defineEventHandler(async (event) => {
  const query = queryValidated(event, FeatureListQuerySchema)
  const at = dataVersionOf(event)
  return withCallerFavourites(event, await featureList(useDB(), 'recent', await filterOfCaller(event, query.rating), at))
})
