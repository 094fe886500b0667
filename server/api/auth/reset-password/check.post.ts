import { ResetTokenCheckSchema } from '#shared/schemas/auth'
import { resetTokenStatus } from '../../../services/passwords'

/** POST /api/auth/reset-password/check: is the e-mailed token live, and does the reset need an MFA code? Nothing is used up. */
export default defineEventHandler(async (event) => {
  const { token } = await readValidated(event, ResetTokenCheckSchema)
  return resetTokenStatus(useDB(), token)
})
