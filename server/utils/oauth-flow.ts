import type { EventHandler, H3Error, H3Event } from 'h3'
import { deleteCookie, getCookie, getQuery, isError, sendRedirect, setCookie } from 'h3'
import { SignJWT, jwtVerify } from 'jose'
import { timingSafeEqual } from 'node:crypto'
import { OAUTH_PROVIDER_LABELS, OAUTH_PROVIDERS, type OAuthProvider } from '#shared/utils/oauth'
import { syncAdminFlagOf } from '../services/accounts'
import { linkOAuthAccount, resolveOAuthSignIn, type ProviderProfile } from '../services/oauth-accounts'

/** nuxt-auth-utils' state cookie (its handlers set and check it; ours too). */
export const OAUTH_STATE_COOKIE = 'nuxt-auth-state'
/** Short-lived signed cookie between a provider's callback and the MFA step. */
const MFA_COOKIE = 'oauth-mfa'
const MFA_TTL_SECONDS = 5 * 60
const MFA_AUDIENCE = 'oauth-mfa'

interface ProviderConfig { clientId?: string, clientSecret?: string }

function providerConfig(provider: OAuthProvider, event?: H3Event): ProviderConfig {
  const all = (event ? useRuntimeConfig(event) : useRuntimeConfig()).oauth as Record<string, ProviderConfig | undefined>
  return all[provider] ?? {}
}

/** A provider is offered only when both its client id and secret are set. */
export function configuredProviders(event?: H3Event): OAuthProvider[] {
  return OAUTH_PROVIDERS.filter((provider) => {
    const config = providerConfig(provider, event)
    return Boolean(config.clientId && config.clientSecret)
  })
}

const siteUrl = siteOrigin
const secureCookies = () => siteUrl().startsWith('https:')

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

export interface OAuthFlow {
  /** Where the provider sends the user back: `<site URL>/auth/<provider>`. */
  redirectURL: string
  /** Finishes with the provider's user: sign in (maybe via MFA) or link. */
  signIn: (event: H3Event, profile: ProviderProfile) => Promise<void>
  /** nuxt-auth-utils' `onError`: becomes our error page. */
  onError: (event: H3Event, error: H3Error) => never
}

/**
 * A provider's web-flow route around a handler in nuxt-auth-utils' shape.
 * 404 when the provider is not configured; a refusal from the provider, a
 * callback without the state we issued, and an unusable provider answer end
 * on an error page, never with a session.
 */
export function defineOAuthRoute(provider: OAuthProvider, build: (flow: OAuthFlow) => EventHandler) {
  const label = OAUTH_PROVIDER_LABELS[provider]
  const providerFailed = () => apiError(502, `Sign-in with ${label} failed: ${label} did not answer as expected. Please try again.`)
  const stateFailed = () => apiError(400, 'Sign-in could not be verified (missing or wrong state). Please start again.')

  return defineEventHandler(async (event) => {
    if (!configuredProviders(event).includes(provider)) throw apiError(404, 'Page not found')
    const query = getQuery(event)
    if (query.error !== undefined) {
      deleteCookie(event, OAUTH_STATE_COOKIE, { path: '/' })
      throw apiError(401, `Sign-in with ${label} was cancelled or refused.`)
    }
    if (query.code !== undefined) {
      const expected = getCookie(event, OAUTH_STATE_COOKIE)
      if (typeof query.state !== 'string' || !query.state || !expected || !sameString(query.state, expected)) {
        deleteCookie(event, OAUTH_STATE_COOKIE, { path: '/' })
        throw stateFailed()
      }
    }
    const handler = build({
      redirectURL: `${siteUrl()}/auth/${provider}`,
      signIn: async (event, profile) => {
        try {
          await finishOAuthSignIn(event, profile)
        }
        catch (error) {
          throw isError(error) ? error : createError({ statusCode: 500, cause: error })
        }
      },
      onError: (_event, error) => {
        throw /state mismatch/.test(error.message) ? stateFailed() : providerFailed()
      },
    })
    try {
      return await handler(event)
    }
    catch (error) {
      if (isError(error)) throw error
      // A provider endpoint that failed or answered something unusable.
      console.warn(`[oauth] ${provider}: ${(error as Error).message}`)
      throw providerFailed()
    }
  })
}

/**
 * A signed-in caller links the identity (back to /settings); anyone else is
 * signed in to the found, linked or created account (to /, or to the MFA step).
 */
async function finishOAuthSignIn(event: H3Event, profile: ProviderProfile): Promise<void> {
  const db = useDB()
  const current = await getUser(event).catch(() => null)
  if (current) {
    await linkOAuthAccount(db, current.id, profile)
    await sendRedirect(event, '/settings')
    return
  }
  const result = await resolveOAuthSignIn(db, profile)
  if (result.mfaRequired) {
    await setPendingMfa(event, result.userId, result.pendingLink)
    await sendRedirect(event, '/auth/mfa')
    return
  }
  await signInAs(event, result.userId)
  await sendRedirect(event, '/')
}

/** Sets the auth-token cookie for `userId`, exactly as a password login does. */
export async function signInAs(event: H3Event, userId: string): Promise<string> {
  await syncAdminFlagOf(useDB(), userId, adminEmails())
  return startSession(event, userId)
}

const mfaKey = () => new TextEncoder().encode(useSecrets().sessionPassword)

async function setPendingMfa(event: H3Event, userId: string, link: ProviderProfile | null): Promise<void> {
  const jwt = await new SignJWT(link ? { link } : {})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setAudience(MFA_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${MFA_TTL_SECONDS}s`)
    .sign(mfaKey())
  setCookie(event, MFA_COOKIE, jwt, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: MFA_TTL_SECONDS, secure: secureCookies() })
}

/** The user waiting for the MFA step of an external sign-in; 401 when none or expired. */
export async function requirePendingMfa(event: H3Event): Promise<{ userId: string, link: ProviderProfile | null }> {
  const jwt = getCookie(event, MFA_COOKIE)
  if (jwt) {
    try {
      const { payload } = await jwtVerify(jwt, mfaKey(), { algorithms: ['HS256'], audience: MFA_AUDIENCE, requiredClaims: ['sub', 'exp'] })
      return { userId: payload.sub!, link: (payload.link as ProviderProfile | undefined) ?? null }
    }
    catch { /* expired or forged: same answer as none */ }
  }
  throw unauthorized('Sign-in expired, please sign in again')
}

export function clearPendingMfa(event: H3Event): void {
  deleteCookie(event, MFA_COOKIE, { path: '/' })
}
