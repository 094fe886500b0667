import { AuthResponseSchema } from '#shared/schemas/auth'
import { IdParamsSchema, SuccessSchema } from '#shared/schemas/common'
import {
  AuthenticationOptionsSchema, PasskeyCreatedSchema, PasskeyListSchema, PasskeyLoginSchema, PasskeyRegisterSchema, RegistrationOptionsSchema,
} from '#shared/schemas/passkeys'
import { defineApiPaths } from '../utils/openapi'

const tags = ['Passkeys']
const unauthenticated = { 401: { description: 'Not signed in, or the token is invalid, expired or revoked (`Invalid or expired token`)' } }
const rateLimited = { 429: { description: 'Too many requests (AUTH category)', headers: { 'Retry-After': 'Seconds until the next request is accepted' } } }
const ceremony = 'Relying-party id: the host name of NUXT_PUBLIC_SITE_URL; the answer must come from its origin. '
  + 'A challenge is single use and expires after 5 minutes.'

export default defineApiPaths({
  '/api/auth/passkeys/register/options': {
    post: {
      operationId: 'startPasskeyRegistration',
      summary: 'Registration options for a new passkey',
      description: `PublicKeyCredentialCreationOptionsJSON for @simplewebauthn/browser's \`startRegistration\` (or \`navigator.credentials.create\`): a discoverable credential with user verification; the caller's passkeys are excluded. ${ceremony}`,
      tags,
      security: ['cookie'],
      responses: { 200: { description: 'Options', schema: RegistrationOptionsSchema }, ...unauthenticated },
    },
  },
  '/api/auth/passkeys/register/verify': {
    post: {
      operationId: 'finishPasskeyRegistration',
      summary: 'Store the passkey the authenticator made',
      description: `\`response\` is the RegistrationResponseJSON for a challenge from /register/options of the same account. ${ceremony}`,
      tags,
      security: ['cookie'],
      body: { json: PasskeyRegisterSchema },
      responses: {
        201: { description: 'Registered', schema: PasskeyCreatedSchema },
        400: { description: '`Invalid or expired challenge` (unknown, spent, expired, or issued to another account), `Passkey could not be verified` (origin, RP id, signature, user verification), `Invalid passkey response`, or an invalid name' },
        ...unauthenticated,
        409: { description: '`Passkey already registered`' },
      },
    },
  },
  '/api/auth/passkeys': {
    get: {
      operationId: 'listPasskeys',
      summary: 'The caller\'s passkeys',
      description: 'Newest first; never key material. Cache-Control: private, no-store.',
      tags,
      security: ['cookie'],
      responses: { 200: { description: 'Passkeys', schema: PasskeyListSchema }, ...unauthenticated },
    },
  },
  '/api/auth/passkeys/{id}': {
    delete: {
      operationId: 'deletePasskey',
      summary: 'Remove one passkey',
      tags,
      security: ['cookie'],
      params: { path: IdParamsSchema },
      responses: {
        200: { description: 'Removed', schema: SuccessSchema },
        400: { description: 'Malformed id (`Invalid ID`), or the account\'s only way to sign in (no password, no provider linked, no other passkey)' },
        ...unauthenticated,
        404: { description: 'Unknown id, or another user\'s passkey (`Passkey not found`)' },
      },
    },
  },
  '/api/auth/passkeys/login/options': {
    post: {
      operationId: 'startPasskeySignIn',
      summary: 'Sign-in options for any passkey of this site',
      description: `PublicKeyCredentialRequestOptionsJSON for \`startAuthentication\` (or \`navigator.credentials.get\`), with user verification required. ${ceremony}`,
      tags,
      responses: { 200: { description: 'Options', schema: AuthenticationOptionsSchema }, ...rateLimited },
    },
  },
  '/api/auth/passkeys/login/verify': {
    post: {
      operationId: 'finishPasskeySignIn',
      summary: 'Sign in with a passkey (no password)',
      description: `\`response\` is the AuthenticationResponseJSON for a challenge from /login/options. Answers like POST /api/auth (same body, same \`auth-token\` cookie); a passkey with user verification satisfies MFA, so there is no code step. ${ceremony}`,
      tags,
      body: { json: PasskeyLoginSchema },
      responses: {
        200: { description: 'Signed in', schema: AuthResponseSchema, headers: { 'Set-Cookie': 'auth-token=<jwt>; HttpOnly; SameSite=Lax; Path=/; Max-Age=86400' } },
        400: { description: '`Invalid or expired challenge` or `Invalid passkey response`' },
        401: { description: '`Unknown passkey` (no such credential here, e.g. deleted) or `Passkey could not be verified` (signature, origin, RP id, user verification, or a signature counter that did not advance)' },
        ...rateLimited,
      },
    },
  },
})
