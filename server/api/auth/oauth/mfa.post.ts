import { OAuthMfaSchema } from '#shared/schemas/oauth'
import { completeOAuthMfa } from '../../../services/oauth-accounts'

/** POST /api/auth/oauth/mfa: the TOTP/backup-code step of an external sign-in; sets the auth-token cookie. */
export default defineEventHandler(async (event) => {
  const pending = await requirePendingMfa(event)
  const { code } = await readValidated(event, OAuthMfaSchema)
  const user = await completeOAuthMfa(useDB(), pending, code)
  clearPendingMfa(event)
  const token = await signInAs(event, user.id)
  return { user, token, mfaRequired: false }
})
