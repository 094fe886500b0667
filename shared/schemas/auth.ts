import * as v from 'valibot'

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
  v.minLength(8, 'Password must be 8 to 256 characters'),
  v.maxLength(256, 'Password must be 8 to 256 characters'),
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
