import { setupMfa } from '../../../services/mfa'

/** POST /api/auth/mfa/setup (cookie): secret, QR code and backup codes; MFA is on after verify. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  return setupMfa(useDB(), actor.id)
})
