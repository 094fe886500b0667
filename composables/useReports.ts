import type * as v from 'valibot'
import type { ModlogResponseSchema } from '#shared/schemas/modlog'
import type {
  AdminReportsResponseSchema, CommentReportCreatedSchema, ReportClaimedSchema, ReportCreatedSchema, ReportResolvedSchema,
} from '#shared/schemas/reports'
import type { ReportAction, ReportReason, ReportStatus } from '#shared/utils/report-kinds'
import { fingerprint } from './useVote'

export type ReportQueue = v.InferOutput<typeof AdminReportsResponseSchema>
export type ReportGroup = ReportQueue['reports'][number]
export type ModerationLog = v.InferOutput<typeof ModlogResponseSchema>

/** How a report's reason reads wherever it is shown: the report dialog, the queue, the log. */
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam or advertising',
  illegal: 'Illegal content',
  minor_safety: 'Endangers a minor',
  harassment: 'Harassment or hate',
  copyright: 'Copyright infringement',
  other: 'Something else',
}

/** Reporting an upload or a comment (signed in or anonymous), the admin report queue and the moderation log. */
export function useReports() {
  const api = useApi()
  const { signedIn } = useAuth()
  async function reportBody(input: { reason: ReportReason, details?: string }) {
    const body = { reason: input.reason, ...(input.details?.trim() ? { details: input.details.trim() } : {}) }
    return signedIn.value ? body : { ...body, clientFingerprint: await fingerprint() }
  }
  const report = async (uploadId: string, input: { reason: ReportReason, details?: string }) =>
    api<v.InferOutput<typeof ReportCreatedSchema>>(`/api/upload/${uploadId}/report`, { method: 'POST', body: await reportBody(input) })
  const reportComment = async (commentId: string, input: { reason: ReportReason, details?: string }) =>
    api<v.InferOutput<typeof CommentReportCreatedSchema>>(`/api/comments/${commentId}/report`, { method: 'POST', body: await reportBody(input) })
  const queue = (options: { status: ReportStatus, page?: number, limit?: number }) =>
    api<ReportQueue>('/api/admin/reports', { query: { status: options.status, page: options.page ?? 1, limit: options.limit ?? 20 } })
  const claim = (id: string) => api<v.InferOutput<typeof ReportClaimedSchema>>(`/api/admin/reports/${id}/claim`, { method: 'POST' })
  const resolve = (id: string, input: { action: ReportAction, note?: string, ban?: boolean }) =>
    api<v.InferOutput<typeof ReportResolvedSchema>>(`/api/admin/reports/${id}/resolve`, {
      method: 'POST',
      body: { action: input.action, ...(input.note?.trim() ? { note: input.note.trim() } : {}), ...(input.ban === undefined ? {} : { ban: input.ban }) },
    })
  const modlog = (options: { page?: number, limit?: number } = {}) =>
    api<ModerationLog>('/api/admin/modlog', { query: { page: options.page ?? 1, limit: options.limit ?? 50 } })
  return { report, reportComment, queue, claim, resolve, modlog }
}
