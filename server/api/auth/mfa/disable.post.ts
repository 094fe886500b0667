import { MfaDisableSchema } from '#shared/schemas/auth'
import { disableMfa } from '../../../services/mfa'

/** POST /api/auth/mfa/disable (cookie): password and a current code turn MFA off. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const input = await readValidated(event, MfaDisableSchema)
  return disableMfa(useDB(), actor.id, input)
})
