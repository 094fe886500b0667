import { listOAuthAccounts } from '../../../services/oauth-accounts'

/** GET /api/auth/oauth-accounts (C): the caller's linked providers and whether a password is set. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  setCachePolicy(event, 'personal')
  return listOAuthAccounts(useDB(), actor.id)
})
