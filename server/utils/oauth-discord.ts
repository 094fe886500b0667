import { randomBytes } from 'node:crypto'
import type { H3Error } from 'h3'
import { createError, deleteCookie, eventHandler, getCookie, getQuery, getRequestURL, sendRedirect, setCookie } from 'h3'
import { FetchError } from 'ofetch'
import { withQuery } from 'ufo'
import type { OAuthConfig } from '#auth-utils'

export interface DiscordOAuthConfig {
  clientId?: string
  clientSecret?: string
  /** @default ['identify'], plus 'email' with `emailRequired` */
  scope?: string[]
  emailRequired?: boolean
  authorizationURL?: string
  tokenURL?: string
  /** The user-info endpoint, which nuxt-auth-utils' own Discord handler has fixed. */
  userURL?: string
  authorizationParams?: Record<string, string>
  redirectURL?: string
}

const DEFAULTS = {
  authorizationURL: 'https://discord.com/oauth2/authorize',
  tokenURL: 'https://discord.com/api/oauth2/token',
  userURL: 'https://discord.com/api/users/@me',
}
const STATE_MAX_AGE = 10 * 60

/**
 * Discord's authorization-code flow in the shape of nuxt-auth-utils'
 * `defineOAuthDiscordEventHandler` (same config, state cookie, onSuccess and
 * onError), with every endpoint, the user-info one included, configurable:
 * runtimeConfig.oauth.discord.{authorizationURL,tokenURL,userURL}.
 */
export function defineDiscordOAuthHandler({ config = {}, onSuccess, onError }: OAuthConfig<DiscordOAuthConfig>) {
  return eventHandler(async (event) => {
    const runtime = (useRuntimeConfig(event).oauth as { discord?: DiscordOAuthConfig }).discord ?? {}
    const settings = { ...DEFAULTS, ...runtime, ...config }
    const fail = (statusCode: number, message: string, data?: unknown) => {
      const error: H3Error = createError({ statusCode, message, data })
      if (!onError) throw error
      return onError(event, error)
    }
    const query = getQuery(event)
    if (!settings.clientId || !settings.clientSecret) {
      return fail(500, 'Missing NUXT_OAUTH_DISCORD_CLIENT_ID or NUXT_OAUTH_DISCORD_CLIENT_SECRET env variables.')
    }
    if (query.error) return fail(401, 'Discord login failed: access refused', query)
    const url = getRequestURL(event)
    const redirectURL = settings.redirectURL || `${url.protocol}//${url.host}${url.pathname}`

    if (!query.code) {
      const state = randomBytes(32).toString('base64url')
      setCookie(event, 'nuxt-auth-state', state, {
        httpOnly: true,
        secure: process.env.NODE_ENV !== 'development',
        sameSite: 'lax',
        maxAge: STATE_MAX_AGE,
        path: '/',
      })
      const scope = [...(settings.scope ?? [])]
      if (!scope.includes('identify')) scope.push('identify')
      if (settings.emailRequired && !scope.includes('email')) scope.push('email')
      return sendRedirect(event, withQuery(settings.authorizationURL, {
        response_type: 'code',
        client_id: settings.clientId,
        redirect_uri: redirectURL,
        scope: scope.join(' '),
        ...settings.authorizationParams,
        state,
      }))
    }

    const state = getCookie(event, 'nuxt-auth-state')
    deleteCookie(event, 'nuxt-auth-state', { path: '/' })
    if (!state || query.state !== state) return fail(500, 'Discord login failed: state mismatch')

    const tokens = await $fetch<Record<string, unknown>>(settings.tokenURL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
        grant_type: 'authorization_code',
        redirect_uri: redirectURL,
        code: String(query.code),
      }).toString(),
    }).catch((error: unknown) => {
      if (error instanceof FetchError && error.status === 401) return error.data as Record<string, unknown>
      throw error
    })
    if (!tokens || tokens.error || typeof tokens.access_token !== 'string') {
      return fail(401, 'Discord login failed: token request refused', tokens)
    }
    const user = await $fetch<Record<string, unknown>>(settings.userURL, {
      headers: { 'user-agent': 'Nuxt Auth Utils', 'Authorization': `Bearer ${tokens.access_token}` },
    })
    return onSuccess(event, { tokens, user })
  })
}
