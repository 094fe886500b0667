import { VerifyEmailSchema } from '#shared/schemas/auth'
import { verifyEmail } from '../../services/email-verification'

/** POST /api/auth/verify-email: the token from the e-mail proves the address (no sign-in needed). */
export default defineEventHandler(async (event) => {
  const { token } = await readValidated(event, VerifyEmailSchema)
  return verifyEmail(useDB(), token, adminEmails())
})
