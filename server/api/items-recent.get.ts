import { featureList } from '../services/uploads-list'

/** GET /api/items-recent: the 6 newest public uploads (the caller's hidden tags left out). */
export default defineEventHandler(async (event) => {
  const at = dataVersionOf(event)
  return withCallerFavourites(event, await featureList(useDB(), 'recent', await hiddenTagsOfCaller(event), at))
})
