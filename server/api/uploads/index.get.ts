import { UploadListQuerySchema } from '#shared/schemas/lists'
import { listUploads } from '../../services/uploads-list'

/** GET /api/uploads: public uploads, newest first. */
export default defineEventHandler((event) => {
  const query = queryValidated(event, UploadListQuerySchema)
  return listUploads(useDB(), query)
})
