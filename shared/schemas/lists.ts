import * as v from 'valibot'
import { CONTENT_RATINGS, type ContentRating } from '../utils/content-rating'
import { PERIODS, SORTS } from '../utils/ranking'
import { UploadSchema } from './uploads'

/**
 * OpenAPI: the query value is a whole number of at least 1 (the regex checks its text,
 * the transform makes it one), so generated clients send and type it as an integer.
 */
export const wholeNumberParam = () => v.metadata<string, { type: 'integer', minimum: 1 }>({ type: 'integer', minimum: 1 })

/**
 * A 1-indexed page number from the query string: a positive integer or 400
 * `Invalid page` (docs/behaviour.md, Lists). A page past the end is an empty page.
 */
export const PageSchema = v.optional(v.pipe(
  v.string('Invalid page'),
  v.regex(/^[1-9]\d{0,9}$/, 'Invalid page'),
  wholeNumberParam(),
  v.transform(Number),
), '1')

/** A page size: a positive integer or 400 `Invalid limit`; above `max` it is clamped. */
export function limitSchema(defaultLimit: number, max: number) {
  return v.optional(v.pipe(
    v.string('Invalid limit'),
    v.regex(/^[1-9]\d{0,15}$/, 'Invalid limit'),
    wholeNumberParam(),
    v.description(`Page size; a larger value is treated as ${max}`),
    v.transform(Number),
    v.transform(limit => Math.min(limit, max)),
  ), String(defaultLimit))
}

/** Comma-separated tag names or slugs, compared by slug. */
const TagsParamSchema = v.optional(v.pipe(v.string('Invalid tags'), v.maxLength(1000, 'Invalid tags')))

const isRating = (value: string): value is ContentRating => (CONTENT_RATINGS as readonly string[]).includes(value)

/**
 * `rating=`: the content ratings a list shows (docs/behaviour.md, Curation),
 * repeated (`rating=safe&rating=suggestive`) or comma-separated; anything
 * else 400 `Invalid rating`. Missing: every rating.
 */
const ratingFilter = (missing: string) => v.optional(v.pipe(
  v.union([v.string(), v.array(v.string())], 'Invalid rating'),
  v.description(`Only uploads of these content ratings: safe, suggestive, explicit; repeated or comma-separated (rating=safe,suggestive). Default: ${missing}`),
  v.transform(value => [value].flat().flatMap(part => part.split(',')).map(part => part.trim().toLowerCase())),
  v.check(parts => parts.length <= 10 && parts.every(isRating), 'Invalid rating'),
  v.transform(parts => CONTENT_RATINGS.filter(rating => parts.includes(rating))),
))
export const RatingFilterSchema = ratingFilter('every rating the caller does not hide')
/** The same `rating=` on a feed, which is read without a session: nothing is hidden by default. */
export const FeedRatingFilterSchema = ratingFilter('every rating: a feed is the same for everyone, signed in or not')

/** The ranking and period of the public lists (docs/behaviour.md, Voting flow and feeds). */
const rankingParams = {
  sort: v.optional(v.pipe(
    v.picklist(SORTS, 'Invalid sort'),
    v.description('new (default): newest first; top: upvotes, then total votes; hot: net votes against age; best: Wilson lower bound of the upvote share; divisive: (u+d)^(min/max); favourites: how many accounts have it as a favourite. Ties newest first'),
  ), 'new'),
  period: v.optional(v.pipe(
    v.picklist(PERIODS, 'Invalid period'),
    v.description('Only uploads created within the last day, week, month (30 days) or year; applies to top, best, divisive and favourites'),
  ), 'all'),
  unvoted: v.optional(v.pipe(
    v.picklist(['true', 'false'], 'Invalid unvoted'),
    v.description('true: only uploads the signed-in caller has not voted on (needs the session cookie; 401 otherwise)'),
    v.transform(value => value === 'true'),
  ), 'false'),
}

export const UploadListQuerySchema = v.object({
  page: PageSchema,
  limit: limitSchema(10, 100),
  ...rankingParams,
  rating: RatingFilterSchema,
})

export const FilteredListQuerySchema = v.object({
  tags: TagsParamSchema,
  match: v.optional(v.picklist(['all', 'any'], 'Invalid match'), 'all'),
  page: PageSchema,
  limit: limitSchema(10, 100),
  ...rankingParams,
  rating: RatingFilterSchema,
})

/** GET /api/search: a query in the search language (docs/behaviour.md, Search) and the list's paging and ranking. */
export const SearchQuerySchema = v.object({
  q: v.optional(v.pipe(
    v.string('Invalid query'),
    v.description('The query: tags, -tag / NOT, OR / ||, parentheses, "a phrase", text:word (text:wor* a prefix), fields fucks, nope, votes, score, ratio, tags, age, date, user, type, is:voted|unvoted|mine (signed in). Missing or blank: every public upload'),
  ), ''),
  page: PageSchema,
  limit: limitSchema(10, 100),
  sort: rankingParams.sort,
  period: rankingParams.period,
  rating: RatingFilterSchema,
})

/** GET /api/items-recent and /api/items-top-voted. */
export const FeatureListQuerySchema = v.object({
  rating: RatingFilterSchema,
})

/** GET /api/search/suggest: the query typed so far. */
export const SearchSuggestQuerySchema = v.object({
  q: v.optional(v.pipe(v.string('Invalid query'), v.maxLength(500, 'Query too complex'), v.description('The query typed so far; its last term is completed')), ''),
})

export const SearchSuggestResponseSchema = v.object({
  tags: v.array(v.object({
    name: v.string(),
    slug: v.string(),
    count: v.pipe(v.number(), v.integer()),
    /** For an alias: the slug of the tag it resolves to (`name`, `slug` are the alias's; `count` the tag's). */
    aliasOf: v.optional(v.string()),
  })),
  fields: v.array(v.string()),
})

/** GET /api/vote/next: anonymous callers name their fingerprint (as for anonymous votes). */
export const NextUnvotedQuerySchema = v.object({
  clientFingerprint: v.optional(v.pipe(
    v.string('Invalid client fingerprint'),
    v.minLength(8, 'Invalid client fingerprint'),
    v.maxLength(256, 'Invalid client fingerprint'),
    v.description('Required without a session: the fingerprint sent with anonymous votes'),
  )),
  rating: RatingFilterSchema,
})

export const UserListQuerySchema = v.object({
  page: PageSchema,
  limit: limitSchema(12, 50),
  sort: v.optional(v.picklist(['date', 'votes', 'name', 'favourites'], 'Invalid sort'), 'date'),
  tags: TagsParamSchema,
  rating: RatingFilterSchema,
})

/** Any string: a name no account has (however long) is simply not found (404). */
export const UsernameParamsSchema = v.object({ username: v.string() })

/** An entry of /api/uploads, /api/uploads/filtered and the recent/top items. */
export const ListEntrySchema = v.omit(UploadSchema, ['original_name', 'locked'])
/** An entry of the per-user list (the user is given once at top level). */
export const UserListEntrySchema = v.omit(UploadSchema, ['original_name', 'username', 'locked'])

export const NextUnvotedResponseSchema = v.object({ upload: v.nullable(ListEntrySchema) })

export const UploadListResponseSchema = v.object({
  uploads: v.array(ListEntrySchema),
  page: v.pipe(v.number(), v.integer()),
  limit: v.pipe(v.number(), v.integer()),
})

export const FilteredListResponseSchema = v.object({
  uploads: v.array(ListEntrySchema),
  total: v.pipe(v.number(), v.integer()),
  page: v.pipe(v.number(), v.integer()),
  limit: v.pipe(v.number(), v.integer()),
})

export const UserListResponseSchema = v.object({
  user: v.object({ username: v.string(), created_at: v.string() }),
  uploads: v.array(UserListEntrySchema),
  total: v.pipe(v.number(), v.integer()),
  page: v.pipe(v.number(), v.integer()),
  totalPages: v.pipe(v.number(), v.integer()),
  limit: v.pipe(v.number(), v.integer()),
})

export const FeatureListResponseSchema = (type: 'recent' | 'top-voted') => v.object({
  items: v.array(ListEntrySchema),
  type: v.literal(type),
})

/** GET /api/profile/uploads: the caller's own uploads, private ones included. */
export const MyUploadsQuerySchema = v.object({
  page: PageSchema,
  limit: limitSchema(12, 50),
  sort: v.optional(v.picklist(['date', 'votes', 'name', 'favourites'], 'Invalid sort'), 'date'),
  rating: RatingFilterSchema,
})

export const MyUploadsResponseSchema = v.object({
  uploads: v.array(UserListEntrySchema),
  total: v.pipe(v.number(), v.integer()),
  page: v.pipe(v.number(), v.integer()),
  limit: v.pipe(v.number(), v.integer()),
})
