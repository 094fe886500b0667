import type * as v from 'valibot'
import type { ModlogResponseSchema } from '#shared/schemas/modlog'
import type {
  AdminReportsResponseSchema, ReportAction, ReportClaimedSchema, ReportCreatedSchema, ReportReason, ReportResolvedSchema, ReportStatus,
} from '#shared/schemas/reports'
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

/** Reporting an upload (signed in or anonymous), the admin report queue and the moderation log. */
export function useReports() {
  const api = useApi()
  const { signedIn } = useAuth()
  async function report(uploadId: string, input: { reason: ReportReason, details?: string }) {
    const body = { reason: input.reason, ...(input.details?.trim() ? { details: input.details.trim() } : {}) }
    return api<v.InferOutput<typeof ReportCreatedSchema>>(`/api/upload/${uploadId}/report`, {
      method: 'POST',
      body: signedIn.value ? body : { ...body, clientFingerprint: await fingerprint() },
    })
  }
  const queue = (options: { status: ReportStatus, page?: number, limit?: number }) =>
    api<ReportQueue>('/api/admin/reports', { query: { status: options.status, page: options.page ?? 1, limit: options.limit ?? 20 } })
  const claim = (id: string) => api<v.InferOutput<typeof ReportClaimedSchema>>(`/api/admin/reports/${id}/claim`, { method: 'POST' })
  const resolve = (id: string, input: { action: ReportAction, note?: string, ban?: boolean }) =>
    api<v.InferOutput<typeof ReportResolvedSchema>>(`/api/admin/reports/${id}/resolve`, {
      method: 'POST',
      body: { action: input.action, ...(input.note?.trim() ? { note: input.note.trim() } : {}) },
    })
  const modlog = (options: { page?: number, limit?: number } = {}) =>
    api<ModerationLog>('/api/admin/modlog', { query: { page: options.page ?? 1, limit: options.limit ?? 50 } })
  return { report, queue, claim, resolve, modlog }
}
