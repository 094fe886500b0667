import { PreferencesSchema } from '#shared/schemas/favourites'
import { setPreferences } from '../../services/favourites'

/** PUT /api/profile/preferences: the caller's preferences (publicFavourites, explicit, suggestive); a field left out stays as it is. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const input = await readValidated(event, PreferencesSchema)
  return setPreferences(useDB(), actor.id, input)
})
