import { randomUUID } from 'node:crypto'
import { SignJWT, jwtVerify } from 'jose'
import type { Executor, Row } from '../database/port'
import type { sessions, users } from '../database/schema-postgres'
import { dialects, sql, type Query, type SharedHold } from '../database/sql'
import { apiError } from './errors'

export const SESSION_COOKIE = 'auth-token'
export const SESSION_TTL_SECONDS = 24 * 60 * 60

/** The authenticated caller, as every handler sees it. */
export interface Actor {
  id: string
  username: string
  email: string | null
  isAdmin: boolean
  shadowBanned: boolean
  /** The session behind a cookie/JWT caller; absent for API-token callers. */
  sessionId?: string
}

/**
 * Who makes a write: an account known beforehand, or the lookup of the
 * caller's session (server/utils/auth.ts `requireCaller`) that the write runs
 * as its transaction's first statement, with the shared lock the write must
 * hold first when it names one (`hold`): on
 * PostgreSQL one round trip instead of a lookup before the transaction and a
 * lock inside it, and a session revoked before the write commits cannot write.
 */
export type Caller = Actor | ((tx: Executor, hold?: SharedHold) => Promise<Actor>)

/** The actor of a `Caller` inside the write's transaction, taking `hold` (when given) before anything else. */
export async function callerIn(tx: Executor, caller: Caller, hold?: SharedHold): Promise<Actor> {
  if (typeof caller === 'function') return caller(tx, hold)
  if (hold) await tx.lock(hold.key, 'shared')
  return caller
}

export type ActorRow = Pick<Row<typeof users>, 'id' | 'username' | 'email' | 'is_admin' | 'email_verified' | 'shadow_banned'>

/** An admin: granted (the stored flag), or with a verified address listed in NUXT_ADMIN_EMAILS. */
export function isAdminRow(row: Pick<ActorRow, 'is_admin' | 'email' | 'email_verified'>, adminEmails: string[]): boolean {
  return row.is_admin === 1 || (row.email_verified === 1 && row.email !== null && adminEmails.includes(row.email))
}

export function toActor(row: ActorRow, adminEmails: string[], sessionId?: string): Actor {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    isAdmin: isAdminRow(row, adminEmails),
    shadowBanned: row.shadow_banned === 1,
    sessionId,
  }
}

const keys = new Map<string, Promise<CryptoKey>>()

/** The HMAC key, imported once per secret rather than on every sign and verify. */
function key(secret: string): Promise<CryptoKey> {
  let found = keys.get(secret)
  if (!found) {
    found = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
    keys.set(secret, found)
  }
  return found
}

export interface SessionClaims { sub: string, sid: string, exp: number }

/**
 * JWTs whose signature and claims were already checked, so a client sending the
 * same token again costs a map lookup instead of an HMAC. Bounded; the oldest
 * entries go first. Expiry is checked again at every use, and revocation is
 * always checked against the session row.
 */
const verified = new Map<string, SessionClaims & { secret: string }>()
const VERIFIED_MAX = 10_000

/** A session JWT's checked claims (signature, algorithm, expiry; no database), or null. */
export async function sessionClaims(secret: string, token: string): Promise<SessionClaims | null> {
  const known = verified.get(token)
  if (known && known.secret === secret) return known.exp * 1000 > Date.now() ? known : null
  try {
    const { payload } = await jwtVerify(token, await key(secret), { algorithms: ['HS256'], requiredClaims: ['sub', 'sid', 'iat', 'exp'] })
    if (typeof payload.sid !== 'string' || typeof payload.sub !== 'string') return null
    const claims = { sub: payload.sub, sid: payload.sid, exp: payload.exp! }
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!)
    verified.set(token, { ...claims, secret })
    return claims
  }
  catch {
    return null
  }
}

/** Longest User-Agent kept with a session. */
export const USER_AGENT_MAX = 256

/** A session's `last_seen_at` is written at most this often. */
export const LAST_SEEN_INTERVAL_MS = 60_000

/** Stores a session row and returns its signed JWT (HS256, sub, sid, iat, exp = +24 h). */
export async function createSession(db: Executor, secret: string, userId: string, options: { userAgent?: string | null, nowMs?: number } = {}): Promise<{ token: string, sessionId: string, expiresAt: string }> {
  const nowMs = options.nowMs ?? Date.now()
  const sessionId = randomUUID()
  const iat = Math.floor(nowMs / 1000)
  const exp = iat + SESSION_TTL_SECONDS
  const expiresAt = new Date(exp * 1000).toISOString()
  const now = new Date(nowMs).toISOString()
  const userAgent = options.userAgent ? [...options.userAgent].slice(0, USER_AGENT_MAX).join('') : null
  await db.run(sql`INSERT INTO sessions (id, user_id, created_at, expires_at, user_agent, last_seen_at)
    VALUES (${sessionId}, ${userId}, ${now}, ${expiresAt}, ${userAgent}, ${now})`)
  const token = await new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(await key(secret))
  return { token, sessionId, expiresAt }
}

/**
 * The actor behind a session JWT, or null when the JWT is malformed, signed
 * with another key or algorithm, expired, or its session was revoked.
 */
export async function actorFromSessionToken(db: Executor, secret: string, token: string, adminEmails: string[], nowMs = Date.now()): Promise<Actor | null> {
  const claims = await sessionClaims(secret, token)
  return claims && actorOfSession(db, claims, adminEmails, { nowMs })
}

/** On PostgreSQL, locks the session's user row (alias `u`) until the caller's transaction ends. */
const LOCKING_USER = dialects({ sqlite: '', postgres: ' FOR SHARE OF u' })

/**
 * The actor of a session whose JWT was checked (`sessionClaims`), or null when
 * the session was revoked or has expired. With `lockUser`, inside a
 * transaction, the user row stays locked until it ends, as a vote locks its
 * voter (server/services/votes.ts), so the actor's shadow-ban is the one in force.
 * With `hold`, the same statement takes that shared lock first.
 */
export async function actorOfSession(db: Executor, claims: SessionClaims, adminEmails: string[], options: { nowMs?: number, lockUser?: boolean, hold?: SharedHold } = {}): Promise<Actor | null> {
  const nowMs = options.nowMs ?? Date.now()
  const row = await db.get<ActorRow & { last_seen_at: string | null }>(liveSessionQuery(claims, nowMs, options))
  if (!row) return null
  await noteSessionUse(db, claims.sid, row.last_seen_at, nowMs)
  return toActor(row, adminEmails, claims.sid)
}

/**
 * The statement of `actorOfSession`: the session's user and the session's
 * last use, no row when the session was revoked or has expired (`lockUser`
 * and `hold` as there). A write that reads the session inside a statement
 * of its own (a judgement's first, server/services/duels.ts) runs it as a
 * `WITH` and calls `noteSessionUse` with what it read.
 */
export function liveSessionQuery(claims: SessionClaims, nowMs: number, options: { lockUser?: boolean, hold?: SharedHold } = {}): Query {
  return sql`SELECT u.id, u.username, u.email, u.is_admin, u.email_verified, u.shadow_banned, s.last_seen_at${options.hold?.entry ?? sql.raw('')}
    FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.id = ${claims.sid} AND s.user_id = ${claims.sub} AND s.revoked_at IS NULL AND s.expires_at > ${new Date(nowMs).toISOString()}${options.lockUser ? LOCKING_USER : sql.raw('')}`
}

/**
 * Records that a session was used, at most once a minute: nothing is written
 * while the stored time is recent, and the UPDATE itself is conditional, so
 * requests racing on several instances still write it once.
 */
export async function noteSessionUse(db: Executor, sessionId: string, lastSeenAt: string | null, nowMs: number): Promise<void> {
  const cutoff = new Date(nowMs - LAST_SEEN_INTERVAL_MS).toISOString()
  if (lastSeenAt !== null && lastSeenAt >= cutoff) return
  await db.run(sql`UPDATE sessions SET last_seen_at = ${new Date(nowMs).toISOString()}
    WHERE id = ${sessionId} AND (last_seen_at IS NULL OR last_seen_at < ${cutoff})`)
}

/** The caller's live sessions (not revoked, not expired), most recently used first. */
export async function listSessions(db: Executor, userId: string, currentSessionId: string | undefined, nowMs = Date.now()) {
  const rows = await db.all<Pick<Row<typeof sessions>, 'id' | 'created_at' | 'user_agent'> & { last_seen_at: string }>(sql`
    SELECT id, created_at, COALESCE(last_seen_at, created_at) AS last_seen_at, user_agent FROM sessions
    WHERE user_id = ${userId} AND revoked_at IS NULL AND expires_at > ${new Date(nowMs).toISOString()}
    ORDER BY COALESCE(last_seen_at, created_at) DESC, id DESC`)
  return {
    sessions: rows.map(row => ({
      id: row.id,
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      userAgent: row.user_agent,
      current: row.id === currentSessionId,
    })),
  }
}

/** Revokes one of the caller's live sessions; another user's, an unknown or an already ended one is a 404. */
export async function revokeUserSession(db: Executor, userId: string, sessionId: string, nowMs = Date.now()) {
  const now = new Date(nowMs).toISOString()
  const result = await db.run(sql`UPDATE sessions SET revoked_at = ${now}
    WHERE id = ${sessionId} AND user_id = ${userId} AND revoked_at IS NULL AND expires_at > ${now}`)
  if (result.changes === 0) throw apiError(404, 'Session not found')
  return { success: true as const }
}

export async function revokeSession(db: Executor, sessionId: string): Promise<void> {
  await db.run(sql`UPDATE sessions SET revoked_at = ${new Date().toISOString()} WHERE id = ${sessionId} AND revoked_at IS NULL`)
}

/** Revokes every session of a user, or every one but `exceptSessionId`. */
export async function revokeUserSessions(db: Executor, userId: string, exceptSessionId?: string): Promise<void> {
  await db.run(sql`UPDATE sessions SET revoked_at = ${new Date().toISOString()}
    WHERE user_id = ${userId} AND revoked_at IS NULL AND id <> ${exceptSessionId ?? ''}`)
}
