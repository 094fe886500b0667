import { listApiTokens } from '../../../services/api-tokens'

/** GET /api/auth/tokens (JWT bearer or cookie): the caller's API tokens, never their values. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event, { allowBearer: true })
  return listApiTokens(useDB(), actor.id)
})
