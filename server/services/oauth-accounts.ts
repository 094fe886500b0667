import { randomBytes, randomUUID } from 'node:crypto'
import { OAUTH_PROVIDER_LABELS, type OAuthProvider } from '#shared/utils/oauth'
import type { Executor } from '../database/port'
import { FOR_UPDATE, sql } from '../database/sql'
import { lockedSignInMethods, usernameTaken } from './accounts'
import { apiError } from './errors'
import { verifyMfaCode } from './mfa'
import { revokeUserSessions } from './sessions'

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
  // Only GitHub's e-mail list says whether an address is verified, and only
  // its verified primary address may link accounts; `/user` fields never do.
  const primary = emails.find(entry => entry.primary === true && str(entry.email))
  const email = str(primary?.email) ?? str(user.email)
  const emailVerified = primary !== undefined && primary.verified === true && str(primary.email) === email
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
export async function uniqueUsername(db: Executor, name: string): Promise<string> {
  const base = usernameBase(name)
  if (!await usernameTaken(db, base)) return base
  for (let n = 2; n < 1000; n++) {
    const suffix = `_${n}`
    const candidate = base.slice(0, USERNAME_MAX - suffix.length) + suffix
    if (!await usernameTaken(db, candidate)) return candidate
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

type UserRow = { id: string, mfa_enabled: number }

/**
 * Finds the account of a provider identity: by (provider, provider user id),
 * else the account with the same e-mail when the provider says it is verified
 * (linking it), else a new account. The link to an account with MFA on is
 * stored only after its MFA step (`completeOAuthMfa`).
 */
export function resolveOAuthSignIn(db: Executor, profile: ProviderProfile): Promise<OAuthSignIn> {
  return db.transaction(async (tx): Promise<OAuthSignIn> => {
    // Two callbacks of one identity at once (a double click) create one account.
    await tx.lock(`oauth:${profile.provider}:${profile.providerUserId}`)
    const linked = await tx.get<UserRow>(sql`SELECT u.id, u.mfa_enabled FROM oauth_accounts o JOIN users u ON u.id = o.user_id
      WHERE o.provider = ${profile.provider} AND o.provider_user_id = ${profile.providerUserId}`)
    if (linked) return { userId: linked.id, mfaRequired: linked.mfa_enabled === 1, pendingLink: null, created: false }

    const email = profile.emailVerified && profile.email ? profile.email.toLowerCase() : null
    const owner = email ? await tx.get<UserRow & { email_verified: number }>(sql`SELECT id, mfa_enabled, email_verified FROM users WHERE email = ${email}${FOR_UPDATE}`) : undefined
    if (owner && owner.email_verified !== 1) {
      // Whoever registered the address never proved it; the provider just did.
      await dropUnprovedCredentials(tx, owner.id)
      await linkOAuthAccount(tx, owner.id, profile)
      return { userId: owner.id, mfaRequired: false, pendingLink: null, created: false }
    }
    if (owner) {
      if (owner.mfa_enabled === 1) {
        await assertLinkable(tx, owner.id, profile)
        return { userId: owner.id, mfaRequired: true, pendingLink: profile, created: false }
      }
      await linkOAuthAccount(tx, owner.id, profile)
      return { userId: owner.id, mfaRequired: false, pendingLink: null, created: false }
    }

    // An unverified e-mail is kept on the link only, never as the account's e-mail; a verified one is the account's, verified.
    const userId = randomUUID()
    await tx.run(sql`INSERT INTO users (id, email, username, password_hash, email_verified)
      VALUES (${userId}, ${email}, ${await uniqueUsername(tx, profile.username)}, NULL, ${email !== null})`)
    await linkOAuthAccount(tx, userId, profile)
    return { userId, mfaRequired: false, pendingLink: null, created: true }
  })
}

/**
 * An account whose address was never verified, taken over by a provider's
 * proof of that address: every way in its registrant had goes (password,
 * sessions, API tokens, passkeys, MFA, other linked providers, pending reset
 * and verification tokens), then the address is marked verified. Runs in the
 * caller's transaction, with the user row locked, before the link is stored.
 */
async function dropUnprovedCredentials(tx: Executor, userId: string): Promise<void> {
  await tx.run(sql`UPDATE users SET password_hash = NULL, mfa_enabled = 0, mfa_secret = NULL, mfa_last_step = NULL, email_verified = 1
    WHERE id = ${userId}`)
  await revokeUserSessions(tx, userId)
  for (const table of ['api_tokens', 'passkeys', 'webauthn_challenges', 'mfa_backup_codes', 'oauth_accounts', 'password_reset_tokens', 'email_verification_tokens']) {
    await tx.run(sql`DELETE FROM ${sql.raw(table)} WHERE user_id = ${userId}`)
  }
}

async function assertLinkable(db: Executor, userId: string, profile: ProviderProfile): Promise<'new' | 'linked'> {
  const label = OAUTH_PROVIDER_LABELS[profile.provider]
  const holder = await db.get<{ user_id: string }>(sql`SELECT user_id FROM oauth_accounts
    WHERE provider = ${profile.provider} AND provider_user_id = ${profile.providerUserId}`)
  if (holder) {
    if (holder.user_id === userId) return 'linked'
    throw apiError(409, `This ${label} account is already linked to another user.`)
  }
  const other = await db.get(sql`SELECT 1 AS linked FROM oauth_accounts WHERE user_id = ${userId} AND provider = ${profile.provider}`)
  if (other) throw apiError(409, `Another ${label} account is already linked to this account.`)
  return 'new'
}

/**
 * Links a provider identity to an account (a no-op when it already is).
 * 409 when the identity belongs to another user, or the account has another
 * identity of the same provider.
 */
export function linkOAuthAccount(db: Executor, userId: string, profile: ProviderProfile): Promise<void> {
  return db.transaction(async (tx) => {
    await tx.lock(`oauth:${profile.provider}:${profile.providerUserId}`)
    if (await assertLinkable(tx, userId, profile) === 'linked') return
    await tx.run(sql`INSERT INTO oauth_accounts (id, user_id, provider, provider_user_id, email)
      VALUES (${randomUUID()}, ${userId}, ${profile.provider}, ${profile.providerUserId}, ${profile.email?.toLowerCase() ?? null})`)
  })
}

/** The MFA step of an external sign-in: 401 on a wrong code, else stores a pending link. */
export async function completeOAuthMfa(db: Executor, pending: { userId: string, link: ProviderProfile | null }, code: string) {
  if (!await verifyMfaCode(db, pending.userId, code)) throw apiError(401, 'Invalid MFA code')
  if (pending.link) await linkOAuthAccount(db, pending.userId, pending.link)
  return (await db.get<{ id: string, username: string, email: string | null }>(sql`SELECT id, username, email FROM users WHERE id = ${pending.userId}`))!
}

/** GET /api/auth/oauth-accounts' body. */
export async function listOAuthAccounts(db: Executor, userId: string) {
  const accounts = await db.all<{ provider: OAuthProvider, email: string | null, created_at: string }>(sql`
    SELECT provider, email, created_at FROM oauth_accounts WHERE user_id = ${userId} ORDER BY provider`)
  const user = await db.get<{ has_password: number }>(sql`SELECT CASE WHEN password_hash IS NOT NULL THEN 1 ELSE 0 END AS has_password
    FROM users WHERE id = ${userId}`)
  return {
    accounts: accounts.map(row => ({ provider: row.provider, email: row.email, createdAt: row.created_at })),
    hasPassword: user?.has_password === 1,
  }
}

/** Unlinks a provider; 404 when not linked, 400 when it is the account's last way to sign in. */
export function unlinkOAuthAccount(db: Executor, userId: string, provider: OAuthProvider): Promise<void> {
  return db.transaction(async (tx) => {
    const ways = await lockedSignInMethods(tx, userId)
    const row = await tx.get<{ id: string }>(sql`SELECT id FROM oauth_accounts WHERE user_id = ${userId} AND provider = ${provider}`)
    if (!row) throw apiError(404, `${OAUTH_PROVIDER_LABELS[provider]} is not linked to this account`)
    if (!ways.password && ways.providers <= 1 && ways.passkeys === 0) {
      throw apiError(400, 'Cannot unlink your only way to sign in: set a password, add a passkey or link another provider first')
    }
    await tx.run(sql`DELETE FROM oauth_accounts WHERE id = ${row.id}`)
  })
}
