import { MyUploadsQuerySchema } from '#shared/schemas/lists'
import { listMyUploads } from '../../services/my-uploads'

/** GET /api/profile/uploads: the caller's uploads, private ones included ("My uploads"). */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  setCachePolicy(event, 'personal')
  const query = queryValidated(event, MyUploadsQuerySchema)
  return withCallerFavourites(event, await listMyUploads(useDB(), actor, query))
})
