import * as v from 'valibot'
import { limitSchema, PageSchema } from './lists'
import { maxCharacters } from './common'
import { AccountRefSchema } from './modlog'
import { COMMENT_SORTS, MAX_COMMENT_LENGTH } from '../utils/comment-limits'

/**
 * A comment's Markdown: 1–2000 characters once trimmed, counted as code points
 * (as descriptions are, and as the writer's counter counts), so an emoji is one.
 */
const CommentBodySchema = v.pipe(
  v.string('Invalid body'),
  v.trim(),
  v.minLength(1, 'Comment must not be empty'),
  ...maxCharacters(MAX_COMMENT_LENGTH, `Comment must be at most ${MAX_COMMENT_LENGTH} characters`),
  v.description(`Markdown, 1–${MAX_COMMENT_LENGTH} characters: paragraphs, emphasis, links (http, https, mailto), code, quotes, lists; no HTML, no images`),
)

/** POST /api/upload/{id}/comments */
export const CommentCreateSchema = v.object({
  body: CommentBodySchema,
  parentId: v.optional(v.nullable(v.pipe(v.string('Invalid parentId'), v.description('The comment replied to; a reply to a reply attaches to its top-level comment')))),
}, 'Invalid body')

/** PATCH /api/comments/{id} and POST /api/comments/preview */
export const CommentBodyInputSchema = v.object({ body: CommentBodySchema }, 'Invalid body')

/** PUT /api/comments/{id}/vote */
export const CommentVoteSchema = v.object({
  vote: v.nullable(v.picklist(['up', 'down'], 'Invalid vote')),
}, 'Invalid vote')

/** GET /api/upload/{id}/comments */
export const CommentsQuerySchema = v.object({
  page: PageSchema,
  limit: limitSchema(20, 100),
  sort: v.optional(v.pipe(
    v.picklist(COMMENT_SORTS, 'Invalid sort'),
    v.description('new (default): newest first; old: oldest first; top: highest score, then newest'),
  ), 'new'),
})

export const CommentIdParamsSchema = v.object({ id: v.string() })

const commentFields = {
  id: v.pipe(v.string(), v.uuid()),
  author: v.nullable(AccountRefSchema),
  body: v.string(),
  html: v.pipe(v.string(), v.description('The body rendered and sanitised on the server')),
  parentId: v.nullable(v.pipe(v.string(), v.uuid())),
  createdAt: v.string(),
  editedAt: v.nullable(v.string()),
  score: v.pipe(v.number(), v.integer()),
  myVote: v.nullable(v.picklist(['up', 'down'])),
  deleted: v.boolean(),
}

export const CommentSchema = v.object(commentFields)
export const CommentWithRepliesSchema = v.object({ ...commentFields, replies: v.array(CommentSchema) })

export const CommentsPageSchema = v.object({
  comments: v.array(CommentWithRepliesSchema),
  total: v.pipe(v.number(), v.integer()),
  count: v.pipe(v.number(), v.integer()),
  page: v.pipe(v.number(), v.integer()),
  limit: v.pipe(v.number(), v.integer()),
})

export const CommentResponseSchema = v.object({ comment: CommentSchema })
export const CommentVoteResponseSchema = v.object({ score: v.pipe(v.number(), v.integer()), myVote: v.nullable(v.picklist(['up', 'down'])) })
export const CommentPreviewSchema = v.object({ html: v.string() })

export type Comment = v.InferOutput<typeof CommentSchema>
export type CommentWithReplies = v.InferOutput<typeof CommentWithRepliesSchema>
