import type { Comment, CommentWithReplies } from '../../shared/schemas/comments'
import { COMMENT_EDIT_WINDOW_MS } from '../../shared/utils/comment-limits'
import type { Executor } from '../database/port'
import { dialects, FOR_UPDATE, sql, type Query } from '../database/sql'
import { apiError, unlessGone } from './errors'
import { renderCommentHtml } from './markdown'
import { logModeration } from './modlog'
import type { KeepAnswer } from './request-keys'
import type { Actor } from './sessions'
import { visibleTo } from './upload-queries'
import { pageWindow, type Paging } from './lists'
import { orderedId } from './ordered-ids'

type Viewer = Pick<Actor, 'id' | 'isAdmin'>

/** Locks the comment's row only (its author is on the nullable side of a join). */
const FOR_UPDATE_OF_COMMENT = dialects({ sqlite: '', postgres: ' FOR UPDATE OF c' })

export interface CommentRow {
  id: string
  upload_id: string
  author_id: string | null
  username: string | null
  body: string
  html: string
  parent_id: string | null
  created_at: string
  edited_at: string | null
  score: number
  deleted: number
  my_vote: number | null
}

/**
 * The one comment visibility rule, on `comments c`: a shadow-banned author's
 * comments are seen only by that author and admins (docs/behaviour.md,
 * Community: comments). The upload's own rule (`visibleTo` on `uploads u`)
 * applies besides.
 */
function commentVisibleTo(viewer: Viewer | null, alias = 'c'): Query {
  const c = sql.raw(alias)
  const hidden = sql`EXISTS (SELECT 1 FROM users sb WHERE sb.id = ${c}.author_id AND sb.shadow_banned = 1)`
  if (!viewer) return sql`NOT ${hidden}`
  if (viewer.isAdmin) return sql`1 = 1`
  return sql`(${c}.author_id = ${viewer.id} OR NOT ${hidden})`
}

/** The columns of a comment answer, on `comments c` joined to its author `us`, with the viewer's vote. */
function commentColumns(viewer: Viewer | null): Query {
  const myVote = viewer
    ? sql`(SELECT cv.value FROM comment_votes cv WHERE cv.comment_id = c.id AND cv.user_id = ${viewer.id})`
    : sql`NULL`
  return sql`c.id, c.upload_id, c.author_id, us.username, c.body, c.html, c.parent_id, c.created_at, c.edited_at, c.score, c.deleted, ${myVote} AS my_vote`
}

const voteName = (value: number | null) => value === 1 ? 'up' as const : value === -1 ? 'down' as const : null

/** The one mapping of a comment row to its answer. */
function toComment(row: CommentRow): Comment {
  return {
    id: row.id,
    author: row.author_id !== null && row.username !== null ? { id: row.author_id, username: row.username } : null,
    body: row.body,
    html: row.html,
    parentId: row.parent_id,
    createdAt: row.created_at,
    editedAt: row.edited_at,
    score: Number(row.score),
    myVote: voteName(row.my_vote === null ? null : Number(row.my_vote)),
    deleted: Number(row.deleted) === 1,
  }
}

const ORDERS = {
  new: sql`c.created_at DESC, c.id DESC`,
  old: sql`c.created_at ASC, c.id ASC`,
  top: sql`c.score DESC, c.created_at DESC, c.id DESC`,
} as const

/** The upload when the viewer may see it, else 404. */
async function visibleUpload(db: Executor, viewer: Viewer | null, uploadId: string, lock = false) {
  const upload = await db.get<{ id: string }>(sql`SELECT u.id FROM uploads u WHERE u.id = ${uploadId} AND ${visibleTo(viewer)}${lock ? FOR_UPDATE : sql.raw('')}`)
  if (!upload) throw apiError(404, 'Upload not found')
  return upload
}

/**
 * GET /api/upload/{id}/comments: a page of the upload's top-level comments in
 * the chosen order, each with all its replies, oldest first. Comments are
 * seen by whoever can see the upload. The page and its replies come in one
 * statement (the upload page renders it with every view): the page's
 * comments by their place in the order, each followed by its replies.
 */
export async function listComments(db: Executor, viewer: Viewer | null, uploadId: string, query: Paging & { sort: keyof typeof ORDERS }) {
  await visibleUpload(db, viewer, uploadId)
  const visible = commentVisibleTo(viewer)
  // `total` pages the top-level comments; `count` is every comment the thread shows, replies included.
  const { total, count } = (await db.get<{ total: number, count: number }>(sql`SELECT
      (SELECT count(*) FROM comments c WHERE c.upload_id = ${uploadId} AND c.parent_id IS NULL AND ${visible}) AS total,
      (SELECT count(*) FROM comments c LEFT JOIN comments parent ON parent.id = c.parent_id
        WHERE c.upload_id = ${uploadId} AND c.deleted = 0 AND ${visible}
          AND (c.parent_id IS NULL OR ${commentVisibleTo(viewer, 'parent')})) AS count`))!
  const rows = await db.all<CommentRow & { place: number, reply: number }>(sql`WITH page AS (
      SELECT c.id, row_number() OVER (ORDER BY ${ORDERS[query.sort]}) AS place FROM comments c
      WHERE c.upload_id = ${uploadId} AND c.parent_id IS NULL AND ${visible}
      ORDER BY ${ORDERS[query.sort]} ${pageWindow(query)})
    SELECT * FROM (
      SELECT ${commentColumns(viewer)}, p.place, 0 AS reply FROM page p JOIN comments c ON c.id = p.id LEFT JOIN users us ON us.id = c.author_id
      UNION ALL
      SELECT ${commentColumns(viewer)}, p.place, 1 AS reply FROM page p JOIN comments c ON c.parent_id = p.id LEFT JOIN users us ON us.id = c.author_id
        WHERE ${visible}) AS thread
    ORDER BY place, reply, created_at, id`)
  const comments: CommentWithReplies[] = []
  for (const row of rows) {
    if (Number(row.reply) === 0) comments.push({ ...toComment(row), replies: [] })
    else comments.at(-1)!.replies.push(toComment(row))
  }
  return { comments, total: Number(total), count: Number(count), page: query.page, limit: query.limit }
}

/**
 * What of the viewer's own a comment is found by on an upload they can no
 * longer see (made private since): `authored`, their comment, so that they can
 * still edit or delete it; `voted`, a comment they voted on, so that they can
 * still withdraw the vote. No one else finds it (docs/behaviour.md, Community:
 * comments).
 */
type OwnPart = 'authored' | 'voted'

/** One comment as the viewer sees it (its upload visible to them too, or `own` above), or null. */
async function findComment(db: Executor, viewer: Viewer | null, commentId: string, lock = false, own?: OwnPart) {
  const theirs = (id: string) => own === 'authored'
    ? sql`c.author_id = ${id}`
    : sql`EXISTS (SELECT 1 FROM comment_votes cv WHERE cv.comment_id = c.id AND cv.user_id = ${id})`
  const upload = own && viewer ? sql`(${visibleTo(viewer)} OR ${theirs(viewer.id)})` : visibleTo(viewer)
  return db.get<CommentRow>(sql`SELECT ${commentColumns(viewer)} FROM comments c LEFT JOIN users us ON us.id = c.author_id
    JOIN uploads u ON u.id = c.upload_id
    WHERE c.id = ${commentId} AND ${upload} AND ${commentVisibleTo(viewer)}${lock ? FOR_UPDATE_OF_COMMENT : sql.raw('')}`)
}

async function commentOrThrow(db: Executor, viewer: Viewer, commentId: string, lock = false, own?: OwnPart) {
  const row = await findComment(db, viewer, commentId, lock, own)
  if (!row) throw apiError(404, 'Comment not found')
  return row
}

/**
 * POST /api/upload/{id}/comments: stores the Markdown and its sanitised
 * rendering. A reply to a reply attaches to its top-level comment; a reply to
 * a deleted comment, or to one on another upload, is a 400. The upload's row
 * is locked first (its place in the lock order), so its kept count
 * (comments_count) moves one comment after another. `keep` (a request with
 * an Idempotency-Key) keeps the answer in the same transaction.
 */
export async function postComment(db: Executor, actor: Viewer, uploadId: string, input: { body: string, parentId?: string | null }, keep?: KeepAnswer) {
  if (db.dialect === 'postgres' && !input.parentId && !keep) return postTopLevelCommentInOne(db, actor, uploadId, input.body)
  return db.transaction(async (tx) => {
    await visibleUpload(tx, actor, uploadId, true)
    let parentId: string | null = null
    if (input.parentId) {
      const parent = await findComment(tx, actor, input.parentId)
      if (!parent) throw apiError(404, 'Comment not found')
      if (parent.upload_id !== uploadId) throw apiError(400, 'The parent comment belongs to another upload')
      if (Number(parent.deleted) === 1) throw apiError(400, 'Cannot reply to a deleted comment')
      parentId = parent.parent_id ?? parent.id
    }
    const id = orderedId()
    await tx.run(sql`INSERT INTO comments (id, upload_id, author_id, parent_id, body, html, created_at)
      VALUES (${id}, ${uploadId}, ${actor.id}, ${parentId}, ${input.body}, ${renderCommentHtml(input.body)}, ${new Date().toISOString()})`)
    const answer = { comment: toComment((await findComment(tx, actor, id))!) }
    await keep?.(tx, answer)
    return answer
  })
}

/**
 * A top-level comment on PostgreSQL as one statement, its own transaction:
 * the upload's row locked by its first part (before the comment's foreign
 * keys and the count's trigger, which run at the statement's end), the
 * comment inserted from it and answered as its author sees it. It was five
 * round trips (BEGIN, the lock, the insert, the read, COMMIT) with the row
 * locked over four. A reply checks its parent first, in a transaction.
 */
async function postTopLevelCommentInOne(db: Executor, actor: Viewer, uploadId: string, body: string) {
  const row = await unlessGone(db.get<CommentRow>(sql`WITH target AS (
      SELECT u.id FROM uploads u WHERE u.id = ${uploadId} AND ${visibleTo(actor)}${FOR_UPDATE}
    ), inserted AS (
      INSERT INTO comments (id, upload_id, author_id, parent_id, body, html, created_at)
      SELECT ${orderedId()}, id, ${actor.id}, NULL, ${body}, ${renderCommentHtml(body)}, ${new Date().toISOString()} FROM target
      RETURNING *
    )
    SELECT ${commentColumns(actor)} FROM inserted c LEFT JOIN users us ON us.id = c.author_id`), () => apiError(404, 'Upload not found'))
  if (!row) throw apiError(404, 'Upload not found')
  return { comment: toComment(row) }
}

/**
 * PATCH /api/comments/{id}: the author, within 24 hours of posting, replaces
 * the body, also on an upload made private since (the answer is the comment
 * alone, nothing of the upload).
 */
export function editComment(db: Executor, actor: Viewer, commentId: string, input: { body: string }) {
  return db.transaction(async (tx) => {
    const row = await commentOrThrow(tx, actor, commentId, true, 'authored')
    if (Number(row.deleted) === 1) throw apiError(404, 'Comment not found')
    if (row.author_id !== actor.id) throw apiError(403, 'Only the author may edit a comment')
    if (Date.parse(row.created_at) < Date.now() - COMMENT_EDIT_WINDOW_MS) throw apiError(403, 'A comment can only be edited within 24 hours of posting')
    await tx.run(sql`UPDATE comments SET body = ${input.body}, html = ${renderCommentHtml(input.body)}, edited_at = ${new Date().toISOString()}
      WHERE id = ${commentId}`)
    return { comment: toComment((await findComment(tx, actor, commentId, false, 'authored'))!) }
  })
}

/**
 * Removes a comment: one with replies stays as deleted (empty body), one
 * without goes, and so does a deleted top-level comment whose last reply
 * went. Locks the upload first, as posting does.
 */
async function removeComment(tx: Executor, row: Pick<CommentRow, 'id' | 'upload_id' | 'parent_id'>) {
  await tx.get(sql`SELECT id FROM uploads WHERE id = ${row.upload_id}${FOR_UPDATE}`)
  const replies = await tx.get(sql`SELECT 1 AS found FROM comments WHERE parent_id = ${row.id} LIMIT 1`)
  if (replies) {
    await tx.run(sql`UPDATE comments SET deleted = 1, body = '', html = '' WHERE id = ${row.id}`)
    return
  }
  await tx.run(sql`DELETE FROM comments WHERE id = ${row.id}`)
  if (row.parent_id) {
    await tx.run(sql`DELETE FROM comments WHERE id = ${row.parent_id} AND deleted = 1
      AND NOT EXISTS (SELECT 1 FROM comments r WHERE r.parent_id = ${row.parent_id})`)
  }
}

/** The upload of a comment the viewer may see (and not deleted), else 404: what a report on it names. */
export async function reportableComment(db: Executor, viewer: Viewer | null, commentId: string) {
  const row = await findComment(db, viewer, commentId)
  if (!row || Number(row.deleted) === 1) throw apiError(404, 'Comment not found')
  return { id: row.id, uploadId: row.upload_id }
}

/**
 * An admin's removal of a comment from the report queue, as DELETE /api/comments/{id}
 * by an admin: logged as `comment_removed` (named while it is still there), then removed.
 * A comment already gone (or deleted) leaves nothing to do.
 */
export async function removeCommentAsAdmin(tx: Executor, actor: Viewer, commentId: string) {
  const row = await tx.get<Pick<CommentRow, 'id' | 'upload_id' | 'parent_id'>>(sql`SELECT id, upload_id, parent_id FROM comments WHERE id = ${commentId} AND deleted = 0`)
  if (!row) return
  await logModeration(tx, { actorId: actor.id, action: 'comment_removed', targetType: 'comment', targetId: row.id })
  await removeComment(tx, row)
}

/**
 * DELETE /api/comments/{id}: the author, also on an upload made private
 * since, or an admin (logged in the moderation log).
 */
export function deleteComment(db: Executor, actor: Viewer, commentId: string) {
  return db.transaction(async (tx) => {
    const row = await commentOrThrow(tx, actor, commentId, false, 'authored')
    if (Number(row.deleted) === 1) throw apiError(404, 'Comment not found')
    if (row.author_id !== actor.id && !actor.isAdmin) throw apiError(403, 'Only the author or an admin may delete a comment')
    if (row.author_id !== actor.id) await logModeration(tx, { actorId: actor.id, action: 'comment_removed', targetType: 'comment', targetId: row.id })
    await removeComment(tx, row)
    return { success: true as const }
  })
}

/**
 * PUT /api/comments/{id}/vote: up (+1), down (−1) or none. The comment's row
 * is locked first, so its score (the sum of its votes, written here) is exact
 * however many votes arrive at once. A vote stays its voter's to withdraw
 * (none) when the upload is made private, as a favourite does.
 */
export function voteComment(db: Executor, actor: Viewer, commentId: string, vote: 'up' | 'down' | null) {
  return db.transaction(async (tx) => {
    const row = await commentOrThrow(tx, actor, commentId, true, vote === null ? 'voted' : undefined)
    if (Number(row.deleted) === 1) throw apiError(404, 'Comment not found')
    if (vote === null) {
      await tx.run(sql`DELETE FROM comment_votes WHERE comment_id = ${commentId} AND user_id = ${actor.id}`)
    }
    else {
      const value = vote === 'up' ? 1 : -1
      await tx.run(sql`INSERT INTO comment_votes (comment_id, user_id, value) VALUES (${commentId}, ${actor.id}, ${value})
        ON CONFLICT (comment_id, user_id) DO UPDATE SET value = excluded.value`)
    }
    const updated = await tx.get<{ score: number }>(sql`UPDATE comments SET score = (SELECT coalesce(sum(value), 0) FROM comment_votes WHERE comment_id = ${commentId})
      WHERE id = ${commentId} RETURNING score`)
    return { score: Number(updated!.score), myVote: vote }
  })
}
