import { passkeyLoginOptions } from '../../../../services/passkeys'

/** POST /api/auth/passkeys/login/options: a sign-in challenge for any passkey of this site (single use, 5 minutes). */
export default defineEventHandler(async () => {
  return passkeyLoginOptions(useDB(), relyingParty())
})
