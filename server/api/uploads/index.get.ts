import { UploadListQuerySchema } from '#shared/schemas/lists'
import { listUploads } from '../../services/lists'

/** GET /api/uploads: public uploads, newest first or by a ranking; the caller's hidden tags left out. */
export default defineEventHandler(async (event) => {
  const query = queryValidated(event, UploadListQuerySchema)
  const at = dataVersionOf(event)
  const view = await listViewOf(event, query)
  return withCallerFavourites(event, await listUploads(useDB(), query, view, at))
})
