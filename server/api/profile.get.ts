import { profileOf } from '../services/accounts'

/** GET /api/profile: the caller's account and counts (private, cached 30 s). */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  return profileOf(useDB(), actor)
})
