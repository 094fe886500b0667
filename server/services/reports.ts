import { randomUUID } from 'node:crypto'
import { REPORT_SEVERITY, REPORT_TARGET_ACTIONS, type ReportAction, type ReportReason, type ReportStatus, type ReportTarget } from '../../shared/utils/report-kinds'
import { isForeignKeyViolation, type Executor, type Row } from '../database/port'
import type { reports } from '../database/schema-postgres'
import { FOR_UPDATE, inList, sql, type Query } from '../database/sql'
import { removeUploadAsAdmin, setShadowBan } from './admin'
import { removeCommentAsAdmin, reportableComment, type CommentRow } from './comments'
import { apiError } from './errors'
import { logModeration } from './modlog'
import type { MediaStore } from './media-store'
import type { Actor } from './sessions'
import { visibleTo } from './upload-queries'
import { tombstones, type Tombstone } from './removed-uploads'
import { ENTRY_COLUMNS, withTags, type ListEntry, type ListRow } from './lists'
import { hashSignal, type AnonymousVoter } from './votes'

/** Who files a report: an account, or an anonymous visitor known by keyed IP hash and fingerprint (as anonymous votes). */
export type Reporter = { actor: Actor } | { actor: null, visitor: AnonymousVoter, clientFingerprint: string | undefined }

/** What a report is about: an upload, or a comment on one (`commentId` '' for the upload itself, as stored). */
interface Target { uploadId: string, commentId: string }

/**
 * POST /api/upload/{id}/report: one unresolved report per reporter and upload.
 * The partial unique indexes decide under concurrency: of parallel first
 * reports one row goes in, the others insert nothing and answer 409.
 */
export async function createReport(db: Executor, reporter: Reporter, uploadId: string, input: { reason: ReportReason, details?: string }) {
  const identity = identify(reporter)
  const upload = await db.get(sql`SELECT u.id FROM uploads u WHERE u.id = ${uploadId} AND ${visibleTo(reporter.actor)}`)
  if (!upload) throw apiError(404, 'Upload not found')
  const report = await insertReport(db, identity, { uploadId, commentId: '' }, input)
  return { report: { id: report.id, uploadId, reason: input.reason, status: 'open' as const, createdAt: report.createdAt } }
}

/**
 * POST /api/comments/{id}/report: as an upload's report, on a comment the
 * reporter can see (docs/behaviour.md, "Trust and safety"); its reports form
 * a group of their own in the queue.
 */
export async function createCommentReport(db: Executor, reporter: Reporter, commentId: string, input: { reason: ReportReason, details?: string }) {
  const identity = identify(reporter)
  const comment = await reportableComment(db, reporter.actor, commentId)
  const report = await insertReport(db, identity, { uploadId: comment.uploadId, commentId }, input)
  return { report: { id: report.id, commentId, uploadId: comment.uploadId, reason: input.reason, status: 'open' as const, createdAt: report.createdAt } }
}

/** The target, while it is there: the upload, or the comment (not deleted). */
function targetExists(target: Target): Query {
  return target.commentId
    ? sql`EXISTS (SELECT 1 FROM comments WHERE id = ${target.commentId} AND deleted = 0)`
    : sql`EXISTS (SELECT 1 FROM uploads WHERE id = ${target.uploadId})`
}

interface Identity { reporterId: string | null, ipHash: string | null, fingerprint: string | null }

/** How the reporter is known on the report row; an anonymous one without a fingerprint is a 400. */
function identify(reporter: Reporter): Identity {
  if (reporter.actor) return { reporterId: reporter.actor.id, ipHash: null, fingerprint: null }
  if (!reporter.clientFingerprint) throw apiError(400, 'Invalid client fingerprint')
  return { reporterId: null, ipHash: hashSignal(reporter.visitor.secret, reporter.visitor.ip), fingerprint: reporter.clientFingerprint }
}

async function insertReport(db: Executor, identity: Identity, target: Target, input: { reason: ReportReason, details?: string }) {
  const createdAt = new Date().toISOString()
  // A target deleted between the EXISTS and the insert's key check (PostgreSQL runs them
  // side by side) refuses the row: that is the target gone, as below.
  const inserted = await db.get<{ id: string }>(sql`INSERT INTO reports (id, upload_id, comment_id, reporter_id, ip_hash, fingerprint, reason, details, status, created_at)
    SELECT ${randomUUID()}, ${target.uploadId}, ${target.commentId}, ${identity.reporterId}, ${identity.ipHash}, ${identity.fingerprint}, ${input.reason}, ${input.details ?? null}, 'open', ${createdAt}
    WHERE ${targetExists(target)}
    ON CONFLICT DO NOTHING RETURNING id`).catch((error: unknown) => {
    if (isForeignKeyViolation(error)) return undefined
    throw error
  })
  if (!inserted) {
    // Either the unique index refused a second report, or the target went meanwhile.
    const still = await db.get(sql`SELECT 1 AS found WHERE ${targetExists(target)}`)
    if (still) throw apiError(409, 'Already reported')
    throw apiError(404, target.commentId ? 'Comment not found' : 'Upload not found')
  }
  return { id: inserted.id, createdAt }
}

interface GroupKey { upload_id: string, comment_id: string }

interface ItemRow {
  id: string
  upload_id: string
  comment_id: string
  reason: ReportReason
  details: string | null
  status: ReportStatus
  reporter_id: string | null
  reporter_username: string | null
  claimed_by: string | null
  claimer_username: string | null
  created_at: string
}

const severity = (reason: ReportReason) => REPORT_SEVERITY.indexOf(reason)

/** What the queue shows of a reported comment: the thread's own row, less its place in the thread. */
type ReportedCommentRow = Omit<CommentRow, 'parent_id' | 'edited_at'>

const groupKey = (row: { upload_id: string, comment_id: string }) => `${row.upload_id} ${row.comment_id}`

/**
 * GET /api/admin/reports: the queue, one entry per target (an upload, or a
 * comment) and status; the group whose most severe report is more severe
 * comes first, then the group whose first report is older (docs/behaviour.md,
 * "Trust and safety"). The groups are kept rows (report_groups, kept by
 * triggers on reports) paged on their index; the page's reports, uploads,
 * comments and names are read for it alone.
 */
export async function listReports(db: Executor, query: { status: ReportStatus, page: number, limit: number }) {
  const [counted, keys] = await Promise.all([
    db.get<{ total: number }>(sql`SELECT count(*) AS total FROM report_groups WHERE status = ${query.status}`),
    db.all<GroupKey>(sql`SELECT upload_id, comment_id FROM report_groups WHERE status = ${query.status}
      ORDER BY reason_rank, first_at, upload_id, comment_id LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}`),
  ])
  const total = counted!.total
  if (keys.length === 0) return { reports: [], total, page: query.page, limit: query.limit }
  const uploadIds = [...new Set(keys.map(key => key.upload_id))]
  const commentIds = keys.map(key => key.comment_id).filter(Boolean)
  const [items, uploadRows, commentRows] = await Promise.all([
    db.all<ItemRow>(sql`SELECT r.id, r.upload_id, r.comment_id, r.reason, r.details, r.status, r.reporter_id, ru.username AS reporter_username,
        r.claimed_by, cu.username AS claimer_username, r.created_at
      FROM reports r LEFT JOIN users ru ON ru.id = r.reporter_id LEFT JOIN users cu ON cu.id = r.claimed_by
      WHERE r.status = ${query.status} AND r.upload_id ${inList(uploadIds)}
      ORDER BY r.created_at, r.id`),
    db.all<ListRow>(sql`SELECT ${ENTRY_COLUMNS}, us.username FROM uploads u JOIN users us ON us.id = u.user_id WHERE u.id ${inList(uploadIds)}`),
    commentIds.length === 0
      ? Promise.resolve([])
      : db.all<ReportedCommentRow>(sql`SELECT c.id, c.upload_id, c.author_id, us.username, c.body, c.html, c.created_at
          FROM comments c LEFT JOIN users us ON us.id = c.author_id WHERE c.id ${inList(commentIds)} AND c.deleted = 0`),
  ])
  const entries = await withTags(db, uploadRows)
  const uploadOf = new Map(entries.map(entry => [entry.id, entry]))
  const commentOf = new Map(commentRows.map(row => [row.id, toReportedComment(row)]))
  const gone = uploadIds.filter(id => !uploadOf.has(id))
  const removedOf = new Map((await tombstones(db, gone)).map(tombstone => [tombstone.id, tombstone]))
  return {
    // A group resolved or removed between the two reads has no reports left in this status: it is left out.
    reports: keys.flatMap((key) => {
      const reports = items.filter(item => groupKey(item) === groupKey(key))
      if (reports.length === 0) return []
      const target = key.comment_id
        ? { targetType: 'comment' as const, comment: commentOf.get(key.comment_id) ?? null }
        : { targetType: 'upload' as const, comment: null }
      return [toGroup(reports, target, uploadOf.get(key.upload_id) ?? null, removedOf.get(key.upload_id) ?? null)]
    }),
    total,
    page: query.page,
    limit: query.limit,
  }
}

function toReportedComment(row: ReportedCommentRow) {
  return {
    id: row.id,
    body: row.body,
    html: row.html,
    author: row.author_id !== null && row.username !== null ? { id: row.author_id, username: row.username } : null,
    uploadId: row.upload_id,
    createdAt: row.created_at,
  }
}

/**
 * One queue entry from its reports, oldest first: `id`, `reason` and
 * `details` are those of the first of its most severe reports, `createdAt`
 * the group's first report's, `claimedBy` the admin who claimed (or
 * resolved) it.
 */
function toGroup(items: ItemRow[], target: { targetType: ReportTarget, comment: ReturnType<typeof toReportedComment> | null }, upload: ListEntry | null, removedUpload: Tombstone | null) {
  const lead = items.reduce((best, item) => severity(item.reason) < severity(best.reason) ? item : best)
  const counts = new Map<ReportReason, number>()
  for (const item of items) counts.set(item.reason, (counts.get(item.reason) ?? 0) + 1)
  const claimer = items.find(item => item.claimed_by !== null && item.claimer_username !== null)
  return {
    id: lead.id,
    targetType: target.targetType,
    upload,
    comment: target.comment,
    removedUpload,
    reason: lead.reason,
    details: lead.details,
    status: lead.status,
    reportCount: items.length,
    reasons: REPORT_SEVERITY.filter(reason => counts.has(reason)).map(reason => ({ reason, count: counts.get(reason)! })),
    items: items.map(item => ({
      id: item.id,
      reason: item.reason,
      details: item.details,
      reporter: item.reporter_id !== null && item.reporter_username !== null ? { id: item.reporter_id, username: item.reporter_username } : null,
      createdAt: item.created_at,
    })),
    claimedBy: claimer ? { id: claimer.claimed_by!, username: claimer.claimer_username! } : null,
    createdAt: items[0]!.created_at,
  }
}

type ReportRow = Pick<Row<typeof reports>, 'id' | 'upload_id' | 'comment_id' | 'status' | 'claimed_by' | 'reason'>

/**
 * The report `id` names and, under a per-target lock held to commit, its
 * target's unresolved reports: 404 when unknown, 409 when resolved or
 * claimed by another admin.
 */
async function lockGroup(tx: Executor, actor: Actor, reportId: string): Promise<{ target: Target, pending: ReportRow[] }> {
  const named = await tx.get<ReportRow>(sql`SELECT id, upload_id, comment_id, status, claimed_by, reason FROM reports WHERE id = ${reportId}`)
  if (!named) throw apiError(404, 'Report not found')
  await tx.lock(named.comment_id ? `reports:${named.upload_id}:${named.comment_id}` : `reports:${named.upload_id}`)
  const pending = await tx.all<ReportRow>(sql`SELECT id, upload_id, comment_id, status, claimed_by, reason FROM reports
    WHERE upload_id = ${named.upload_id} AND comment_id = ${named.comment_id} AND status <> 'resolved'`)
  if (!pending.some(report => report.id === reportId)) throw apiError(409, 'Report already resolved')
  if (pending.some(report => report.status === 'claimed' && report.claimed_by !== null && report.claimed_by !== actor.id)) {
    throw apiError(409, 'Report claimed by another admin')
  }
  return { target: { uploadId: named.upload_id, commentId: named.comment_id }, pending }
}

/** POST /api/admin/reports/{id}/claim: the caller takes every unresolved report of the target (again: no change). */
export function claimReport(db: Executor, actor: Actor, reportId: string) {
  return db.transaction(async (tx) => {
    const { target, pending } = await lockGroup(tx, actor, reportId)
    const claimed = await tx.run(sql`UPDATE reports SET status = 'claimed', claimed_by = ${actor.id}
      WHERE upload_id = ${target.uploadId} AND comment_id = ${target.commentId} AND status = 'open'`)
    if (claimed.changes > 0) await logModeration(tx, { actorId: actor.id, action: 'report_claimed', targetType: 'report', targetId: reportId })
    return { success: true as const, uploadId: target.uploadId, status: 'claimed' as const, claimedBy: { id: actor.id, username: actor.username }, reportCount: pending.length }
  })
}

/**
 * POST /api/admin/reports/{id}/resolve: resolves every unresolved report of
 * the target with one action, and carries the action out, all in one
 * transaction with its log entries. An upload's group takes `dismiss`,
 * `remove_upload` and `shadow_ban_uploader`; a comment's `dismiss`,
 * `remove_comment` and `shadow_ban_author` (any other: 400). Removing the
 * target keeps its reports, listed with the upload's tombstone or a null comment.
 */
export function resolveReport(db: Executor, actor: Actor, reportId: string, input: { action: ReportAction, note?: string, ban?: boolean }, store: MediaStore) {
  return db.transaction(async (tx) => {
    const { target, pending } = await lockGroup(tx, actor, reportId)
    const targetType: ReportTarget = target.commentId ? 'comment' : 'upload'
    if (!(REPORT_TARGET_ACTIONS[targetType] as readonly ReportAction[]).includes(input.action)) {
      throw apiError(400, `Action ${input.action} does not apply to a report on ${targetType === 'comment' ? 'a comment' : 'an upload'}`)
    }
    const uploadId = target.uploadId
    // The upload row before the report groups the update below locks, as a new report's foreign key check
    // and a comment's removal take them: one lock order, no deadlock.
    // An upload (or comment) already removed (its reports stay) leaves nothing to remove.
    const removing = input.action === 'remove_upload' || input.action === 'remove_comment'
    const present = removing && await tx.get(sql`SELECT id FROM uploads WHERE id = ${uploadId}${FOR_UPDATE}`) !== undefined
    await tx.run(sql`UPDATE reports SET status = 'resolved', claimed_by = COALESCE(claimed_by, ${actor.id}), resolution = ${input.action},
      resolved_at = ${new Date().toISOString()} WHERE upload_id = ${uploadId} AND comment_id = ${target.commentId} AND status <> 'resolved'`)
    const note = input.note ? `${input.action}: ${input.note}` : input.action
    await logModeration(tx, { actorId: actor.id, action: 'report_resolved', targetType: 'report', targetId: reportId, note })
    if (input.action === 'shadow_ban_uploader') {
      const uploader = await tx.get<{ user_id: string | null }>(sql`SELECT user_id FROM uploads WHERE id = ${uploadId}
        UNION ALL SELECT uploader_id FROM removed_uploads WHERE id = ${uploadId}`)
      if (!uploader?.user_id) throw apiError(404, 'User not found')
      await setShadowBan(tx, actor, uploader.user_id, true, input.note)
    }
    if (input.action === 'shadow_ban_author') {
      const author = await tx.get<{ author_id: string | null }>(sql`SELECT author_id FROM comments WHERE id = ${target.commentId}`)
      if (!author?.author_id) throw apiError(404, 'User not found')
      await setShadowBan(tx, actor, author.author_id, true, input.note)
    }
    if (present && input.action === 'remove_upload') {
      // The tombstone's reason: the admin's note, else the group's gravest reason.
      const reason = input.note ?? pending.map(report => report.reason).sort((a, b) => severity(a) - severity(b))[0]!
      await removeUploadAsAdmin(tx, actor, uploadId, store, { note: input.note, ban: input.ban, reason })
    }
    if (present && input.action === 'remove_comment') await removeCommentAsAdmin(tx, actor, target.commentId)
    return { success: true as const, uploadId: target.uploadId, action: input.action, reportCount: pending.length }
  })
}
