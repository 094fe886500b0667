import { randomUUID } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'
import type { Executor, Row } from '../database/port'
import { isUniqueViolation } from '../database/port'
import type { users } from '../database/schema-postgres'
import { FOR_UPDATE, sql } from '../database/sql'
import { apiError } from './errors'

/** OWASP's argon2id parameters (19 MiB, 2 passes, 1 lane). */
const ARGON2 = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2)
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  // With no hash (unknown e-mail, OAuth-only account) a dummy hash is checked, so timing does not tell.
  const target = passwordHash ?? await dummyHash()
  const ok = await verify(target, password).catch(() => false)
  return passwordHash !== null && ok
}

let dummy: Promise<string> | undefined
const dummyHash = () => (dummy ??= hashPassword('timing-equaliser-not-a-password'))

export type AccountRow = Pick<Row<typeof users>, 'id' | 'username' | 'email' | 'password_hash' | 'is_admin' | 'mfa_enabled'>

export function findAccountByEmail(db: Executor, email: string): Promise<AccountRow | undefined> {
  return db.get<AccountRow>(sql`SELECT id, username, email, password_hash, is_admin, mfa_enabled FROM users WHERE email = ${email}`)
}

/** A username taken case-insensitively (usernames are ASCII, so lower() folds alike on both engines). */
export async function usernameTaken(db: Executor, username: string): Promise<boolean> {
  return (await db.get(sql`SELECT 1 AS taken FROM users WHERE lower(username) = lower(${username})`)) !== undefined
}

/**
 * Creates an account, its address not yet verified; 409 when the e-mail or
 * (case-insensitively) the username is taken. `isAdmin` is a grant (as the
 * CLI's), never the admin e-mail list, which counts only once the address is verified.
 */
export async function registerAccount(db: Executor, input: { email: string, username: string, password: string }, isAdmin = false) {
  const taken = await db.get<{ email_taken: number }>(sql`SELECT CASE WHEN email = ${input.email} THEN 1 ELSE 0 END AS email_taken
    FROM users WHERE email = ${input.email} OR lower(username) = lower(${input.username}) LIMIT 1`)
  if (taken) throw apiError(409, taken.email_taken ? 'Email already registered' : 'Username already taken')
  const passwordHash = await hashPassword(input.password)
  const id = randomUUID()
  try {
    await db.run(sql`INSERT INTO users (id, email, username, password_hash, is_admin) VALUES (${id}, ${input.email}, ${input.username}, ${passwordHash}, ${isAdmin})`)
  }
  catch (error) {
    // A concurrent registration won the race for the same e-mail or username.
    if (isUniqueViolation(error)) {
      throw apiError(409, (await findAccountByEmail(db, input.email)) ? 'Email already registered' : 'Username already taken')
    }
    throw error
  }
  return { id, username: input.username, email: input.email }
}

/**
 * Keeps the stored admin flag in step with NUXT_ADMIN_EMAILS (checked at every
 * login, external sign-in and e-mail verification): only a verified address
 * counts, so registering an admin's address gives nothing until it is proved.
 */
export async function syncAdminFlag(db: Executor, userId: string, email: string | null, adminEmails: string[]): Promise<void> {
  if (email && adminEmails.includes(email)) await db.run(sql`UPDATE users SET is_admin = 1 WHERE id = ${userId} AND email_verified = 1`)
}

/** syncAdminFlag for a user known by id only (external sign-in). */
export async function syncAdminFlagOf(db: Executor, userId: string, adminEmails: string[]): Promise<void> {
  const row = await db.get<{ email: string | null }>(sql`SELECT email FROM users WHERE id = ${userId}`)
  await syncAdminFlag(db, userId, row?.email ?? null, adminEmails)
}

/** GET /api/profile's body. */
export async function profileOf(db: Executor, actor: { id: string, isAdmin: boolean }) {
  const row = (await db.get<Pick<Row<typeof users>, 'id' | 'username' | 'email' | 'created_at' | 'mfa_enabled' | 'email_verified' | 'public_favourites'> & { uploads: number, votes: number }>(sql`
    SELECT id, username, email, created_at, mfa_enabled, email_verified, public_favourites,
      (SELECT count(*) FROM uploads WHERE user_id = users.id) AS uploads,
      coalesce((SELECT sum(votes) FROM user_vote_counts WHERE user_id = users.id), 0) AS votes
    FROM users WHERE id = ${actor.id}`))!
  return {
    user: { id: row.id, username: row.username, email: row.email, createdAt: row.created_at, isAdmin: actor.isAdmin, mfaEnabled: row.mfa_enabled === 1, emailVerified: row.email_verified === 1, publicFavourites: row.public_favourites === 1 },
    stats: { uploads: row.uploads, votes: row.votes },
  }
}

/**
 * The ways an account can sign in, read with its user row locked (inside the
 * caller's transaction), so two removals at once (an unlink, a passkey
 * deleted) cannot each leave the other as the last way in.
 */
export async function lockedSignInMethods(tx: Executor, userId: string): Promise<{ password: boolean, providers: number, passkeys: number }> {
  const row = await tx.get<{ has_password: number, providers: number, passkeys: number }>(sql`
    SELECT CASE WHEN u.password_hash IS NOT NULL THEN 1 ELSE 0 END AS has_password,
      (SELECT count(*) FROM oauth_accounts WHERE user_id = u.id) AS providers,
      (SELECT count(*) FROM passkeys WHERE user_id = u.id) AS passkeys
    FROM users u WHERE u.id = ${userId}${FOR_UPDATE}`)
  return { password: row?.has_password === 1, providers: row?.providers ?? 0, passkeys: row?.passkeys ?? 0 }
}
