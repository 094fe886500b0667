import { randomUUID } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import nodemailer from 'nodemailer'

export interface MailConfig {
  /** `smtp://user:pass@host:port`; empty = write `.eml` files to `outboxDir`. */
  smtpUrl: string
  from: string
  outboxDir: string
}

export interface Mail {
  to: string
  subject: string
  text: string
  html: string
}

/**
 * Sends one message with a plain-text and an HTML part: over SMTP when
 * `smtpUrl` is set, else written as `<outboxDir>/<time>-<id>.eml`.
 * Answers where it went (the message id, and the file in outbox mode).
 */
export async function sendMail(config: MailConfig, mail: Mail): Promise<{ messageId: string, file?: string }> {
  const message = { from: config.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html }
  if (config.smtpUrl) {
    const info = await nodemailer.createTransport(config.smtpUrl).sendMail(message)
    return { messageId: info.messageId }
  }
  const info = await nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }).sendMail(message)
  await mkdir(config.outboxDir, { recursive: true })
  const file = join(config.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`)
  await writeFile(file, info.message as Buffer, { mode: 0o600 })
  return { messageId: info.messageId, file }
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)

/** The password-reset e-mail: the link `<site>/reset-password?token=<token>` and the token itself. */
export function passwordResetMail(to: string, siteUrl: string, token: string): Mail & { link: string } {
  const link = `${siteUrl.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`
  const text = [
    'Someone asked to reset the password of your Does It Fuck? account.',
    '',
    `Open this link within one hour to choose a new password:`,
    link,
    '',
    `Or enter this reset token: ${token}`,
    '',
    'If it was not you, ignore this e-mail; your password stays the same.',
  ].join('\n')
  const html = `<p>Someone asked to reset the password of your Does It Fuck? account.</p>
<p>Open this link within one hour to choose a new password:<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>Or enter this reset token: <code>${escapeHtml(token)}</code></p>
<p>If it was not you, ignore this e-mail; your password stays the same.</p>`
  return { to, subject: 'Reset your Does It Fuck? password', text, html, link }
}

/** The address-verification e-mail: the link `<site>/verify-email?token=<token>` and the token itself. */
export function emailVerificationMail(to: string, siteUrl: string, token: string): Mail & { link: string } {
  const link = `${siteUrl.replace(/\/+$/, '')}/verify-email?token=${encodeURIComponent(token)}`
  const text = [
    'Welcome to Does It Fuck?',
    '',
    'Open this link within 24 hours to confirm that this address is yours:',
    link,
    '',
    `Or enter this verification token: ${token}`,
    '',
    'If you did not create an account, ignore this e-mail; the address stays unconfirmed.',
  ].join('\n')
  const html = `<p>Welcome to Does It Fuck?</p>
<p>Open this link within 24 hours to confirm that this address is yours:<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>Or enter this verification token: <code>${escapeHtml(token)}</code></p>
<p>If you did not create an account, ignore this e-mail; the address stays unconfirmed.</p>`
  return { to, subject: 'Confirm your Does It Fuck? e-mail address', text, html, link }
}
