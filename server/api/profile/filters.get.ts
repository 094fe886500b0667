import { profileFilters } from '../../services/lists'

/** GET /api/profile/filters: the caller's hidden tags. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  setCachePolicy(event, 'personal')
  return profileFilters(useDB(), actor.id)
})
