import { AdminUserSchema } from '#shared/schemas/admin'
import { ApiTokenSchema, AuthResponseSchema, AuthUserSchema, GeneratedTokenSchema, LoginSchema, ProfileSchema, RegisterSchema } from '#shared/schemas/auth'
import { ErrorSchema } from '#shared/schemas/common'
import { ListEntrySchema, UserListEntrySchema } from '#shared/schemas/lists'
import { TagSchema } from '#shared/schemas/tags'
import {
  DuplicateUploadSchema, ImageUploadFormSchema, ImageUrlUploadFormSchema, LinkUploadFormSchema, UploadCreatedSchema, UploadSchema, UploadStatsSchema,
} from '#shared/schemas/uploads'
import { AnonymousVoteConflictSchema, VoteRecordSchema } from '#shared/schemas/votes'
import type { ApiComponents } from '../utils/openapi'

const UPLOAD_ID = '0b6f3c1e-5d2a-4f7e-9a61-2c8d4e5f6a7b'
const USER_ID = '7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6'
const tag = { id: '3f2e1d0c-9b8a-4765-8432-10fedcba9876', name: 'Sunset', slug: 'sunset' }
const stats = { voteCount: 5, upvotes: 4, downvotes: 1, averageRating: 8.2 }
const upload = {
  id: UPLOAD_ID,
  user_id: USER_ID,
  filename: `${UPLOAD_ID}.png`,
  original_name: 'sunset.png',
  description: 'Does this sunset fuck?',
  upload_type: 'image',
  external_url: null,
  width: 1280,
  height: 853,
  upvotes: 4,
  downvote_count: 1,
  is_private: 0,
  created_at: '2026-11-23T12:00:00.000Z',
  edited_at: null,
  revision: 1,
  locked: 0,
  rating: 'safe',
  tags: [tag],
  username: 'alice',
  stats,
  favourites: 3,
  comments: 2,
}
const { original_name: _, locked: ___, ...listEntry } = upload
const { username: __, ...userListEntry } = listEntry

/**
 * The named schemas of the OpenAPI document (`components.schemas`). Every body or
 * answer that uses one of these valibot schemas refers to it by `$ref`, so generated
 * clients get one type per name (`components['schemas']['Upload']`).
 */
export const apiComponents: ApiComponents = {
  requests: {
    LoginRequest: {
      schema: LoginSchema,
      description: 'POST /api/auth with `action: "login"`; `mfaCode` once the answer said `mfaRequired: true`.',
      examples: [{ action: 'login', email: 'alice@example.com', password: 'correct horse battery' }],
    },
    RegisterRequest: {
      schema: RegisterSchema,
      description: 'POST /api/auth with `action: "register"`.',
      examples: [{ action: 'register', email: 'alice@example.com', username: 'alice', password: 'correct horse battery' }],
    },
    ImageUploadForm: {
      schema: ImageUploadFormSchema,
      description: 'upload_type `image`: the image bytes in the `file` part.',
      examples: [{ upload_type: 'image', file: '<binary PNG>', description: 'Does this sunset fuck?', tags: 'Sunset, Beach', is_private: 'false', rating: 'safe' }],
    },
    ImageUrlUploadForm: {
      schema: ImageUrlUploadFormSchema,
      description: 'upload_type `image_url`: the service downloads the image (not accepted by /api/v1/upload).',
      examples: [{ upload_type: 'image_url', image_url: 'https://example.com/sunset.png', description: 'Does this sunset fuck?' }],
    },
    LinkUploadForm: {
      schema: LinkUploadFormSchema,
      description: 'upload_type `link`: a link, no image.',
      examples: [{ upload_type: 'link', external_url: 'https://example.com/article', description: 'Does this article fuck?', tags: 'Reading' }],
    },
  },
  responses: {
    Error: {
      schema: ErrorSchema,
      description: 'The body of every error answer.',
      examples: [{ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid page' }],
    },
    User: {
      schema: AuthUserSchema,
      description: 'The signed-in account as login and registration return it.',
      examples: [{ id: USER_ID, username: 'alice', email: 'alice@example.com' }],
    },
    AuthResult: {
      schema: AuthResponseSchema,
      description: 'Login or registration: `user` and `token`, or only `mfaRequired: true` until the MFA code is sent.',
      examples: [{ user: { id: USER_ID, username: 'alice', email: 'alice@example.com' }, token: 'eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl', mfaRequired: false }, { mfaRequired: true }],
    },
    Profile: {
      schema: ProfileSchema,
      examples: [{ user: { id: USER_ID, username: 'alice', email: 'alice@example.com', createdAt: '2026-11-01T09:30:00.000Z', isAdmin: false, mfaEnabled: false, emailVerified: true, publicFavourites: true }, stats: { uploads: 3, votes: 12 } }],
    },
    ApiToken: {
      schema: ApiTokenSchema,
      description: 'An API token as listed; its value is never shown again.',
      examples: [{ id: '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d', name: 'backup script', createdAt: '2026-11-01T09:30:00.000Z', expiresAt: '2027-11-01T09:30:00.000Z', lastUsedAt: null }],
    },
    GeneratedApiToken: {
      schema: GeneratedTokenSchema,
      description: 'A new API token with its value, shown only in this answer.',
      examples: [{ id: '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d', token: 'a'.repeat(64), name: 'backup script', expiresAt: '2027-11-01T09:30:00.000Z' }],
    },
    AdminUser: {
      schema: AdminUserSchema,
      examples: [{ id: USER_ID, username: 'alice', email: 'alice@example.com', isAdmin: false, shadowBanned: false, createdAt: '2026-11-01T09:30:00.000Z' }],
    },
    Tag: {
      schema: TagSchema,
      description: 'One tag row, shared by every upload that carries it; `slug` is the lowercased name.',
      examples: [tag],
    },
    UploadStats: {
      schema: UploadStatsSchema,
      description: 'Counted votes; `averageRating` is null until someone votes.',
      examples: [stats],
    },
    Upload: {
      schema: UploadSchema,
      description: 'The full upload object (GET /api/upload/{id}).',
      examples: [upload],
    },
    UploadListEntry: {
      schema: ListEntrySchema,
      description: 'An upload in the public lists: the Upload object without `original_name`.',
      examples: [listEntry],
    },
    UserUploadListEntry: {
      schema: UserListEntrySchema,
      description: 'An upload in a user\'s list: without `original_name` and `username` (the user is given once).',
      examples: [userListEntry],
    },
    UploadCreated: {
      schema: UploadCreatedSchema,
      description: 'The answer to a new upload; the full object is at GET /api/upload/{id}.',
      examples: [{ upload: { id: UPLOAD_ID, userId: USER_ID, filename: `${UPLOAD_ID}.png`, originalName: 'sunset.png', description: 'Does this sunset fuck?', uploadType: 'image', externalUrl: null, isPrivate: false, rating: 'safe' } }],
    },
    DuplicateUpload: {
      schema: DuplicateUploadSchema,
      description: 'A 409 for an image that was already uploaded, with the id of the existing upload.',
      examples: [{ statusCode: 409, statusMessage: 'Conflict', message: 'This image has already been uploaded', duplicate: true, existingUploadId: UPLOAD_ID }],
    },
    Vote: {
      schema: VoteRecordSchema,
      description: 'A signed-in user\'s vote on an upload.',
      examples: [{ voteId: '9e8d7c6b-5a49-4382-9170-fedcba987654', userId: USER_ID, uploadId: UPLOAD_ID, vote: 'fucks' }],
    },
    AnonymousVoteConflict: {
      schema: AnonymousVoteConflictSchema,
      description: 'A 409: this visitor already voted on the upload.',
      examples: [{ statusCode: 409, statusMessage: 'Conflict', message: 'You have already voted on this upload', success: false, alreadyVoted: true, existingVote: 'upvote' }],
    },
  },
}
