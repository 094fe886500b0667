import * as v from 'valibot'
import { maxCharacters, minCharacters } from './common'

export const EmailSchema = v.pipe(
  v.string('Email is required'),
  v.trim(),
  v.nonEmpty('Email is required'),
  v.maxLength(254, 'Invalid email'),
  v.email('Invalid email'),
  v.toLowerCase(),
)

export const UsernameSchema = v.pipe(
  v.string('Username is required'),
  v.trim(),
  v.minLength(3, 'Username must be 3 to 30 characters'),
  v.maxLength(30, 'Username must be 3 to 30 characters'),
  v.regex(/^[A-Za-z0-9_-]+$/, 'Username may contain only letters, digits, _ and -'),
)

export const PasswordSchema = v.pipe(
  v.string('Password is required'),
  ...minCharacters(8, 'Password must be 8 to 256 characters'),
  ...maxCharacters(256, 'Password must be 8 to 256 characters'),
)

/** A 6-digit TOTP code or a backup code XXXX-XXXX-XXXX-XXXX (hex). */
export const MfaCodeSchema = v.pipe(v.string('MFA code is required'), v.trim(), v.maxLength(64, 'Invalid MFA code'))

export const LoginSchema = v.object({
  action: v.literal('login'),
  email: v.pipe(v.string('Email is required'), v.trim(), v.toLowerCase(), v.maxLength(254, 'Invalid email or password')),
  password: v.pipe(v.string('Password is required'), v.maxLength(256, 'Invalid email or password')),
  mfaCode: v.optional(MfaCodeSchema),
})

export const RegisterSchema = v.object({
  action: v.literal('register'),
  email: EmailSchema,
  username: UsernameSchema,
  password: PasswordSchema,
})

/** POST /api/auth: `action` picks login or register. */
export const AuthSchema = v.variant('action', [LoginSchema, RegisterSchema], 'action must be "login" or "register"')

export const AuthUserSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  username: v.string(),
  email: v.nullable(v.string()),
})

export const AuthResponseSchema = v.object({
  user: v.optional(AuthUserSchema),
  token: v.optional(v.string()),
  mfaRequired: v.boolean(),
})

/** `mfaCode` where it is optional: absent or blank means "not sent". */
const OptionalMfaCodeSchema = v.optional(v.pipe(MfaCodeSchema, v.transform(code => code || undefined)))

export const MfaCodeBodySchema = v.object({
  mfaCode: v.pipe(MfaCodeSchema, v.nonEmpty('MFA code is required')),
})

export const MfaDisableSchema = v.object({
  password: v.pipe(v.string('Password is required'), v.nonEmpty('Password is required'), v.maxLength(256, 'Password is incorrect')),
  mfaCode: v.pipe(MfaCodeSchema, v.nonEmpty('MFA code is required')),
})

export const ChangePasswordSchema = v.pipe(
  v.object({
    currentPassword: v.pipe(v.string('Current password is required'), v.nonEmpty('Current password is required'), v.maxLength(256, 'Current password is incorrect')),
    newPassword: PasswordSchema,
    confirmPassword: v.string('Confirm password is required'),
    mfaCode: OptionalMfaCodeSchema,
  }),
  v.forward(
    v.partialCheck([['currentPassword'], ['newPassword']], input => input.newPassword !== input.currentPassword, 'New password must differ from the current one'),
    ['newPassword'],
  ),
  v.forward(
    v.partialCheck([['newPassword'], ['confirmPassword']], input => input.newPassword === input.confirmPassword, 'Passwords do not match'),
    ['confirmPassword'],
  ),
)

export const ForgotPasswordSchema = v.object({ email: EmailSchema })

export const ResetPasswordSchema = v.object({
  token: v.pipe(v.string('Invalid or expired token'), v.trim(), v.nonEmpty('Invalid or expired token'), v.maxLength(256, 'Invalid or expired token')),
  password: PasswordSchema,
  mfaCode: OptionalMfaCodeSchema,
})

export const GenerateTokenSchema = v.object({
  name: v.pipe(v.string('Name is required'), v.trim(), v.minLength(1, 'Name must be 1 to 100 characters'), v.maxLength(100, 'Name must be 1 to 100 characters')),
  expiresInDays: v.optional(v.pipe(
    v.number('expiresInDays must be an integer from 1 to 3650'),
    v.integer('expiresInDays must be an integer from 1 to 3650'),
    v.minValue(1, 'expiresInDays must be an integer from 1 to 3650'),
    v.maxValue(3650, 'expiresInDays must be an integer from 1 to 3650'),
  ), 365),
})

// Response bodies (OpenAPI and tests).

export const MfaRequiredSchema = v.object({ mfaRequired: v.literal(true) })

export const ProfileSchema = v.object({
  user: v.object({
    id: v.pipe(v.string(), v.uuid()),
    username: v.string(),
    email: v.nullable(v.string()),
    createdAt: v.string(),
    isAdmin: v.boolean(),
    mfaEnabled: v.boolean(),
    /** The address was proved (the mailed link, or a provider that reports it verified). */
    emailVerified: v.boolean(),
    /** Others may list the account's favourites (PUT /api/profile/preferences). */
    publicFavourites: v.boolean(),
  }),
  stats: v.object({ uploads: v.number(), votes: v.number() }),
})

export const GeneratedTokenSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  token: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/), v.description('Raw API token; shown only in this response')),
  name: v.string(),
  expiresAt: v.string(),
})

/** An API token as listed (never its value). */
export const ApiTokenSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  name: v.string(),
  createdAt: v.string(),
  expiresAt: v.string(),
  lastUsedAt: v.nullable(v.string()),
})

export const TokenListSchema = v.object({ tokens: v.array(ApiTokenSchema) })

export const MfaSetupSchema = v.object({
  qrCode: v.pipe(v.string(), v.description('PNG data URL of a QR code encoding otpauthUrl')),
  secret: v.pipe(v.string(), v.description('Base32 shared secret')),
  otpauthUrl: v.string(),
  backupCodes: v.pipe(v.array(v.pipe(v.string(), v.regex(/^[0-9A-F]{4}(-[0-9A-F]{4}){3}$/))), v.length(10)),
})

export const MfaStateSchema = v.object({ success: v.literal(true), mfaEnabled: v.boolean() })

export const MessageSchema = v.object({ message: v.string() })

export const SuccessMessageSchema = v.object({ success: v.literal(true), message: v.string() })

/** POST /api/auth/reset-password/check: the e-mailed token only, same rule as the reset itself. */
export const ResetTokenCheckSchema = v.pick(ResetPasswordSchema, ['token'])

/** POST /api/auth/verify-email: the token from the verification e-mail. */
export const VerifyEmailSchema = v.pick(ResetPasswordSchema, ['token'])

export const ResetTokenStatusSchema = v.object({ valid: v.boolean(), mfaRequired: v.boolean() })
