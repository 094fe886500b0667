import * as v from 'valibot'
import { isTagSlug, parseTagName, TAG_NAME_MESSAGE } from '../utils/tags'

/** One tag name per the tag rule (shared/utils/tags.ts): the name as stored (trimmed, bidi controls dropped, case kept). */
export const TagNameSchema = v.pipe(
  v.string(TAG_NAME_MESSAGE),
  v.check(name => parseTagName(name) !== null, TAG_NAME_MESSAGE),
  v.transform(name => parseTagName(name)!.name),
)

/** POST /api/uploads/{id}/tags */
export const AddTagsSchema = v.object({
  tags: v.pipe(
    v.array(TagNameSchema, 'Tags must be a non-empty array'),
    v.minLength(1, 'Tags must be a non-empty array'),
    // A bound on work per request; the per-upload limit itself is checked against the stored tags.
    v.maxLength(100, 'Too many tags'),
  ),
}, 'Tags must be a non-empty array')

export const TagSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  name: v.string(),
  slug: v.string(),
})

export const TagListSchema = v.object({ tags: v.array(TagSchema) })

export const AddTagsResponseSchema = v.object({
  success: v.literal(true),
  tags: v.array(TagSchema),
  added: v.pipe(v.number(), v.integer()),
})

/** GET /api/tags?q=&limit= */
export const TagSearchQuerySchema = v.object({
  q: v.optional(v.pipe(v.string('Invalid query'), v.trim(), v.maxLength(50, 'Invalid query')), ''),
  limit: v.optional(v.pipe(
    v.string('Invalid limit'),
    v.regex(/^[1-9]\d{0,15}$/, 'Invalid limit'),
    // OpenAPI: a whole number of at least 1 (as wholeNumberParam in ./lists, which imports this file).
    v.metadata({ type: 'integer', minimum: 1 }),
    v.description('Number of tags; a larger value is treated as 100'),
    v.transform(Number),
    v.transform(limit => Math.min(limit, 100)),
  ), '20'),
})

export const TagSearchResponseSchema = v.object({
  tags: v.array(v.object({ ...TagSchema.entries, count: v.pipe(v.number(), v.integer()) })),
})

/** A tag's slug as tags carry it (lowercase, hyphens for spaces). */
export const TagSlugSchema = v.pipe(
  v.string('Invalid tag'),
  v.maxLength(100, 'Invalid tag'),
  v.check(isTagSlug, 'Invalid tag'),
  v.description('A tag slug'),
)

/** GET /api/tags/{slug}, DELETE /api/admin/tags/aliases/{from} */
export const TagSlugParamsSchema = v.object({ slug: TagSlugSchema })
export const AliasParamsSchema = v.object({ from: TagSlugSchema })

/** DELETE /api/admin/tags/implications/{tag}/{implies} */
export const ImplicationParamsSchema = v.object({ tag: TagSlugSchema, implies: TagSlugSchema })

/** POST /api/admin/tags/aliases: `from` then resolves to the existing tag `to`. */
export const AddAliasSchema = v.object({ from: TagSlugSchema, to: TagSlugSchema }, 'Invalid tag')

/** POST /api/admin/tags/implications: an upload carrying `tag` also carries `implies`. */
export const AddImplicationSchema = v.object({ tag: TagSlugSchema, implies: TagSlugSchema }, 'Invalid tag')

export const AliasSchema = v.object({ from: v.string(), to: v.string() })
export const ImplicationSchema = v.object({ tag: v.string(), implies: v.string() })

/** POST /api/admin/tags/aliases: the alias, and how many uploads' links moved to `to`. */
export const AddAliasResponseSchema = v.object({ alias: AliasSchema, moved: v.pipe(v.number(), v.integer()) })

/** POST /api/admin/tags/implications: the implication, and how many tags it added to existing uploads. */
export const AddImplicationResponseSchema = v.object({ implication: ImplicationSchema, added: v.pipe(v.number(), v.integer()) })

/** GET /api/admin/tags/rules: every alias and implication, by slug. */
export const TagRulesResponseSchema = v.object({ aliases: v.array(AliasSchema), implications: v.array(ImplicationSchema) })

/** GET /api/tags/{slug} */
export const TagDetailResponseSchema = v.object({
  tag: v.object({
    ...TagSchema.entries,
    count: v.pipe(v.number(), v.integer()),
    aliases: v.array(v.string()),
    implies: v.array(v.string()),
    impliedBy: v.array(v.string()),
  }),
})
