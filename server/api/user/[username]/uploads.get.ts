import { UsernameParamsSchema, UserListQuerySchema } from '#shared/schemas/lists'
import { listUserUploads } from '../../../services/lists'

/** GET /api/user/{username}/uploads: the user's public uploads (never the private ones), as rating= and the caller's filter leave them. */
export default defineEventHandler(async (event) => {
  const { username } = paramsValidated(event, UsernameParamsSchema)
  const query = queryValidated(event, UserListQuerySchema)
  const at = dataVersionOf(event)
  return withCallerFavourites(event, await listUserUploads(useDB(), username, query, await filterOfCaller(event, query.rating), at))
})
