import { randomUUID } from 'node:crypto'
import type { ReportAction, ReportReason, ReportStatus } from '../../shared/schemas/reports'
import type { Executor, Row } from '../database/port'
import type { reports } from '../database/schema-postgres'
import { sql } from '../database/sql'
import { removeUploadAsAdmin, setShadowBan } from './admin'
import { apiError } from './errors'
import { logModeration } from './modlog'
import type { MediaStore } from './media-store'
import type { Actor } from './sessions'
import { ENTRY_COLUMNS, visibleTo } from './upload-queries'
import { withTags, type ListRow } from './uploads-list'
import { hashSignal, type AnonymousVoter } from './votes'

/** Who files a report: an account, or an anonymous visitor known by keyed IP hash and fingerprint (as anonymous votes). */
export type Reporter = { actor: Actor } | { actor: null, visitor: AnonymousVoter, clientFingerprint: string | undefined }

/**
 * POST /api/upload/{id}/report: one unresolved report per reporter and upload.
 * The partial unique indexes decide under concurrency: of parallel first
 * reports one row goes in, the others insert nothing and answer 409.
 */
export async function createReport(db: Executor, reporter: Reporter, uploadId: string, input: { reason: ReportReason, details?: string }) {
  let identity: { reporterId: string | null, ipHash: string | null, fingerprint: string | null }
  if (reporter.actor) identity = { reporterId: reporter.actor.id, ipHash: null, fingerprint: null }
  else {
    if (!reporter.clientFingerprint) throw apiError(400, 'Invalid client fingerprint')
    identity = { reporterId: null, ipHash: hashSignal(reporter.visitor.secret, reporter.visitor.ip), fingerprint: reporter.clientFingerprint }
  }
  const upload = await db.get(sql`SELECT u.id FROM uploads u WHERE u.id = ${uploadId} AND ${visibleTo(reporter.actor)}`)
  if (!upload) throw apiError(404, 'Upload not found')
  const createdAt = new Date().toISOString()
  const inserted = await db.get<{ id: string }>(sql`INSERT INTO reports (id, upload_id, reporter_id, ip_hash, fingerprint, reason, details, status, created_at)
    SELECT ${randomUUID()}, ${uploadId}, ${identity.reporterId}, ${identity.ipHash}, ${identity.fingerprint}, ${input.reason}, ${input.details ?? null}, 'open', ${createdAt}
    WHERE EXISTS (SELECT 1 FROM uploads WHERE id = ${uploadId})
    ON CONFLICT DO NOTHING RETURNING id`)
  if (!inserted) {
    // Either the unique index refused a second report, or the upload went meanwhile.
    const still = await db.get(sql`SELECT id FROM uploads WHERE id = ${uploadId}`)
    throw still ? apiError(409, 'Already reported') : apiError(404, 'Upload not found')
  }
  return { report: { id: inserted.id, uploadId, reason: input.reason, status: 'open' as const, createdAt } }
}

interface GroupRow extends ListRow {
  username: string
  report_id: string
  reason: ReportReason
  details: string | null
  status: ReportStatus
  report_count: number
  claimed_by: string | null
  claimer_username: string | null
  report_created_at: string
}

/**
 * GET /api/admin/reports: the queue, one entry per upload and status, most
 * reported first, then oldest first. An entry's id, reason, details and
 * createdAt are its first report's; `reportCount` counts the group.
 */
export async function listReports(db: Executor, query: { status: ReportStatus, page: number, limit: number }) {
  const { total } = (await db.get<{ total: number }>(sql`SELECT count(DISTINCT upload_id) AS total FROM reports WHERE status = ${query.status}`))!
  const rows = await db.all<GroupRow>(sql`SELECT ${ENTRY_COLUMNS}, us.username, r.id AS report_id, r.reason, r.details, r.status,
      g.report_count, r.claimed_by, cu.username AS claimer_username, r.created_at AS report_created_at
    FROM (SELECT upload_id, count(*) AS report_count FROM reports WHERE status = ${query.status} GROUP BY upload_id) g
    JOIN reports r ON r.id = (SELECT f.id FROM reports f WHERE f.upload_id = g.upload_id AND f.status = ${query.status} ORDER BY f.created_at, f.id LIMIT 1)
    JOIN uploads u ON u.id = g.upload_id
    JOIN users us ON us.id = u.user_id
    LEFT JOIN users cu ON cu.id = r.claimed_by
    ORDER BY g.report_count DESC, r.created_at, r.id
    LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}`)
  const entries = await withTags(db, rows)
  return {
    reports: rows.map((row, i) => ({
      id: row.report_id,
      upload: entries[i]!,
      reason: row.reason,
      details: row.details,
      status: row.status,
      reportCount: row.report_count,
      claimedBy: row.claimed_by && row.claimer_username !== null ? { id: row.claimed_by, username: row.claimer_username } : null,
      createdAt: row.report_created_at,
    })),
    total,
    page: query.page,
    limit: query.limit,
  }
}

type ReportRow = Pick<Row<typeof reports>, 'id' | 'upload_id' | 'status' | 'claimed_by'>

/**
 * The report `id` names and, under a per-upload lock held to commit, its
 * upload's unresolved reports: 404 when unknown, 409 when resolved or
 * claimed by another admin.
 */
async function lockGroup(tx: Executor, actor: Actor, reportId: string): Promise<{ uploadId: string, pending: ReportRow[] }> {
  const named = await tx.get<ReportRow>(sql`SELECT id, upload_id, status, claimed_by FROM reports WHERE id = ${reportId}`)
  if (!named) throw apiError(404, 'Report not found')
  await tx.lock(`reports:${named.upload_id}`)
  const pending = await tx.all<ReportRow>(sql`SELECT id, upload_id, status, claimed_by FROM reports
    WHERE upload_id = ${named.upload_id} AND status <> 'resolved'`)
  if (!pending.some(report => report.id === reportId)) throw apiError(409, 'Report already resolved')
  if (pending.some(report => report.status === 'claimed' && report.claimed_by !== null && report.claimed_by !== actor.id)) {
    throw apiError(409, 'Report claimed by another admin')
  }
  return { uploadId: named.upload_id, pending }
}

/** POST /api/admin/reports/{id}/claim: the caller takes every unresolved report of the upload (again: no change). */
export function claimReport(db: Executor, actor: Actor, reportId: string) {
  return db.transaction(async (tx) => {
    const { uploadId, pending } = await lockGroup(tx, actor, reportId)
    const claimed = await tx.run(sql`UPDATE reports SET status = 'claimed', claimed_by = ${actor.id}
      WHERE upload_id = ${uploadId} AND status = 'open'`)
    if (claimed.changes > 0) await logModeration(tx, { actorId: actor.id, action: 'report_claimed', targetType: 'report', targetId: reportId })
    return { success: true as const, uploadId, status: 'claimed' as const, claimedBy: { id: actor.id, username: actor.username }, reportCount: pending.length }
  })
}

/**
 * POST /api/admin/reports/{id}/resolve: resolves every unresolved report of
 * the upload with one action, and carries the action out, all in one
 * transaction with its log entries. Removing the upload removes its reports
 * too (the log keeps the record).
 */
export function resolveReport(db: Executor, actor: Actor, reportId: string, input: { action: ReportAction, note?: string }, store: MediaStore) {
  return db.transaction(async (tx) => {
    const { uploadId, pending } = await lockGroup(tx, actor, reportId)
    await tx.run(sql`UPDATE reports SET status = 'resolved', claimed_by = COALESCE(claimed_by, ${actor.id}), resolution = ${input.action},
      resolved_at = ${new Date().toISOString()} WHERE upload_id = ${uploadId} AND status <> 'resolved'`)
    const note = input.note ? `${input.action}: ${input.note}` : input.action
    await logModeration(tx, { actorId: actor.id, action: 'report_resolved', targetType: 'report', targetId: reportId, note })
    if (input.action === 'shadow_ban_uploader') {
      const { user_id: uploaderId } = (await tx.get<{ user_id: string }>(sql`SELECT user_id FROM uploads WHERE id = ${uploadId}`))!
      await setShadowBan(tx, actor, uploaderId, true, input.note)
    }
    if (input.action === 'remove_upload') await removeUploadAsAdmin(tx, actor, uploadId, store, input.note)
    return { success: true as const, uploadId, action: input.action, reportCount: pending.length }
  })
}
