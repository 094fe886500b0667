import { setResponseStatus } from 'h3'
import type { RegistrationResponseJSON } from '@simplewebauthn/server'
import { PasskeyRegisterSchema } from '#shared/schemas/passkeys'
import { registerPasskey } from '../../../../services/passkeys'

/** POST /api/auth/passkeys/register/verify (cookie): stores the passkey the authenticator made for the caller's challenge. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { name, response } = await readValidated(event, PasskeyRegisterSchema)
  const result = await registerPasskey(useDB(), relyingParty(), actor.id, { name, response: response as unknown as RegistrationResponseJSON })
  setResponseStatus(event, 201)
  return result
})
