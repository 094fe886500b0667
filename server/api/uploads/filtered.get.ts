import { FilteredListQuerySchema } from '#shared/schemas/lists'
import { listFilteredUploads } from '../../services/lists'

/** GET /api/uploads/filtered?tags=a,b[&match=any]: public uploads carrying all (or any) of the tags, in the chosen order. */
export default defineEventHandler(async (event) => {
  const query = queryValidated(event, FilteredListQuerySchema)
  const at = dataVersionOf(event)
  const view = await listViewOf(event, query)
  return withCallerFavourites(event, await listFilteredUploads(useDB(), query, view, at))
})
