import {
  CommentBodyInputSchema, CommentCreateSchema, CommentIdParamsSchema, CommentPreviewSchema, CommentResponseSchema, CommentsPageSchema,
  CommentsQuerySchema, CommentVoteResponseSchema, CommentVoteSchema,
} from '#shared/schemas/comments'
import { SuccessSchema } from '#shared/schemas/common'
import { CommentReportCreatedSchema, ReportSchema } from '#shared/schemas/reports'
import { UploadIdParamsSchema } from '#shared/schemas/uploads'
import { IdempotencyKeyHeaderSchema } from '../utils/answer-once'
import { defineApiPaths } from '../utils/openapi'

const tags = ['Comments']
const limited = { description: 'Rate limited (the COMMENT category, per account)', headers: { 'Retry-After': 'Seconds until the window resets' } }
const body = 'Body: Markdown, 1–2000 characters after trimming (400 `Comment must not be empty` / `Comment must be at most 2000 characters`; NUL: 400 `Text must not contain NUL characters`); rendered on the server without raw HTML or images, links only http(s) and mailto with rel="nofollow ugc noopener".'
const notFound = { description: '`Comment not found` (unknown, deleted, on an upload the caller cannot see, or a shadow-banned author\'s to anyone but them and admins)' }

export default defineApiPaths({
  '/api/upload/{id}/comments': {
    get: {
      operationId: 'listComments',
      summary: 'An upload\'s comments',
      description: 'Top-level comments paged (limit default 20, max 100; 400 `Invalid page` / `Invalid limit`), each with all its replies oldest first. sort: new (default), old, top (score, then newest); other values 400 `Invalid sort`. Seen by whoever can see the upload; a shadow-banned author\'s only by them and admins. With a session cookie each comment carries the caller\'s `myVote`, and the answer is `Cache-Control: private, no-store`.',
      tags,
      security: ['none', 'cookie'],
      params: { path: UploadIdParamsSchema, query: CommentsQuerySchema },
      responses: {
        200: { description: 'A page of comments, the total of top-level ones and the count of every comment shown', schema: CommentsPageSchema },
        304: { description: 'Not modified' },
        400: { description: 'Invalid page, limit or sort' },
        404: { description: '`Upload not found` (unknown, or private and not the caller\'s)' },
      },
    },
    post: {
      operationId: 'postComment',
      summary: 'Comment on an upload, or reply',
      description: `${body} parentId: the comment replied to; a reply to a reply attaches to its top-level comment. Counts in the COMMENT rate-limit category per account.`,
      tags,
      security: ['cookie'],
      params: { path: UploadIdParamsSchema, header: IdempotencyKeyHeaderSchema },
      body: { json: CommentCreateSchema },
      responses: {
        201: { description: 'The comment as stored (or, sent again with its Idempotency-Key, the first answer)', schema: CommentResponseSchema, headers: { 'Idempotent-Replayed': '`true` when this is the answer kept for the Idempotency-Key' } },
        400: { description: 'A bad body, `The parent comment belongs to another upload`, `Cannot reply to a deleted comment`, or an Idempotency-Key that is not 1 to 255 visible ASCII characters' },
        401: { description: 'Not authenticated' },
        404: { description: '`Upload not found`, or `Comment not found` for the parent' },
        409: { description: '`This Idempotency-Key was sent with a different request`' },
        429: limited,
      },
    },
  },
  '/api/comments/{id}': {
    patch: {
      operationId: 'editComment',
      summary: 'Edit a comment',
      description: `The author, within 24 hours of posting, also once the upload is made private (they no longer see it). ${body} Counts in the COMMENT rate-limit category per account.`,
      tags,
      security: ['cookie'],
      params: { path: CommentIdParamsSchema },
      body: { json: CommentBodyInputSchema },
      responses: {
        200: { description: 'The comment as now stored, with editedAt', schema: CommentResponseSchema },
        400: { description: 'A bad body' },
        401: { description: 'Not authenticated' },
        403: { description: '`Only the author may edit a comment` or `A comment can only be edited within 24 hours of posting`' },
        404: notFound,
        429: limited,
      },
    },
    delete: {
      operationId: 'deleteComment',
      summary: 'Delete a comment',
      description: 'The author (also once the upload is made private and they no longer see it) or an admin (logged in the moderation log as `comment_removed`). A comment with replies stays as `deleted: true` with an empty body; otherwise it goes, and a deleted comment goes with its last reply.',
      tags,
      security: ['cookie'],
      params: { path: CommentIdParamsSchema },
      responses: {
        200: { description: 'Deleted', schema: SuccessSchema },
        401: { description: 'Not authenticated' },
        403: { description: '`Only the author or an admin may delete a comment`' },
        404: notFound,
      },
    },
  },
  '/api/comments/{id}/vote': {
    put: {
      operationId: 'voteComment',
      summary: 'Vote on a comment',
      description: 'up (+1), down (−1), or null to withdraw (also once the upload is made private and the voter no longer sees it); the same vote again changes nothing. score is the sum of the comment\'s votes.',
      tags,
      security: ['cookie'],
      params: { path: CommentIdParamsSchema },
      body: { json: CommentVoteSchema },
      responses: {
        200: { description: 'The comment\'s score and the caller\'s vote', schema: CommentVoteResponseSchema },
        400: { description: '`Invalid vote`' },
        401: { description: 'Not authenticated' },
        404: notFound,
      },
    },
  },
  '/api/comments/{id}/report': {
    post: {
      operationId: 'reportComment',
      summary: 'Report a comment',
      description: 'As reporting an upload: signed in (cookie), or anonymous with `clientFingerprint` (known by the fingerprint and the keyed '
        + 'SHA-256 of the IP, either of which matches). One unresolved report per reporter and comment; a comment\'s reports form their own '
        + 'group in the admin queue (`targetType: comment`). Counts in GENERAL.',
      tags: ['Reports'],
      security: ['cookie', 'none'],
      params: { path: CommentIdParamsSchema },
      body: { json: ReportSchema },
      responses: {
        201: { description: 'Reported', schema: CommentReportCreatedSchema },
        400: { description: '`Invalid reason`, `Details must be at most 1000 characters`, `Invalid client fingerprint` (anonymous without one)' },
        404: notFound,
        409: { description: '`Already reported` (this reporter has an unresolved report of this comment)' },
        429: { description: 'Rate limited (GENERAL)', headers: { 'Retry-After': 'Seconds until the window resets' } },
      },
    },
  },
  '/api/comments/preview': {
    post: {
      operationId: 'previewComment',
      summary: 'Render a comment body without posting it',
      description: `${body} Stores nothing.`,
      tags,
      security: ['cookie'],
      body: { json: CommentBodyInputSchema },
      responses: {
        200: { description: 'The sanitised HTML a posted comment would have', schema: CommentPreviewSchema },
        400: { description: 'A bad body' },
        401: { description: 'Not authenticated' },
      },
    },
  },
})
