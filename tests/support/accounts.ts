import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Secret, TOTP } from 'otpauth'
import { api, type TestUser } from './api'
import { ADMIN_EMAIL } from './global-setup'
import { sharedServer } from './shared-server'

/** The code an authenticator would show for `secret` at `timestamp` (ms). */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp })
}

export interface MfaUser extends TestUser {
  secret: string
  backupCodes: string[]
  /** Time (ms) of the step whose code turned MFA on; later codes must be from later steps. */
  verifiedAt: number
}

/** Sets MFA up and confirms it with the current code; returns the secret and backup codes. */
export async function enableMfa(user: TestUser, baseURL?: string): Promise<MfaUser> {
  const setup = await api('/api/auth/mfa/setup', { method: 'POST', token: user.token, baseURL })
  if (setup.status !== 200) throw new Error(`mfa setup failed: ${setup.status}`)
  const verifiedAt = Date.now()
  const verify = await api('/api/auth/mfa/verify', { method: 'POST', token: user.token, body: { mfaCode: totpCode(setup.body.secret, verifiedAt) }, baseURL })
  if (verify.status !== 200) throw new Error(`mfa verify failed: ${verify.status} ${JSON.stringify(verify.body)}`)
  return { ...user, secret: setup.body.secret, backupCodes: setup.body.backupCodes, verifiedAt }
}

/** Decodes quoted-printable soft breaks and escapes (enough for our own mails). */
export function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/** The reset token in a raw e-mail (the text part says "reset token: <64 hex>"). */
export function resetTokenOf(rawMail: string): string {
  const match = decodeQuotedPrintable(rawMail).match(/reset token: ([0-9a-f]{64})/)
  if (!match) throw new Error(`no reset token in mail:\n${rawMail}`)
  return match[1]!
}

/** The verification token in a raw e-mail (the text part says "verification token: <64 hex>"). */
export function verificationTokenOf(rawMail: string): string {
  const match = decodeQuotedPrintable(rawMail).match(/verification token: ([0-9a-f]{64})/)
  if (!match) throw new Error(`no verification token in mail:\n${rawMail}`)
  return match[1]!
}

/** A server's data dir and URL; the shared server's when left out. */
interface Target { dataDir?: string, baseURL?: string }
const targetOf = (target: Target) => ({ dataDir: target.dataDir ?? sharedServer().dataDir, baseURL: target.baseURL ?? sharedServer().baseURL })

/**
 * Verifies a freshly registered account's address as its owner would: the
 * token from the registration mail in the outbox, posted to verify-email.
 */
export async function verifyRegisteredEmail(user: Pick<TestUser, 'email'>, target: Target = {}): Promise<void> {
  const { dataDir, baseURL } = targetOf(target)
  const token = verificationTokenOf((await waitForOutboxMail(dataDir, user.email, undefined, 'verification')).raw)
  const verified = await api('/api/auth/verify-email', { method: 'POST', body: { token }, baseURL })
  if (verified.status !== 200) throw new Error(`verify-email failed: ${verified.status} ${JSON.stringify(verified.body)}`)
}

/**
 * A session of the server's admin (ADMIN_EMAIL, in NUXT_ADMIN_EMAILS), which
 * is an admin only once its address is verified: registered by the first
 * caller, then verified through the outbox. Files running side by side may
 * each void the other's token, so it asks again until the account is admin.
 */
export async function signInAsAdmin(target: Target = {}): Promise<string> {
  const { dataDir, baseURL } = targetOf(target)
  const credentials = { email: ADMIN_EMAIL, password: 'correct horse battery' }
  let before = outboxFiles(dataDir)
  const registered = await api('/api/auth', { method: 'POST', body: { action: 'register', username: `admin_${Date.now().toString(36)}`, ...credentials }, baseURL })
  const token: string | undefined = registered.status === 201
    ? registered.body.token
    : (await api('/api/auth', { method: 'POST', body: { action: 'login', ...credentials }, baseURL })).body.token
  if (!token) throw new Error('could not sign in as the admin')
  for (let attempt = 0; attempt < 10; attempt++) {
    if ((await api('/api/profile', { token, baseURL })).body.user.isAdmin) return token
    if (registered.status !== 201 || attempt > 0) {
      before = outboxFiles(dataDir)
      const resent = await api('/api/auth/verify-email/resend', { method: 'POST', token, baseURL })
      if (resent.status === 409) continue
    }
    const { raw } = await waitForOutboxMail(dataDir, ADMIN_EMAIL, before, 'verification')
    await api('/api/auth/verify-email', { method: 'POST', body: { token: verificationTokenOf(raw) }, baseURL })
  }
  throw new Error('the admin account did not become an admin')
}

/** The subject lines of our mails, to tell a reset mail from the verification mail sent at registration. */
export const MAIL_SUBJECTS = { reset: /^Subject: Reset your /m, verification: /^Subject: Confirm your /m }

/**
 * Waits (up to 10 s) for an .eml in `<dataDir>/outbox` addressed to `to` (of
 * one kind, when given), and returns its text.
 */
export async function waitForOutboxMail(dataDir: string, to: string, after = new Set<string>(), kind?: keyof typeof MAIL_SUBJECTS): Promise<{ file: string, raw: string }> {
  const outbox = join(dataDir, 'outbox')
  const deadline = Date.now() + 10_000
  for (;;) {
    const files = existsSync(outbox) ? readdirSync(outbox).filter(f => f.endsWith('.eml') && !after.has(f)) : []
    for (const file of files) {
      const raw = readFileSync(join(outbox, file), 'utf8')
      if (new RegExp(`^To: ${to.replace(/[.+]/g, '\\$&')}$`, 'im').test(raw) && (!kind || MAIL_SUBJECTS[kind].test(raw))) return { file, raw }
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} in ${outbox}`)
    await new Promise(r => setTimeout(r, 50))
  }
}

/** File names already in the outbox (to tell a new mail from older ones). */
export function outboxFiles(dataDir: string): Set<string> {
  const outbox = join(dataDir, 'outbox')
  return new Set(existsSync(outbox) ? readdirSync(outbox) : [])
}

/** forgot-password for `email`, then the token from the mail written to the outbox. */
export async function requestResetToken(dataDir: string, email: string, baseURL?: string): Promise<string> {
  const before = outboxFiles(dataDir)
  const response = await api('/api/auth/forgot-password', { method: 'POST', body: { email }, baseURL })
  if (response.status !== 200) throw new Error(`forgot-password failed: ${response.status}`)
  return resetTokenOf((await waitForOutboxMail(dataDir, email, before, 'reset')).raw)
}

/** Polls `check` until it is true (up to 10 s); for effects that land after the HTTP answer. */
export async function waitFor(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise(r => setTimeout(r, 50))
  }
}
