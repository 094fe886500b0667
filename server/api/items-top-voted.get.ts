import { featureList } from '../services/uploads-list'

/** GET /api/items-top-voted: the 6 public uploads with the most upvotes (the caller's hidden tags left out). */
export default defineEventHandler(async (event) => {
  const at = dataVersionOf(event)
  return withCallerFavourites(event, await featureList(useDB(), 'top-voted', await hiddenTagsOfCaller(event), at))
})
