import * as v from 'valibot'
import { MfaCodeSchema } from './auth'

/** DELETE /api/profile: the password (absent for an account without one) and, with MFA on, a code. */
export const DeleteAccountSchema = v.object({
  password: v.optional(v.pipe(v.string('Password is required'), v.maxLength(256, 'Invalid password or code'))),
  mfaCode: v.optional(v.pipe(MfaCodeSchema, v.transform(code => code || undefined))),
}, 'Password is required')

const Nullable = <T extends v.GenericSchema>(schema: T) => v.nullable(schema)
const Int = v.pipe(v.number(), v.integer())

/** GET /api/profile/export: the account's own data, never a secret. */
export const AccountExportSchema = v.object({
  exportedAt: v.string(),
  profile: v.object({
    id: v.pipe(v.string(), v.uuid()),
    username: v.string(),
    email: Nullable(v.string()),
    createdAt: v.string(),
    isAdmin: v.boolean(),
    mfaEnabled: v.boolean(),
    hasPassword: v.boolean(),
  }),
  uploads: v.array(v.object({
    id: v.pipe(v.string(), v.uuid()),
    uploadType: v.picklist(['image', 'link']),
    originalName: v.string(),
    description: v.string(),
    externalUrl: Nullable(v.string()),
    isPrivate: v.boolean(),
    tags: v.array(v.string()),
    upvotes: Int,
    downvotes: Int,
    createdAt: v.string(),
    page: v.string(),
    media: Nullable(v.object({
      url: v.string(),
      thumbnailUrl: v.string(),
      mimeType: Nullable(v.string()),
      width: Nullable(Int),
      height: Nullable(Int),
      sizeBytes: Nullable(Int),
    })),
  })),
  votes: v.array(v.object({ uploadId: v.pipe(v.string(), v.uuid()), vote: v.picklist(['fucks', 'does_not_fuck']), createdAt: v.string(), updatedAt: v.string() })),
  favourites: v.array(v.object({ uploadId: v.pipe(v.string(), v.uuid()), createdAt: v.string() })),
  /** This or That: the pair judged and the one chosen (null: skipped). */
  duelJudgements: v.array(v.object({
    uploadIds: v.tuple([v.pipe(v.string(), v.uuid()), v.pipe(v.string(), v.uuid())]),
    winnerId: Nullable(v.pipe(v.string(), v.uuid())),
    createdAt: v.string(),
  })),
  apiTokens: v.array(v.object({ id: v.pipe(v.string(), v.uuid()), name: v.string(), createdAt: v.string(), expiresAt: v.string(), lastUsedAt: Nullable(v.string()) })),
  sessions: v.array(v.object({ id: v.pipe(v.string(), v.uuid()), createdAt: v.string(), expiresAt: v.string(), revokedAt: Nullable(v.string()) })),
  linkedAccounts: v.array(v.object({ provider: v.picklist(['github', 'google', 'discord']), email: Nullable(v.string()), createdAt: v.string() })),
  /** Names and dates only: never the credential or its public key. */
  passkeys: v.array(v.object({ id: v.pipe(v.string(), v.uuid()), name: v.string(), createdAt: v.string(), lastUsedAt: Nullable(v.string()) })),
  reports: v.array(v.object({
    id: v.pipe(v.string(), v.uuid()),
    uploadId: v.pipe(v.string(), v.uuid()),
    reason: v.picklist(['spam', 'illegal', 'minor_safety', 'harassment', 'copyright', 'other']),
    details: Nullable(v.string()),
    status: v.picklist(['open', 'claimed', 'resolved']),
    createdAt: v.string(),
  })),
})
