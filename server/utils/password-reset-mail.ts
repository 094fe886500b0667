import { passwordResetMail, sendMail, type MailConfig } from '../services/mail'

/** Mail settings from runtimeConfig (NUXT_SMTP_URL, NUXT_MAIL_FROM) and the data dir's outbox. */
export function mailConfig(): MailConfig {
  const config = useRuntimeConfig()
  return { smtpUrl: String(config.smtpUrl || ''), from: String(config.mailFrom), outboxDir: dataPath('outbox') }
}

/** Sends the reset e-mail; in outbox mode the link is also logged. Failures are logged, never thrown. */
export async function sendPasswordResetMail(reset: { to: string, token: string }): Promise<void> {
  const config = mailConfig()
  const mail = passwordResetMail(reset.to, useRuntimeConfig().public.siteUrl, reset.token)
  try {
    const sent = await sendMail(config, mail)
    if (sent.file) console.info(`[mail] password reset for ${reset.to}: ${mail.link} (written to ${sent.file})`)
  }
  catch (error) {
    console.error(`[mail] could not send the password reset e-mail: ${(error as Error).message}`)
  }
}
