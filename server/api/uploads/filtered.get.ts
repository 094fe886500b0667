import { FilteredListQuerySchema } from '#shared/schemas/lists'
import { listFilteredUploads } from '../../services/uploads-list'

/** GET /api/uploads/filtered?tags=a,b[&match=any]: public uploads carrying all (or any) of the tags. */
export default defineEventHandler((event) => {
  const query = queryValidated(event, FilteredListQuerySchema)
  return listFilteredUploads(useDB(), query)
})
