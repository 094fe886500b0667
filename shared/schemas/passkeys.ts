import * as v from 'valibot'

const INVALID_RESPONSE = 'Invalid passkey response'
/** Longest base64url field accepted in a WebAuthn answer (attestation objects are a few kB). */
const FIELD_MAX = 16_384

const Base64Url = (max = FIELD_MAX) => v.pipe(
  v.string(INVALID_RESPONSE),
  v.nonEmpty(INVALID_RESPONSE),
  v.maxLength(max, INVALID_RESPONSE),
  v.regex(/^[A-Za-z0-9_-]+={0,2}$/, INVALID_RESPONSE),
)

const ExtensionResults = v.optional(v.looseObject({}, INVALID_RESPONSE), {})

/** What `startRegistration()` of @simplewebauthn/browser returns (RegistrationResponseJSON). */
export const RegistrationResponseSchema = v.looseObject({
  id: Base64Url(1024),
  rawId: Base64Url(1024),
  type: v.literal('public-key', INVALID_RESPONSE),
  response: v.looseObject({
    clientDataJSON: Base64Url(),
    attestationObject: Base64Url(),
    transports: v.optional(v.pipe(v.array(v.pipe(v.string(INVALID_RESPONSE), v.maxLength(32, INVALID_RESPONSE)), INVALID_RESPONSE), v.maxLength(10, INVALID_RESPONSE))),
  }, INVALID_RESPONSE),
  clientExtensionResults: ExtensionResults,
  authenticatorAttachment: v.optional(v.picklist(['platform', 'cross-platform'], INVALID_RESPONSE)),
}, INVALID_RESPONSE)

/** What `startAuthentication()` of @simplewebauthn/browser returns (AuthenticationResponseJSON). */
export const AuthenticationResponseSchema = v.looseObject({
  id: Base64Url(1024),
  rawId: Base64Url(1024),
  type: v.literal('public-key', INVALID_RESPONSE),
  response: v.looseObject({
    clientDataJSON: Base64Url(),
    authenticatorData: Base64Url(),
    signature: Base64Url(),
    userHandle: v.optional(v.pipe(v.string(INVALID_RESPONSE), v.maxLength(256, INVALID_RESPONSE), v.regex(/^[A-Za-z0-9_-]*={0,2}$/, INVALID_RESPONSE))),
  }, INVALID_RESPONSE),
  clientExtensionResults: ExtensionResults,
  authenticatorAttachment: v.optional(v.picklist(['platform', 'cross-platform'], INVALID_RESPONSE)),
}, INVALID_RESPONSE)

export const PasskeyNameSchema = v.pipe(
  v.string('Name is required'),
  v.trim(),
  v.minLength(1, 'Name must be 1 to 100 characters'),
  v.maxLength(100, 'Name must be 1 to 100 characters'),
)

/** POST /api/auth/passkeys/register/verify */
export const PasskeyRegisterSchema = v.object({
  name: PasskeyNameSchema,
  response: RegistrationResponseSchema,
})

/** POST /api/auth/passkeys/login/verify */
export const PasskeyLoginSchema = v.object({
  response: AuthenticationResponseSchema,
})

// Response bodies (OpenAPI, server and UI).

export const PasskeySchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  name: v.string(),
  createdAt: v.string(),
  lastUsedAt: v.nullable(v.string()),
})

export const PasskeyListSchema = v.object({ passkeys: v.array(PasskeySchema) })

export const PasskeyCreatedSchema = v.object({ passkey: PasskeySchema })

const CredentialDescriptor = v.looseObject({ id: v.string(), type: v.literal('public-key'), transports: v.optional(v.array(v.string())) })

/** PublicKeyCredentialCreationOptionsJSON: pass it to `startRegistration({ optionsJSON })`. */
export const RegistrationOptionsSchema = v.looseObject({
  challenge: v.pipe(v.string(), v.description('Single use, valid 5 minutes')),
  rp: v.looseObject({ name: v.string(), id: v.optional(v.string()) }),
  user: v.looseObject({ id: v.string(), name: v.string(), displayName: v.string() }),
  pubKeyCredParams: v.array(v.looseObject({ alg: v.number(), type: v.literal('public-key') })),
  timeout: v.optional(v.number()),
  excludeCredentials: v.optional(v.array(CredentialDescriptor)),
  authenticatorSelection: v.optional(v.looseObject({})),
  attestation: v.optional(v.string()),
  extensions: v.optional(v.looseObject({})),
})

/** PublicKeyCredentialRequestOptionsJSON: pass it to `startAuthentication({ optionsJSON })`. */
export const AuthenticationOptionsSchema = v.looseObject({
  challenge: v.pipe(v.string(), v.description('Single use, valid 5 minutes')),
  rpId: v.optional(v.string()),
  timeout: v.optional(v.number()),
  allowCredentials: v.optional(v.array(CredentialDescriptor)),
  userVerification: v.optional(v.string()),
  extensions: v.optional(v.looseObject({})),
})

export type PasskeyInfo = v.InferOutput<typeof PasskeySchema>
