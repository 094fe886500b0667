import * as v from 'valibot'
import { CONTENT_RATINGS } from '../utils/content-rating'
import { MAX_TAGS_PER_UPLOAD, parseTagName, TAG_NAME_MESSAGE } from '../utils/tags'
import { MAX_DESCRIPTION_LENGTH, MAX_URL_LENGTH } from '../utils/upload-limits'
import { hasVisibleCharacter } from '../utils/visible-text'
import { maxCharacters } from './common'
import { TagSchema } from './tags'

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  }
  catch {
    return false
  }
}

// Missing multipart fields count as empty, so each gets its own message rather than a generic "Invalid key".
export const HttpUrlSchema = (message: string) => v.pipe(
  v.optional(v.string(message), ''),
  v.trim(),
  v.nonEmpty(message),
  v.maxLength(MAX_URL_LENGTH, `URLs must be at most ${MAX_URL_LENGTH} characters`),
  // An empty one is refused above: the same words again would list the issue twice.
  v.check(url => url === '' || isHttpUrl(url), message),
)

/** A description as stored: trimmed, 1 to 500 characters, at least one of them visible. */
export const DescriptionTextSchema = v.pipe(
  v.string('Description is required'),
  v.trim(),
  v.nonEmpty('Description is required'),
  v.check(hasVisibleCharacter, 'Description must contain a visible character'),
  ...maxCharacters(MAX_DESCRIPTION_LENGTH, `Description must be at most ${MAX_DESCRIPTION_LENGTH} characters`),
)

const DescriptionSchema = v.pipe(
  v.optional(v.string('Description is required'), ''),
  v.trim(),
  v.nonEmpty('Description is required'),
  v.check(hasVisibleCharacter, 'Description must contain a visible character'),
  ...maxCharacters(MAX_DESCRIPTION_LENGTH, `Description must be at most ${MAX_DESCRIPTION_LENGTH} characters`),
)

/** Comma-separated tag names: trimmed, empties dropped, one per slug, each per the tag-name rule (as stored), at most 10. */
export const TagListFieldSchema = v.pipe(
  v.optional(v.string(TAG_NAME_MESSAGE), ''),
  v.transform(list => list.split(',').map(name => name.trim()).filter(Boolean)),
  v.check(names => names.every(name => parseTagName(name) !== null), TAG_NAME_MESSAGE),
  v.transform((names) => {
    const bySlug = new Map<string, string>()
    for (const tag of names.map(name => parseTagName(name)!)) if (!bySlug.has(tag.slug)) bySlug.set(tag.slug, tag.name)
    return [...bySlug.values()]
  }),
  v.check(names => names.length <= MAX_TAGS_PER_UPLOAD, `At most ${MAX_TAGS_PER_UPLOAD} tags per upload`),
)

const IsPrivateFieldSchema = v.pipe(
  v.optional(v.picklist(['true', 'false'], 'is_private must be "true" or "false"'), 'false'),
  v.transform(value => value === 'true'),
)

/** An upload's content rating: 400 `Invalid rating` for anything else. */
export const ContentRatingSchema = v.picklist(CONTENT_RATINGS, 'Invalid rating')

const RatingFieldSchema = v.optional(ContentRatingSchema, 'safe')

const common = {
  description: DescriptionSchema,
  tags: TagListFieldSchema,
  is_private: IsPrivateFieldSchema,
  rating: RatingFieldSchema,
}

const ImageFields = v.object({ upload_type: v.literal('image'), ...common })
const ImageUrlFields = v.object({ upload_type: v.literal('image_url'), image_url: HttpUrlSchema('Invalid image URL'), ...common })
const LinkFields = v.object({ upload_type: v.literal('link'), external_url: HttpUrlSchema('Invalid external URL'), ...common })

/** The text fields of POST /api/upload (the file part is streamed separately). */
export const UploadFieldsSchema = v.variant('upload_type', [ImageFields, ImageUrlFields, LinkFields], 'Invalid upload type')
/** The text fields of POST /api/v1/upload: `image_url` is not accepted there. */
export const ApiUploadFieldsSchema = v.variant('upload_type', [ImageFields, LinkFields], 'Invalid upload type')

export type UploadFields = v.InferOutput<typeof UploadFieldsSchema>

// The multipart body as documented in OpenAPI (the handlers stream it and validate the
// fields with UploadFieldsSchema): one object per upload_type, a discriminated union.
const FormCommon = {
  description: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_DESCRIPTION_LENGTH), v.description('1 to 500 characters, at least one of them visible')),
  tags: v.optional(v.pipe(v.string(), v.description('Comma-separated tag names, at most 10'))),
  is_private: v.optional(v.pipe(v.picklist(['true', 'false']), v.description('Default `false`'))),
  rating: v.optional(v.pipe(v.picklist(CONTENT_RATINGS), v.description('The content rating; default `safe`'))),
}

/** upload_type `image`: the image itself in the `file` part. */
export const ImageUploadFormSchema = v.object({
  upload_type: v.literal('image'),
  // No `type: string`: client generators type a string as text (openapi-typescript gives `string`,
  // so a script had to cast its Blob); bytes with no type are `unknown` there, which takes a Blob.
  file: v.pipe(
    v.unknown(),
    v.metadata({ format: 'binary', contentMediaType: 'application/octet-stream' }),
    v.description('The image file: JPEG, PNG, GIF or WebP, at most 10 MB and 50 megapixels (the type is read from the bytes)'),
  ),
  ...FormCommon,
})

/** upload_type `image_url`: the service downloads the image. */
export const ImageUrlUploadFormSchema = v.object({
  upload_type: v.literal('image_url'),
  image_url: v.pipe(v.string(), v.maxLength(MAX_URL_LENGTH), v.description('http(s) address of an image the service downloads')),
  ...FormCommon,
})

/** upload_type `link`: a link, no image. */
export const LinkUploadFormSchema = v.object({
  upload_type: v.literal('link'),
  external_url: v.pipe(v.string(), v.maxLength(MAX_URL_LENGTH), v.description('http(s) address to link to')),
  ...FormCommon,
})

/** POST /api/upload: `file` for image, `image_url` for image_url, `external_url` for link. */
export const UploadFormSchema = v.variant('upload_type', [ImageUploadFormSchema, ImageUrlUploadFormSchema, LinkUploadFormSchema])

/** The same body for POST /api/v1/upload (no `image_url`). */
export const ApiUploadFormSchema = v.variant('upload_type', [ImageUploadFormSchema, LinkUploadFormSchema])

/** The text fields of the upload forms, as documented (`file` is the image part): the multipart reader names these when one comes twice. */
export const UPLOAD_FORM_FIELDS: readonly string[] = [...new Set(UploadFormSchema.options.flatMap(option => Object.keys(option.entries)))]
  .filter(name => name !== 'file')

export const UploadCreatedSchema = v.object({
  upload: v.object({
    id: v.pipe(v.string(), v.uuid()),
    userId: v.pipe(v.string(), v.uuid()),
    filename: v.nullable(v.string()),
    originalName: v.string(),
    description: v.string(),
    uploadType: v.picklist(['image', 'link']),
    externalUrl: v.nullable(v.string()),
    isPrivate: v.boolean(),
    rating: v.picklist(CONTENT_RATINGS),
  }),
})

export const UploadStatsSchema = v.object({
  voteCount: v.pipe(v.number(), v.integer()),
  upvotes: v.pipe(v.number(), v.integer()),
  downvotes: v.pipe(v.number(), v.integer()),
  averageRating: v.nullable(v.number()),
})

/** The full Upload object (GET /api/upload/{id}). */
export const UploadSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  user_id: v.pipe(v.string(), v.uuid()),
  filename: v.nullable(v.string()),
  original_name: v.string(),
  description: v.string(),
  upload_type: v.picklist(['image', 'link']),
  external_url: v.nullable(v.string()),
  /** Pixels of the stored image (after auto-orientation); null for links. */
  width: v.nullable(v.pipe(v.number(), v.integer())),
  height: v.nullable(v.pipe(v.number(), v.integer())),
  upvotes: v.pipe(v.number(), v.integer()),
  downvote_count: v.pipe(v.number(), v.integer()),
  is_private: v.picklist([0, 1]),
  created_at: v.string(),
  /** When the description, link or tags last changed; null until the first change. */
  edited_at: v.nullable(v.string()),
  /** The newest revision (1 at creation; GET /api/upload/{id}/history). */
  revision: v.pipe(v.number(), v.integer()),
  /** 1 while only admins may edit the upload. */
  locked: v.picklist([0, 1]),
  rating: v.pipe(v.picklist(CONTENT_RATINGS), v.description('The content rating: safe, suggestive or explicit')),
  tags: v.array(TagSchema),
  username: v.string(),
  stats: UploadStatsSchema,
  /** Accounts that have the upload as a favourite. */
  favourites: v.pipe(v.number(), v.integer(), v.description('How many accounts have the upload as a favourite')),
  favourited: v.optional(v.pipe(v.boolean(), v.description('Whether the signed-in caller has it as a favourite; absent without a session'))),
  comments: v.pipe(v.number(), v.integer(), v.description('How many comments anyone may see (not deleted, author not shadow-banned)')),
})

export const PrivacyToggledSchema = v.object({
  success: v.literal(true),
  upload: UploadSchema,
  is_private: v.picklist([0, 1]),
})

export const DuplicateUploadSchema = v.object({
  statusCode: v.literal(409),
  statusMessage: v.literal('Conflict'),
  message: v.string(),
  duplicate: v.literal(true),
  existingUploadId: v.pipe(v.string(), v.uuid()),
})

export const ImageQuerySchema = v.object({
  size: v.optional(v.picklist(['small', 'thumb', 'medium', 'display'], 'size must be "small", "thumb", "medium" or "display"')),
})

/** Any string: an id that is not a UUID is simply not found (404). */
export const UploadIdParamsSchema = v.object({ id: v.string() })
