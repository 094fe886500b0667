import type { H3Event } from 'h3'
import { createEmailVerificationToken } from '../services/email-verification'
import { emailVerificationMail, sendMail } from '../services/mail'

/**
 * Stores a new verification token for `userId` (voiding older ones; 409 when
 * already verified) and mails it after the answer, as the reset mail goes.
 */
export async function startEmailVerification(event: H3Event, userId: string): Promise<void> {
  const verification = await createEmailVerificationToken(useDB(), userId)
  event.waitUntil(sendEmailVerificationMail(verification))
}

/** Sends the address-verification e-mail; in outbox mode the link is also logged. Failures are logged, never thrown. */
export async function sendEmailVerificationMail(verification: { to: string, token: string }): Promise<void> {
  const mail = emailVerificationMail(verification.to, useRuntimeConfig().public.siteUrl, verification.token)
  try {
    const sent = await sendMail(mailConfig(), mail)
    if (sent.file) console.info(`[mail] e-mail verification for ${verification.to}: ${mail.link} (written to ${sent.file})`)
  }
  catch (error) {
    console.error(`[mail] could not send the e-mail verification: ${(error as Error).message}`)
  }
}
