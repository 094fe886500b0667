import { randomUUID } from 'node:crypto'
import { SignJWT, jwtVerify } from 'jose'
import type { Executor, Row } from '../database/port'
import type { users } from '../database/schema-postgres'
import { sql } from '../database/sql'

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

export type ActorRow = Pick<Row<typeof users>, 'id' | 'username' | 'email' | 'is_admin' | 'shadow_banned'>

export function toActor(row: ActorRow, adminEmails: string[], sessionId?: string): Actor {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    isAdmin: row.is_admin === 1 || (row.email !== null && adminEmails.includes(row.email)),
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

interface SessionClaims { sub: string, sid: string, exp: number }

/**
 * JWTs whose signature and claims were already checked, so a client sending the
 * same token again costs a map lookup instead of an HMAC. Bounded; the oldest
 * entries go first. Expiry is checked again at every use, and revocation is
 * always checked against the session row.
 */
const verified = new Map<string, SessionClaims & { secret: string }>()
const VERIFIED_MAX = 10_000

async function verifySessionJwt(secret: string, token: string): Promise<SessionClaims | null> {
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

/** Stores a session row and returns its signed JWT (HS256, sub, sid, iat, exp = +24 h). */
export async function createSession(db: Executor, secret: string, userId: string, nowMs = Date.now()): Promise<{ token: string, sessionId: string, expiresAt: string }> {
  const sessionId = randomUUID()
  const iat = Math.floor(nowMs / 1000)
  const exp = iat + SESSION_TTL_SECONDS
  const expiresAt = new Date(exp * 1000).toISOString()
  await db.run(sql`INSERT INTO sessions (id, user_id, expires_at) VALUES (${sessionId}, ${userId}, ${expiresAt})`)
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
export async function actorFromSessionToken(db: Executor, secret: string, token: string, adminEmails: string[]): Promise<Actor | null> {
  const claims = await verifySessionJwt(secret, token)
  if (!claims) return null
  const row = await db.get<ActorRow>(sql`SELECT u.id, u.username, u.email, u.is_admin, u.shadow_banned
    FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.id = ${claims.sid} AND s.user_id = ${claims.sub} AND s.revoked_at IS NULL AND s.expires_at > ${new Date().toISOString()}`)
  return row ? toActor(row, adminEmails, claims.sid) : null
}

export async function revokeSession(db: Executor, sessionId: string): Promise<void> {
  await db.run(sql`UPDATE sessions SET revoked_at = ${new Date().toISOString()} WHERE id = ${sessionId} AND revoked_at IS NULL`)
}

/** Revokes every session of a user, or every one but `exceptSessionId`. */
export async function revokeUserSessions(db: Executor, userId: string, exceptSessionId?: string): Promise<void> {
  await db.run(sql`UPDATE sessions SET revoked_at = ${new Date().toISOString()}
    WHERE user_id = ${userId} AND revoked_at IS NULL AND id <> ${exceptSessionId ?? ''}`)
}
