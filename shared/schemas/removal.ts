import * as v from 'valibot'
import { ListEntrySchema, limitSchema, PageSchema } from './lists'
import { AccountRefSchema, MAX_MODERATION_NOTE } from './modlog'
import { HttpUrlSchema } from './uploads'

/** Whether an admin's removal bans the image (by default it does): `ban: false` keeps it allowed. */
export const BanFlagSchema = v.optional(v.boolean('ban must be a boolean'))

/** DELETE /api/upload/{id}: an empty body, or an admin's `{ ban?, reason? }` (ignored for an owner). */
export const RemoveUploadSchema = v.object({
  ban: BanFlagSchema,
  reason: v.optional(v.pipe(
    v.string('Invalid reason'),
    v.trim(),
    v.maxLength(MAX_MODERATION_NOTE, `Reason must be at most ${MAX_MODERATION_NOTE} characters`),
    v.transform(reason => reason || undefined),
  )),
}, 'Invalid body')

/**
 * What is left of a removed upload: an admin's removal keeps the description,
 * uploader, type and reason; an owner's only the id and when.
 */
export const TombstoneSchema = v.union([
  v.object({
    id: v.pipe(v.string(), v.uuid()),
    description: v.nullable(v.string()),
    uploader: v.nullable(AccountRefSchema),
    upload_type: v.nullable(v.picklist(['image', 'link'])),
    removed_at: v.string(),
    removed_by: v.literal('admin'),
    reason: v.nullable(v.string()),
  }),
  v.object({
    id: v.pipe(v.string(), v.uuid()),
    removed_at: v.string(),
    removed_by: v.literal('owner'),
  }),
])

/** GET /api/admin/banned-media */
export const BannedMediaQuerySchema = v.object({
  page: PageSchema,
  limit: limitSchema(20, 100),
})

export const BannedMediaSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  sha256: v.string(),
  /** The removed upload the image was banned with. */
  uploadId: v.nullable(v.string()),
  reason: v.nullable(v.string()),
  createdAt: v.string(),
  /** The admin who banned it; null once that account is deleted. */
  createdBy: v.nullable(AccountRefSchema),
})

export const BannedMediaResponseSchema = v.object({
  items: v.array(BannedMediaSchema),
  total: v.pipe(v.number(), v.integer()),
  page: v.pipe(v.number(), v.integer()),
  limit: v.pipe(v.number(), v.integer()),
})

/** POST /api/search/image as JSON (a file goes as multipart `file`). */
export const ImageSearchUrlSchema = v.object({
  imageUrl: HttpUrlSchema('Invalid image URL'),
}, 'Invalid image URL')

export const ImageSearchResponseSchema = v.object({
  matches: v.array(v.object({
    upload: ListEntrySchema,
    /** Bits that differ between the perceptual hashes; 0 for an exact copy. */
    distance: v.pipe(v.number(), v.integer()),
  })),
})
