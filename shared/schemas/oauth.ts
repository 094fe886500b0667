import * as v from 'valibot'
import { OAUTH_PROVIDERS } from '../utils/oauth'
import { MfaCodeSchema } from './auth'

export const OAuthProviderSchema = v.picklist(OAUTH_PROVIDERS, 'Unknown provider')

export const OAuthProviderParamsSchema = v.object({ provider: OAuthProviderSchema })

/** POST /api/auth/oauth/mfa: the TOTP or backup code that completes an external sign-in. */
export const OAuthMfaSchema = v.object({
  code: v.pipe(v.optional(MfaCodeSchema, ''), v.nonEmpty('MFA code is required')),
})

export const OAuthProvidersResponseSchema = v.object({ providers: v.array(OAuthProviderSchema) })

export const OAuthAccountsResponseSchema = v.object({
  accounts: v.array(v.object({
    provider: OAuthProviderSchema,
    email: v.nullable(v.string()),
    createdAt: v.string(),
  })),
  hasPassword: v.boolean(),
})
