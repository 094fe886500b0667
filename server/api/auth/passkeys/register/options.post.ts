import { passkeyRegistrationOptions } from '../../../../services/passkeys'

/** POST /api/auth/passkeys/register/options (cookie): a registration challenge for the caller (single use, 5 minutes). */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  return passkeyRegistrationOptions(useDB(), relyingParty(), actor)
})
