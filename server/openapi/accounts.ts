import * as v from 'valibot'
import {
  AuthResponseSchema, AuthSchema, ChangePasswordSchema, ForgotPasswordSchema, GeneratedTokenSchema, GenerateTokenSchema,
  MessageSchema, MfaCodeBodySchema, MfaDisableSchema, MfaSetupSchema, MfaStateSchema, ProfileSchema, ResetPasswordSchema,
  ResetTokenCheckSchema, ResetTokenStatusSchema, SuccessMessageSchema, TokenListSchema, VerifyEmailSchema,
} from '#shared/schemas/auth'
import { IdParamsSchema, SuccessSchema } from '#shared/schemas/common'
import { defineApiPaths } from '../utils/openapi'

const tags = ['Accounts']
const rateLimited = { 429: { description: 'Too many requests (AUTH category)', headers: { 'Retry-After': 'Seconds until the next request is accepted' } } }
const unauthenticated = { 401: { description: 'Not signed in, or the token is invalid, expired or revoked (`Invalid or expired token`)' } }

export default defineApiPaths({
  '/api/auth': {
    post: {
      operationId: 'authenticate',
      summary: 'Register or log in',
      description: '`action: "register"` answers 201 with the login body. `action: "login"`: an account with MFA on answers `{ mfaRequired: true }` (no token, no cookie) until `mfaCode` (TOTP or backup code) is sent. Both set the `auth-token` cookie (HttpOnly, SameSite=Lax, 24 h).',
      tags,
      body: { json: AuthSchema },
      responses: {
        200: { description: 'Logged in (`user`, `token`, `mfaRequired: false`), or `{ mfaRequired: true }`', schema: AuthResponseSchema, headers: { 'Set-Cookie': 'auth-token=<jwt>; HttpOnly; SameSite=Lax; Path=/; Max-Age=86400' } },
        201: { description: 'Registered and logged in', schema: AuthResponseSchema, headers: { 'Set-Cookie': 'auth-token=<jwt>; HttpOnly; SameSite=Lax; Path=/; Max-Age=86400' } },
        400: { description: 'Invalid fields' },
        401: { description: '`Invalid email or password` or `Invalid MFA code`' },
        409: { description: '`Email already registered` or `Username already taken`' },
        ...rateLimited,
      },
    },
  },
  '/api/auth/logout': {
    post: {
      operationId: 'logout',
      summary: 'Log out: revokes this session and clears the cookie',
      tags,
      security: ['cookie'],
      responses: { 200: { description: 'Logged out', schema: SuccessSchema }, ...unauthenticated },
    },
  },
  '/api/profile': {
    get: {
      operationId: 'getProfile',
      summary: 'The caller\'s account and counts',
      description: 'Cache-Control: private, max-age=30.',
      tags,
      security: ['cookie'],
      responses: { 200: { description: 'Profile', schema: ProfileSchema }, ...unauthenticated },
    },
  },
  '/api/auth/tokens/generate': {
    post: {
      operationId: 'createApiToken',
      summary: 'Create an API token (its value is shown only here)',
      description: 'Only a SHA-256 hash is stored. API tokens are accepted only by POST /api/v1/upload.',
      tags,
      security: ['jwt', 'cookie'],
      body: { json: GenerateTokenSchema },
      responses: { 201: { description: 'Created', schema: GeneratedTokenSchema }, 400: { description: 'Invalid name or expiresInDays' }, ...unauthenticated },
    },
  },
  '/api/auth/tokens': {
    get: {
      operationId: 'listApiTokens',
      summary: 'The caller\'s API tokens (never their values)',
      tags,
      security: ['jwt', 'cookie'],
      responses: { 200: { description: 'Tokens, newest first', schema: TokenListSchema }, ...unauthenticated },
    },
  },
  '/api/auth/tokens/{id}': {
    delete: {
      operationId: 'revokeApiToken',
      summary: 'Revoke one API token',
      description: 'Other tokens and the account are not affected.',
      tags,
      security: ['jwt', 'cookie'],
      params: { path: IdParamsSchema },
      responses: {
        200: { description: 'Revoked', schema: SuccessSchema },
        400: { description: 'Malformed id (`Invalid ID`)' },
        ...unauthenticated,
        404: { description: 'Unknown id, or another user\'s token (`Token not found`)' },
      },
    },
  },
  '/api/auth/mfa/setup': {
    post: {
      operationId: 'startMfaSetup',
      summary: 'Start MFA setup: secret, QR code and 10 backup codes',
      description: 'TOTP: SHA1, 6 digits, 30 s, ±1 step; issuer `Does It Fuck?`, label the e-mail. MFA is on only after /api/auth/mfa/verify. Repeating setup before verifying replaces the secret and codes.',
      tags,
      security: ['cookie'],
      responses: { 200: { description: 'Setup data', schema: MfaSetupSchema }, ...unauthenticated, 409: { description: '`MFA is already enabled`' } },
    },
  },
  '/api/auth/mfa/verify': {
    post: {
      operationId: 'verifyMfaSetup',
      summary: 'Confirm MFA setup with a code from the authenticator',
      tags,
      security: ['cookie'],
      body: { json: MfaCodeBodySchema },
      responses: {
        200: { description: 'MFA is on', schema: MfaStateSchema },
        400: { description: '`Invalid MFA code`, or `MFA setup has not been started`' },
        ...unauthenticated,
        409: { description: '`MFA is already enabled`' },
        ...rateLimited,
      },
    },
  },
  '/api/auth/mfa/disable': {
    post: {
      operationId: 'disableMfa',
      summary: 'Turn MFA off (password and a TOTP or backup code)',
      tags,
      security: ['cookie'],
      body: { json: MfaDisableSchema },
      responses: {
        200: { description: 'MFA is off', schema: MfaStateSchema },
        400: { description: '`Password is incorrect`, `Invalid MFA code` or `MFA is not enabled`' },
        ...unauthenticated,
        ...rateLimited,
      },
    },
  },
  '/api/auth/change-password': {
    post: {
      operationId: 'changePassword',
      summary: 'Change the password; the caller\'s other sessions are revoked',
      tags,
      security: ['cookie'],
      body: { json: ChangePasswordSchema },
      responses: {
        200: { description: 'Changed', schema: SuccessMessageSchema },
        400: { description: '`Current password is incorrect`, `Passwords do not match`, `New password must differ from the current one`, password policy, `MFA code required`, `Invalid MFA code`' },
        ...unauthenticated,
        ...rateLimited,
      },
    },
  },
  '/api/auth/forgot-password': {
    post: {
      operationId: 'requestPasswordReset',
      summary: 'E-mail a password reset link',
      description: 'Same answer whether or not the account exists. The e-mail holds `<site>/reset-password?token=<token>` and the token; it is valid 1 hour, once, and a new request voids older tokens.',
      tags,
      body: { json: ForgotPasswordSchema },
      responses: { 200: { description: 'Accepted', schema: MessageSchema }, 400: { description: 'Invalid email' }, ...rateLimited },
    },
  },
  '/api/auth/reset-password': {
    post: {
      operationId: 'resetPassword',
      summary: 'Set a new password with the e-mailed token; every session is revoked',
      tags,
      body: { json: ResetPasswordSchema },
      responses: {
        200: { description: '`Password has been reset`', schema: v.object({ message: v.literal('Password has been reset') }) },
        400: { description: '`Invalid or expired token`, password policy, `MFA code required`, `Invalid MFA code`' },
        ...rateLimited,
      },
    },
  },
  '/api/auth/reset-password/check': {
    post: {
      operationId: 'checkResetToken',
      summary: 'Whether a reset token is live and its account needs an MFA code',
      description: 'Reads only: the token stays usable. A POST, so the token stays out of URLs and access logs; counted as AUTH, since it tells live tokens apart.',
      tags,
      body: { json: ResetTokenCheckSchema },
      responses: {
        200: { description: '`valid: false` (and `mfaRequired: false`) for an unknown, expired or used token', schema: ResetTokenStatusSchema },
        400: { description: '`Token is required`, or a value that cannot be a token (`Invalid or expired token`)' },
        ...rateLimited,
      },
    },
  },
  '/api/auth/verify-email': {
    post: {
      operationId: 'verifyEmail',
      summary: 'Prove the account\'s e-mail address with the e-mailed token',
      description: 'Registration mails `<site>/verify-email?token=<token>` and the token; it is valid 24 hours, once. No sign-in needed. '
        + 'A verified address listed in NUXT_ADMIN_EMAILS makes the account an admin from now on. Counted as AUTH.',
      tags,
      body: { json: VerifyEmailSchema },
      responses: {
        200: { description: 'Verified', schema: SuccessSchema },
        400: { description: '`Invalid or expired token` (unknown, used, expired or malformed)' },
        ...rateLimited,
      },
    },
  },
  '/api/auth/verify-email/resend': {
    post: {
      operationId: 'resendVerificationEmail',
      summary: 'Mail a new verification link; older ones stop working',
      description: 'Counted as AUTH. An address that is already verified gets no mail: 409.',
      tags,
      security: ['cookie'],
      responses: {
        200: { description: 'Sent', schema: SuccessSchema },
        400: { description: '`No email address to verify` (an account made by an external sign-in without a verified address)' },
        ...unauthenticated,
        409: { description: '`Email already verified`' },
        ...rateLimited,
      },
    },
  },
})
