import { ForgotPasswordSchema } from '#shared/schemas/auth'
import { createPasswordResetToken, FORGOT_PASSWORD_MESSAGE } from '../../services/passwords'

/**
 * POST /api/auth/forgot-password: e-mails a reset link to a known address.
 * The answer is the same whether or not the account exists, and the mail is
 * sent after the answer so its timing does not tell either.
 */
export default defineEventHandler(async (event) => {
  const { email } = await readValidated(event, ForgotPasswordSchema)
  const reset = createPasswordResetToken(useSqlite(), email)
  if (reset) event.waitUntil(sendPasswordResetMail(reset))
  return { message: FORGOT_PASSWORD_MESSAGE }
})
