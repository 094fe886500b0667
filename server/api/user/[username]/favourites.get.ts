import { FavouritesQuerySchema } from '#shared/schemas/favourites'
import { UsernameParamsSchema } from '#shared/schemas/lists'
import { listUserFavourites } from '../../../services/favourites'

/** GET /api/user/{username}/favourites: the user's favourites among public uploads, newest first; 404 when they keep them private. */
export default defineEventHandler(async (event) => {
  const { username } = paramsValidated(event, UsernameParamsSchema)
  const query = queryValidated(event, FavouritesQuerySchema)
  const at = dataVersionOf(event)
  return withCallerFavourites(event, await listUserFavourites(useDB(), username, query, await filterOfCaller(event, query.rating), at))
})
