import { FavouritesQuerySchema } from '#shared/schemas/favourites'
import { listMyFavourites } from '../../services/favourites'

/** GET /api/profile/favourites: the caller's favourites, newest favourite first. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  setCachePolicy(event, 'personal')
  const query = queryValidated(event, FavouritesQuerySchema)
  return withCallerFavourites(event, await listMyFavourites(useDB(), actor, query, await filterOfCaller(event, query.rating)))
})
