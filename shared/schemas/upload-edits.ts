import * as v from 'valibot'
import { MAX_TAGS_PER_UPLOAD, parseTagName } from '../utils/tags'
import { maxCharacters } from './common'
import { AccountRefSchema, MAX_MODERATION_NOTE } from './modlog'
import { limitSchema, PageSchema } from './lists'
import { TagNameSchema } from './tags'
import { ContentRatingSchema, DescriptionTextSchema, HttpUrlSchema, UploadSchema } from './uploads'

export const MAX_EDIT_REASON = 200

/** Why a change was made: trimmed, at most 200 characters; empty means none. */
const ReasonSchema = v.optional(v.pipe(
  v.string('Reason must be a string'),
  v.trim(),
  ...maxCharacters(MAX_EDIT_REASON, `Reason must be at most ${MAX_EDIT_REASON} characters`),
  v.transform(text => text || null),
))

/** The complete new tag list: each per the tag rule, one per slug (the first name kept), at most 10. */
const TagListSchema = v.pipe(
  v.array(TagNameSchema, 'Tags must be an array'),
  v.transform((names) => {
    const bySlug = new Map<string, string>()
    for (const tag of names.map(name => parseTagName(name)!)) if (!bySlug.has(tag.slug)) bySlug.set(tag.slug, tag.name)
    return [...bySlug.values()]
  }),
  v.check(names => names.length <= MAX_TAGS_PER_UPLOAD, `At most ${MAX_TAGS_PER_UPLOAD} tags per upload`),
)

/** PATCH /api/upload/{id}: any of description, tags (the complete list), a link's URL and the rating, with a reason. Other keys are ignored. */
export const EditUploadSchema = v.pipe(
  v.object({
    description: v.optional(DescriptionTextSchema),
    tags: v.optional(TagListSchema),
    externalUrl: v.optional(HttpUrlSchema('Invalid external URL')),
    rating: v.optional(ContentRatingSchema),
    reason: ReasonSchema,
  }, 'Body must be a JSON object'),
  v.check(body => body.description !== undefined || body.tags !== undefined || body.externalUrl !== undefined || body.rating !== undefined, 'Nothing to change'),
)
export type EditUploadInput = v.InferOutput<typeof EditUploadSchema>

/** DELETE /api/uploads/{id}/tags/{slug} */
export const UploadTagParamsSchema = v.object({
  id: v.pipe(v.string('Invalid ID'), v.uuid('Invalid ID')),
  slug: v.pipe(v.string('Invalid tag'), v.minLength(1, 'Invalid tag'), v.maxLength(100, 'Invalid tag')),
})

/** GET /api/upload/{id}/history */
export const HistoryQuerySchema = v.object({
  page: PageSchema,
  limit: limitSchema(20, 100),
})

const NoteSchema = v.optional(v.pipe(
  v.string('Note must be a string'),
  v.trim(),
  v.maxLength(MAX_MODERATION_NOTE, `Note must be at most ${MAX_MODERATION_NOTE} characters`),
  v.transform(text => text || undefined),
))

/** POST /api/admin/uploads/{id}/revert */
export const RevertUploadSchema = v.object({
  revision: v.pipe(v.number('Revision must be a whole number'), v.integer('Revision must be a whole number'), v.minValue(1, 'Revision must be a whole number')),
  note: NoteSchema,
}, 'Revision must be a whole number')

/** POST /api/admin/uploads/{id}/lock */
export const LockUploadSchema = v.object({
  locked: v.boolean('locked must be a boolean'),
  note: NoteSchema,
}, 'locked must be a boolean')

const FromToSchema = v.object({ from: v.nullable(v.string()), to: v.nullable(v.string()) })

/** What one revision changed; revision 1 (the creation) has `from: null` and every tag added. */
export const RevisionChangesSchema = v.object({
  description: v.optional(FromToSchema),
  externalUrl: v.optional(FromToSchema),
  rating: v.optional(FromToSchema),
  tagsAdded: v.array(v.string()),
  tagsRemoved: v.array(v.string()),
})
export type RevisionChanges = v.InferOutput<typeof RevisionChangesSchema>

export const RevisionSchema = v.object({
  revision: v.pipe(v.number(), v.integer()),
  /** Who made the change; null once that account is deleted. */
  actor: v.nullable(AccountRefSchema),
  changes: RevisionChangesSchema,
  reason: v.nullable(v.string()),
  createdAt: v.string(),
})

export const HistoryResponseSchema = v.object({
  revisions: v.array(RevisionSchema),
  total: v.pipe(v.number(), v.integer()),
  page: v.pipe(v.number(), v.integer()),
  limit: v.pipe(v.number(), v.integer()),
})

export const EditedUploadSchema = v.object({
  upload: UploadSchema,
  revision: v.pipe(v.number(), v.integer()),
})

export const UploadTagRemovedSchema = v.object({
  success: v.literal(true),
  tags: v.array(v.object({ id: v.pipe(v.string(), v.uuid()), name: v.string(), slug: v.string() })),
  removed: v.picklist([0, 1]),
})
