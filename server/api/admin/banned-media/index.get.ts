import { BannedMediaQuerySchema } from '#shared/schemas/removal'
import { listBannedMedia } from '../../../services/banned-media'

/** GET /api/admin/banned-media: the banned images, newest first. */
export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  const query = queryValidated(event, BannedMediaQuerySchema)
  return listBannedMedia(useDB(), query)
})
