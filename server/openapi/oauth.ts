import { AuthResponseSchema } from '#shared/schemas/auth'
import { OAuthAccountsResponseSchema, OAuthMfaSchema, OAuthProviderParamsSchema, OAuthProvidersResponseSchema } from '#shared/schemas/oauth'
import { SuccessSchema } from '#shared/schemas/common'
import { defineApiPaths } from '../utils/openapi'

// The web flow itself (/auth/github, /auth/google, /auth/discord) is pages and
// redirects, not JSON API; these are the endpoints around it.
export default defineApiPaths({
  '/api/auth/providers': {
    get: {
      operationId: 'listAuthProviders',
      summary: 'Identity providers offered for external sign-in',
      description: 'Only providers whose client id and secret are configured. Sign-in starts at /auth/{provider}.',
      tags: ['Auth'],
      responses: { 200: { description: 'Configured providers', schema: OAuthProvidersResponseSchema } },
    },
  },
  '/api/auth/oauth-accounts': {
    get: {
      operationId: 'listOAuthAccounts',
      summary: 'Providers linked to the caller\'s account',
      tags: ['Auth'],
      security: ['cookie'],
      responses: {
        200: { description: 'Linked providers and whether the account has a password', schema: OAuthAccountsResponseSchema },
        401: { description: 'Not signed in' },
      },
    },
  },
  '/api/auth/oauth-accounts/{provider}': {
    delete: {
      operationId: 'unlinkOAuthAccount',
      summary: 'Unlink a provider',
      description: 'Refused while it is the account\'s only way to sign in (no password, no passkey, no other provider).',
      tags: ['Auth'],
      security: ['cookie'],
      params: { path: OAuthProviderParamsSchema },
      responses: {
        200: { description: 'Unlinked', schema: SuccessSchema },
        400: { description: 'Unknown provider, or the last way to sign in' },
        401: { description: 'Not signed in' },
        404: { description: 'The provider is not linked to this account' },
      },
    },
  },
  '/api/auth/oauth/mfa': {
    post: {
      operationId: 'completeOAuthMfa',
      summary: 'MFA step of an external sign-in',
      description: 'After /auth/{provider} redirected an MFA account to /auth/mfa: a TOTP or backup code. '
        + 'Needs the short-lived oauth-mfa cookie set by that redirect; sets the auth-token cookie.',
      tags: ['Auth'],
      body: { json: OAuthMfaSchema },
      responses: {
        200: { description: 'Signed in', schema: AuthResponseSchema },
        400: { description: 'Missing code' },
        401: { description: 'No pending sign-in (or it expired), or a wrong code' },
        429: { description: 'Rate limited', headers: { 'Retry-After': 'Seconds to wait' } },
      },
    },
  },
})
