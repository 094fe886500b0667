import { ResetPasswordSchema } from '#shared/schemas/auth'
import { resetPassword } from '../../services/passwords'

/** POST /api/auth/reset-password: token from the e-mail + new password; every session ends. */
export default defineEventHandler(async (event) => {
  const input = await readValidated(event, ResetPasswordSchema)
  return resetPassword(useDB(), input)
})
