import { randomUUID } from 'node:crypto'
import {
  generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse,
  type AuthenticationResponseJSON, type AuthenticatorTransport, type RegistrationResponseJSON,
} from '@simplewebauthn/server'
import type { Executor, Row } from '../database/port'
import { isUniqueViolation } from '../database/port'
import type { passkeys, users } from '../database/schema-postgres'
import { sql } from '../database/sql'
import { lockedSignInMethods } from './accounts'
import { apiError } from './errors'

/** Who the credentials are for: the site (NUXT_PUBLIC_SITE_URL). */
export interface RelyingParty {
  /** RP ID: the site URL's host name. */
  id: string
  /** The only origin a WebAuthn answer may come from. */
  origin: string
  /** Shown by the authenticator. */
  name: string
}

/** How long a challenge can be answered. */
export const CHALLENGE_TTL_MS = 5 * 60_000

/** EdDSA, ES256, RS256: offered at registration and accepted at verification alike. */
const ALGORITHMS = [-8, -7, -257]

/** Counters are stored as 32-bit signed integers (PostgreSQL `integer`). */
const COUNTER_MAX = 2 ** 31 - 1

type Purpose = 'register' | 'login'

const challengeFailed = () => apiError(400, 'Invalid or expired challenge')

async function storeChallenge(db: Executor, challenge: string, purpose: Purpose, userId: string | null, nowMs: number): Promise<void> {
  const now = new Date(nowMs).toISOString()
  // Expired challenges go whenever a new one comes, so the table stays small.
  await db.run(sql`DELETE FROM webauthn_challenges WHERE expires_at <= ${now}`)
  await db.run(sql`INSERT INTO webauthn_challenges (challenge, purpose, user_id, expires_at, created_at)
    VALUES (${challenge}, ${purpose}, ${userId}, ${new Date(nowMs + CHALLENGE_TTL_MS).toISOString()}, ${now})`)
}

/** The challenge a WebAuthn answer signed, from its clientDataJSON; 400 when unreadable. */
function challengeOf(clientDataJSON: string): string {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown }
    if (typeof data.challenge === 'string' && data.challenge) return data.challenge
  }
  catch { /* not JSON */ }
  throw apiError(400, 'Invalid passkey response')
}

/**
 * Takes the challenge an answer signed out of the table, once: DELETE …
 * RETURNING is atomic on both engines, so two answers to one challenge (on one
 * instance or two) never both pass. Unknown, expired, spent, issued for the
 * other ceremony or to another account: 400.
 */
async function consumeChallenge(db: Executor, clientDataJSON: string, purpose: Purpose, userId: string | null, nowMs: number): Promise<string> {
  const challenge = challengeOf(clientDataJSON)
  const owner = userId === null ? sql`user_id IS NULL` : sql`user_id = ${userId}`
  const rows = await db.all<{ challenge: string }>(sql`DELETE FROM webauthn_challenges
    WHERE challenge = ${challenge} AND purpose = ${purpose} AND ${owner} AND expires_at > ${new Date(nowMs).toISOString()}
    RETURNING challenge`)
  if (rows.length === 0) throw challengeFailed()
  return challenge
}

type PasskeyRow = Pick<Row<typeof passkeys>, 'id' | 'name' | 'created_at' | 'last_used_at'>

function toPasskey(row: PasskeyRow) {
  return { id: row.id, name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at }
}

function parseTransports(text: string | null): AuthenticatorTransport[] | undefined {
  if (!text) return undefined
  try {
    const value = JSON.parse(text) as unknown
    return Array.isArray(value) ? value.filter((t): t is AuthenticatorTransport => typeof t === 'string') : undefined
  }
  catch {
    return undefined
  }
}

/** The WebAuthn user handle of an account: its id's bytes (base64url in answers). */
const userHandle = (userId: string) => new TextEncoder().encode(userId)

/** Options for `navigator.credentials.create()`: a discoverable credential with user verification. */
export async function passkeyRegistrationOptions(db: Executor, rp: RelyingParty, user: { id: string, username: string }, nowMs = Date.now()) {
  const existing = await db.all<Pick<Row<typeof passkeys>, 'credential_id' | 'transports'>>(sql`
    SELECT credential_id, transports FROM passkeys WHERE user_id = ${user.id}`)
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.username,
    userDisplayName: user.username,
    userID: userHandle(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map(row => ({ id: row.credential_id, transports: parseTransports(row.transports) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  })
  await storeChallenge(db, options.challenge, 'register', user.id, nowMs)
  return options
}

/**
 * Checks an authenticator's answer to a registration challenge of this user
 * and stores the credential. Bad or spent challenge: 400; an answer that does
 * not verify (origin, RP ID, signature, no user verification): 400; a
 * credential already registered (by anyone): 409.
 */
export async function registerPasskey(db: Executor, rp: RelyingParty, userId: string, input: { name: string, response: RegistrationResponseJSON }, nowMs = Date.now()) {
  const challenge = await consumeChallenge(db, input.response.response.clientDataJSON, 'register', userId, nowMs)
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>
  try {
    verification = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    })
  }
  catch {
    throw apiError(400, 'Passkey could not be verified')
  }
  if (!verification.verified) throw apiError(400, 'Passkey could not be verified')
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo
  const row = {
    id: randomUUID(),
    name: input.name,
    created_at: new Date(nowMs).toISOString(),
    last_used_at: null,
  }
  const transports = credential.transports?.length ? JSON.stringify(credential.transports) : null
  try {
    await db.run(sql`INSERT INTO passkeys (id, user_id, name, credential_id, public_key, counter, transports, device_type, backed_up, created_at)
      VALUES (${row.id}, ${userId}, ${row.name}, ${credential.id}, ${Buffer.from(credential.publicKey).toString('base64url')},
        ${Math.min(credential.counter, COUNTER_MAX)}, ${transports}, ${credentialDeviceType}, ${credentialBackedUp ? 1 : 0}, ${row.created_at})`)
  }
  catch (error) {
    if (isUniqueViolation(error)) throw apiError(409, 'Passkey already registered')
    throw error
  }
  return { passkey: toPasskey(row) }
}

/** Options for `navigator.credentials.get()`: any discoverable credential of this site, with user verification. */
export async function passkeyLoginOptions(db: Executor, rp: RelyingParty, nowMs = Date.now()) {
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required', allowCredentials: [] })
  await storeChallenge(db, options.challenge, 'login', null, nowMs)
  return options
}

type LoginRow = Pick<Row<typeof passkeys>, 'public_key' | 'counter' | 'transports' | 'credential_id' | 'user_id'>
  & Pick<Row<typeof users>, 'username' | 'email'> & { passkey_id: string }

/**
 * The account an authenticator's answer to a sign-in challenge proves, with
 * user verification (so it stands in for password and MFA code together).
 * Bad or spent challenge: 400. A credential this site does not know (or whose
 * user handle names another account): 401 `Unknown passkey`. An answer that
 * does not verify, or whose signature counter did not move forward (a replayed
 * or cloned authenticator): 401 `Passkey could not be verified`.
 */
export async function verifyPasskeyLogin(db: Executor, rp: RelyingParty, response: AuthenticationResponseJSON, nowMs = Date.now()) {
  const challenge = await consumeChallenge(db, response.response.clientDataJSON, 'login', null, nowMs)
  const row = await db.get<LoginRow>(sql`
    SELECT p.id AS passkey_id, p.credential_id, p.public_key, p.counter, p.transports, p.user_id, u.username, u.email
    FROM passkeys p JOIN users u ON u.id = p.user_id WHERE p.credential_id = ${response.id}`)
  const handle = response.response.userHandle
  if (!row || (handle && handle !== Buffer.from(userHandle(row.user_id)).toString('base64url'))) {
    throw apiError(401, 'Unknown passkey')
  }
  const failed = () => apiError(401, 'Passkey could not be verified')
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: row.credential_id,
        publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
        counter: row.counter,
        transports: parseTransports(row.transports),
      },
    })
  }
  catch {
    throw failed()
  }
  if (!verification.verified) throw failed()
  // The counter moves forward once per answer, also when two answers race:
  // only one of them can raise it past the stored value. Authenticators that
  // keep no counter always say 0.
  const counter = Math.min(verification.authenticationInfo.newCounter, COUNTER_MAX)
  const advanced = counter === 0 ? sql`counter = 0` : sql`counter < ${counter}`
  const updated = await db.run(sql`UPDATE passkeys SET counter = ${counter}, last_used_at = ${new Date(nowMs).toISOString()}
    WHERE id = ${row.passkey_id} AND ${advanced}`)
  if (updated.changes === 0) throw failed()
  return { user: { id: row.user_id, username: row.username, email: row.email } }
}

/** The caller's passkeys, newest first (never key material). */
export async function listPasskeys(db: Executor, userId: string) {
  const rows = await db.all<PasskeyRow>(sql`
    SELECT id, name, created_at, last_used_at FROM passkeys WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC`)
  return { passkeys: rows.map(toPasskey) }
}

/** Deletes one of the caller's passkeys; another user's or an unknown id is a 404. */
export function deletePasskey(db: Executor, userId: string, passkeyId: string) {
  return db.transaction(async (tx) => {
    const ways = await lockedSignInMethods(tx, userId)
    const passkey = await tx.get(sql`SELECT id FROM passkeys WHERE id = ${passkeyId} AND user_id = ${userId}`)
    if (!passkey) throw apiError(404, 'Passkey not found')
    if (!ways.password && ways.providers === 0 && ways.passkeys <= 1) {
      throw apiError(400, 'Cannot delete your only way to sign in: set a password or link a provider first')
    }
    await tx.run(sql`DELETE FROM passkeys WHERE id = ${passkeyId} AND user_id = ${userId}`)
    return { success: true as const }
  })
}
