import { ProfileFiltersSchema } from '#shared/schemas/filters'
import { setProfileFilters } from '../../services/lists'

/** PUT /api/profile/filters: replaces the caller's hidden tags. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const input = await readValidated(event, ProfileFiltersSchema)
  return setProfileFilters(useDB(), actor.id, input)
})
