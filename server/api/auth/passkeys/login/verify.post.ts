import type { AuthenticationResponseJSON } from '@simplewebauthn/server'
import { PasskeyLoginSchema } from '#shared/schemas/passkeys'
import { verifyPasskeyLogin } from '../../../../services/passkeys'

/**
 * POST /api/auth/passkeys/login/verify: signs in with a passkey, answering like
 * POST /api/auth (body and cookie). A verified passkey stands in for the MFA step.
 */
export default defineEventHandler(async (event) => {
  const { response } = await readValidated(event, PasskeyLoginSchema)
  const { user } = await verifyPasskeyLogin(useDB(), relyingParty(), response as unknown as AuthenticationResponseJSON)
  const token = await signInAs(event, user.id)
  return { user, token, mfaRequired: false }
})
