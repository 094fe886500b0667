import type { H3Event } from 'h3'
import { deleteCookie, getCookie, getRequestHeader, isError, setCookie } from 'h3'
import { actorFromApiToken } from '../services/api-tokens'
import { sharedByPageView } from './in-process'
import type { Executor } from '../database/port'
import type { SharedHold } from '../database/sql'
import { actorFromSessionToken, actorOfSession, createSession, sessionClaims, SESSION_COOKIE, SESSION_TTL_SECONDS, type Actor, type Caller, type SessionClaims } from '../services/sessions'

export { SESSION_COOKIE, type Actor }

export function adminEmails(): string[] {
  return String(useRuntimeConfig().adminEmails || '').split(',').map(e => e.trim().toLowerCase()).filter(Boolean)
}

function bearer(event: H3Event): string | undefined {
  const header = getRequestHeader(event, 'authorization')
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i)
  return match?.[1]
}

/**
 * The signed-in caller from the `auth-token` cookie (or, with `allowBearer`,
 * from `Authorization: Bearer <jwt>`), null when no credential was sent.
 * A credential that is sent but not valid is a 401.
 */
export async function getUser(event: H3Event, options: { allowBearer?: boolean } = {}): Promise<Actor | null> {
  if (event.context.actor !== undefined) return event.context.actor as Actor | null
  const token = (options.allowBearer && bearer(event)) || getCookie(event, SESSION_COOKIE)
  if (!token) return null
  const actor = await sharedByPageView(event, `actor ${token}`, () => actorFromSessionToken(useDB(), useSecrets().sessionSecret, token, adminEmails()))
  if (!actor) throw unauthorized('Invalid or expired token')
  event.context.actor = actor
  return actor
}

/**
 * The caller on a public read (an upload, its tags): signing in only widens
 * what is visible, so an expired or revoked cookie counts as no cookie rather
 * than turning a public answer into a 401.
 */
export async function getOptionalUser(event: H3Event): Promise<Actor | null> {
  try {
    return await getUser(event)
  }
  catch (error) {
    if (isError(error) && error.statusCode === 401) return null
    throw error
  }
}

/** 401 unless a valid session cookie (or JWT bearer, where allowed) is sent. */
export async function requireUser(event: H3Event, options: { allowBearer?: boolean } = {}): Promise<Actor> {
  const actor = await getUser(event, options)
  if (!actor) throw unauthorized('Authentication required')
  return actor
}

/**
 * `requireUser` for a write whose transaction looks the session up itself
 * (server/services/sessions.ts `Caller`): a vote, an edit. The cookie's JWT is
 * checked now, without the database: a 401 when none is sent or it is not
 * valid. The returned lookup reads the session as the write's first statement
 * (locking its user with `lockUser`, as a vote does), and is a 401 when the
 * session was revoked or has expired. `read` takes the request's input in
 * between; when it fails, the session is looked up at once, so that a revoked
 * session is a 401 before a bad input is a 400, as on every other route.
 */
export async function requireCaller<T>(event: H3Event, read: () => T | Promise<T>, options: { lockUser?: boolean } = {}): Promise<{ caller: Caller, input: T }> {
  const token = event.context.actor === undefined ? getCookie(event, SESSION_COOKIE) : undefined
  if (!token) return { caller: await requireUser(event), input: await read() }
  const { claims, input } = await claimsThenInput(event, token, read)
  const caller = async (tx: Executor, hold?: SharedHold) => {
    const actor = await actorOfSession(tx, claims, adminEmails(), { lockUser: options.lockUser, hold })
    if (!actor) throw unauthorized('Invalid or expired token')
    event.context.actor = actor
    return actor
  }
  return { caller, input }
}

/**
 * The same for a write that visitors may make too (a judgement): the
 * cookie's checked claims, or null when no cookie is sent, for the write to
 * read the session inside a statement of its own (sessions.ts
 * `liveSessionQuery`) and answer 401 when it is not live. `read` is given
 * the claims and takes the input, with the same order of errors.
 */
export async function optionalSessionClaims<T>(event: H3Event, read: (claims: SessionClaims | null) => T | Promise<T>): Promise<{ claims: SessionClaims | null, input: T }> {
  const token = getCookie(event, SESSION_COOKIE)
  if (!token) return { claims: null, input: await read(null) }
  return claimsThenInput(event, token, read)
}

async function claimsThenInput<T>(event: H3Event, token: string, read: (claims: SessionClaims) => T | Promise<T>): Promise<{ claims: SessionClaims, input: T }> {
  const claims = await sessionClaims(useSecrets().sessionSecret, token)
  if (!claims) throw unauthorized('Invalid or expired token')
  try {
    return { claims, input: await read(claims) }
  }
  catch (error) {
    await requireUser(event)
    throw error
  }
}

/** 401 when signed out, 403 when signed in but not an admin. */
export async function requireAdmin(event: H3Event): Promise<Actor> {
  const actor = await requireUser(event)
  if (!actor.isAdmin) throw forbidden('Admin access required')
  return actor
}

/** 401 unless `Authorization: Bearer <api token>` names a live API token. */
export async function requireApiToken(event: H3Event): Promise<Actor & { tokenId: string }> {
  const token = bearer(event)
  if (!token) throw unauthorized('API token required')
  const actor = await actorFromApiToken(useDB(), token, adminEmails())
  if (!actor) throw unauthorized('Invalid or expired token')
  event.context.actor = actor
  return actor
}

/**
 * Starts a session for `userId` and sets the auth-token cookie; returns the JWT.
 * Every sign-in (password, registration, external provider, its MFA step,
 * passkey) goes through here, so each session records the client's User-Agent.
 */
export async function startSession(event: H3Event, userId: string): Promise<string> {
  const { token } = await createSession(useDB(), useSecrets().sessionSecret, userId, { userAgent: getRequestHeader(event, 'user-agent') })
  setCookie(event, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: SESSION_TTL_SECONDS,
    secure: new URL(useRuntimeConfig().public.siteUrl).protocol === 'https:',
  })
  return token
}

export function clearSessionCookie(event: H3Event): void {
  deleteCookie(event, SESSION_COOKIE, { path: '/' })
}
