import { ForgotPasswordSchema } from '#shared/schemas/auth'
import { createPasswordResetToken, FORGOT_PASSWORD_MESSAGE } from '../../services/passwords'

/**
 * POST /api/auth/forgot-password: e-mails a reset link to a known address.
 * The answer is the same whether or not the account exists: the look-up,
 * the token and the mail all happen after the answer, so its timing does
 * not tell either.
 */
export default defineEventHandler(async (event) => {
  const { email } = await readValidated(event, ForgotPasswordSchema)
  event.waitUntil(resetAfterAnswer(email))
  return { message: FORGOT_PASSWORD_MESSAGE }
})

async function resetAfterAnswer(email: string): Promise<void> {
  try {
    const reset = await createPasswordResetToken(useDB(), email)
    if (reset) await sendPasswordResetMail(reset)
  }
  catch (error) {
    console.error(`[mail] password reset failed: ${(error as Error).message}`)
  }
}
