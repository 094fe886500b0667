import { MfaCodeBodySchema } from '#shared/schemas/auth'
import { enableMfa } from '../../../services/mfa'

/** POST /api/auth/mfa/verify (cookie): a code from the authenticator confirms the setup. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { mfaCode } = await readValidated(event, MfaCodeBodySchema)
  return enableMfa(useDB(), actor.id, mfaCode)
})
