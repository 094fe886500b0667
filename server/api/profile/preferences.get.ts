import { preferencesOf } from '../../services/favourites'

/** GET /api/profile/preferences: the caller's preferences (publicFavourites, and what their lists do with explicit and suggestive uploads). */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  setCachePolicy(event, 'personal')
  return preferencesOf(useDB(), actor.id)
})
