import { randomBytes, randomUUID } from 'node:crypto'
import type Database from 'better-sqlite3'
import { OAUTH_PROVIDER_LABELS, type OAuthProvider } from '#shared/utils/oauth'
import { apiError } from '../utils/errors'
import { verifyMfaCode } from './mfa'

/** What a provider told us about its user, in one shape for every provider. */
export interface ProviderProfile {
  provider: OAuthProvider
  providerUserId: string
  email: string | null
  /** Only a verified e-mail may link to an existing account. */
  emailVerified: boolean
  /** The provider's name for the user; made valid and unique on account creation. */
  username: string
}

// Providers' answers are untyped JSON; these read only the fields we use.
type Json = Record<string, unknown>

const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null)
const id = (value: unknown): string | null => (typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : str(value))

function invalidProfile(provider: OAuthProvider): never {
  throw apiError(502, `Sign-in with ${OAUTH_PROVIDER_LABELS[provider]} failed: its answer had no user id. Please try again.`)
}

/**
 * GitHub's /user, plus /user/emails (`emails`) when it was read: the e-mail is
 * the primary one, verified only when GitHub's e-mail list says so.
 */
export function profileFromGitHub(githubUser: object, githubEmails: object[] = []): ProviderProfile {
  const user = githubUser as Json
  const emails = githubEmails as Json[]
  const providerUserId = id(user.id) ?? invalidProfile('github')
  const primary = emails.find(entry => entry.primary === true && str(entry.email))
  const email = str(primary?.email) ?? str(user.email)
  const listed = emails.find(entry => str(entry.email)?.toLowerCase() === email?.toLowerCase())
  const emailVerified = email !== null && (listed?.verified === true || (user.email_verified === true && str(user.email) === email))
  return { provider: 'github', providerUserId, email, emailVerified, username: str(user.login) ?? str(user.name) ?? 'github-user' }
}

/** Google's OpenID userinfo (`sub`, `email`, `email_verified`, `name`). */
export function profileFromGoogle(googleUser: object): ProviderProfile {
  const user = googleUser as Json
  const providerUserId = id(user.sub) ?? invalidProfile('google')
  const email = str(user.email)
  return {
    provider: 'google',
    providerUserId,
    email,
    emailVerified: email !== null && (user.email_verified === true || user.email_verified === 'true'),
    username: str(user.name) ?? str(user.given_name) ?? email?.split('@')[0] ?? 'google-user',
  }
}

/** Discord's /users/@me (`id`, `username`, `email`, `verified`). */
export function profileFromDiscord(discordUser: object): ProviderProfile {
  const user = discordUser as Json
  const providerUserId = id(user.id) ?? invalidProfile('discord')
  const email = str(user.email)
  return {
    provider: 'discord',
    providerUserId,
    email,
    emailVerified: email !== null && user.verified === true,
    username: str(user.username) ?? str(user.global_name) ?? 'discord-user',
  }
}

const USERNAME_MAX = 30

/** The provider's name reduced to the username rule (3–30 of A-Z a-z 0-9 _ -). */
export function usernameBase(name: string): string {
  const ascii = name.normalize('NFKD').replace(/[\u0300-\u036F]/g, '')
  let base = ascii.replace(/[^\w-]+/g, '_').replace(/^[_-]+|[_-]+$/g, '').slice(0, USERNAME_MAX)
  if (base.length < 3) base = base ? `${base}_user` : 'user'
  return base
}

/** `usernameBase(name)`, or it with `_2`, `_3`, … when taken (case-insensitively). */
export function uniqueUsername(sqlite: Database.Database, name: string): string {
  const base = usernameBase(name)
  const taken = sqlite.prepare('SELECT 1 FROM users WHERE username = ? COLLATE NOCASE')
  if (!taken.get(base)) return base
  for (let n = 2; n < 1000; n++) {
    const suffix = `_${n}`
    const candidate = base.slice(0, USERNAME_MAX - suffix.length) + suffix
    if (!taken.get(candidate)) return candidate
  }
  const suffix = `_${randomBytes(4).toString('hex')}`
  return base.slice(0, USERNAME_MAX - suffix.length) + suffix
}

export interface OAuthSignIn {
  userId: string
  /** The account has MFA on: no session until a TOTP/backup code is given. */
  mfaRequired: boolean
  /** A link by verified e-mail that waits for the MFA step before it is stored. */
  pendingLink: ProviderProfile | null
  created: boolean
}

interface UserRow { id: string, mfa_enabled: number }

/**
 * Finds the account of a provider identity: by (provider, provider user id),
 * else the account with the same e-mail when the provider says it is verified
 * (linking it), else a new account. The link to an account with MFA on is
 * stored only after its MFA step (`completeOAuthMfa`).
 */
export function resolveOAuthSignIn(sqlite: Database.Database, profile: ProviderProfile): OAuthSignIn {
  return sqlite.transaction((): OAuthSignIn => {
    const linked = sqlite.prepare(`SELECT u.id, u.mfa_enabled FROM oauth_accounts o JOIN users u ON u.id = o.user_id
      WHERE o.provider = ? AND o.provider_user_id = ?`).get(profile.provider, profile.providerUserId) as UserRow | undefined
    if (linked) return { userId: linked.id, mfaRequired: linked.mfa_enabled === 1, pendingLink: null, created: false }

    const email = profile.emailVerified && profile.email ? profile.email.toLowerCase() : null
    const owner = email ? sqlite.prepare('SELECT id, mfa_enabled FROM users WHERE email = ?').get(email) as UserRow | undefined : undefined
    if (owner) {
      if (owner.mfa_enabled === 1) {
        assertLinkable(sqlite, owner.id, profile)
        return { userId: owner.id, mfaRequired: true, pendingLink: profile, created: false }
      }
      linkOAuthAccount(sqlite, owner.id, profile)
      return { userId: owner.id, mfaRequired: false, pendingLink: null, created: false }
    }

    // An unverified e-mail is kept on the link only, never as the account's e-mail.
    const userId = randomUUID()
    sqlite.prepare('INSERT INTO users (id, email, username, password_hash) VALUES (?, ?, ?, NULL)')
      .run(userId, email, uniqueUsername(sqlite, profile.username))
    linkOAuthAccount(sqlite, userId, profile)
    return { userId, mfaRequired: false, pendingLink: null, created: true }
  }).immediate()
}

function assertLinkable(sqlite: Database.Database, userId: string, profile: ProviderProfile): 'new' | 'linked' {
  const label = OAUTH_PROVIDER_LABELS[profile.provider]
  const holder = sqlite.prepare('SELECT user_id FROM oauth_accounts WHERE provider = ? AND provider_user_id = ?')
    .get(profile.provider, profile.providerUserId) as { user_id: string } | undefined
  if (holder) {
    if (holder.user_id === userId) return 'linked'
    throw apiError(409, `This ${label} account is already linked to another user.`)
  }
  const other = sqlite.prepare('SELECT 1 FROM oauth_accounts WHERE user_id = ? AND provider = ?').get(userId, profile.provider)
  if (other) throw apiError(409, `Another ${label} account is already linked to this account.`)
  return 'new'
}

/**
 * Links a provider identity to an account (a no-op when it already is).
 * 409 when the identity belongs to another user, or the account has another
 * identity of the same provider.
 */
export function linkOAuthAccount(sqlite: Database.Database, userId: string, profile: ProviderProfile): void {
  sqlite.transaction(() => {
    if (assertLinkable(sqlite, userId, profile) === 'linked') return
    sqlite.prepare('INSERT INTO oauth_accounts (id, user_id, provider, provider_user_id, email) VALUES (?, ?, ?, ?, ?)')
      .run(randomUUID(), userId, profile.provider, profile.providerUserId, profile.email?.toLowerCase() ?? null)
  }).immediate()
}

/** The MFA step of an external sign-in: 401 on a wrong code, else stores a pending link. */
export function completeOAuthMfa(sqlite: Database.Database, pending: { userId: string, link: ProviderProfile | null }, code: string) {
  if (!verifyMfaCode(sqlite, pending.userId, code)) throw apiError(401, 'Invalid MFA code')
  if (pending.link) linkOAuthAccount(sqlite, pending.userId, pending.link)
  return sqlite.prepare('SELECT id, username, email FROM users WHERE id = ?').get(pending.userId) as { id: string, username: string, email: string | null }
}

/** GET /api/auth/oauth-accounts' body. */
export function listOAuthAccounts(sqlite: Database.Database, userId: string) {
  const accounts = sqlite.prepare('SELECT provider, email, created_at FROM oauth_accounts WHERE user_id = ? ORDER BY provider')
    .all(userId) as { provider: OAuthProvider, email: string | null, created_at: string }[]
  const user = sqlite.prepare('SELECT password_hash IS NOT NULL AS has_password FROM users WHERE id = ?').get(userId) as { has_password: number } | undefined
  return {
    accounts: accounts.map(row => ({ provider: row.provider, email: row.email, createdAt: row.created_at })),
    hasPassword: user?.has_password === 1,
  }
}

/** Unlinks a provider; 404 when not linked, 400 when it is the account's last way to sign in. */
export function unlinkOAuthAccount(sqlite: Database.Database, userId: string, provider: OAuthProvider): void {
  sqlite.transaction(() => {
    const row = sqlite.prepare(`SELECT o.id, u.password_hash IS NOT NULL AS has_password,
        (SELECT count(*) FROM oauth_accounts WHERE user_id = o.user_id) AS links
      FROM oauth_accounts o JOIN users u ON u.id = o.user_id
      WHERE o.user_id = ? AND o.provider = ?`).get(userId, provider) as { id: string, has_password: number, links: number } | undefined
    if (!row) throw apiError(404, `${OAUTH_PROVIDER_LABELS[provider]} is not linked to this account`)
    if (row.has_password === 0 && row.links <= 1) {
      throw apiError(400, 'Cannot unlink your only way to sign in: set a password or link another provider first')
    }
    sqlite.prepare('DELETE FROM oauth_accounts WHERE id = ?').run(row.id)
  }).immediate()
}
