import { OAuthProviderParamsSchema } from '#shared/schemas/oauth'
import { unlinkOAuthAccount } from '../../../services/oauth-accounts'

/** DELETE /api/auth/oauth-accounts/{provider} (C): unlinks, unless it is the last way to sign in. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { provider } = paramsValidated(event, OAuthProviderParamsSchema)
  await unlinkOAuthAccount(useDB(), actor.id, provider)
  return { success: true }
})
