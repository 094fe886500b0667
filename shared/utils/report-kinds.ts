/**
 * What a report can say and what a moderator can do with it. Apart from the
 * schemas, so the report dialog on an upload page does not bring valibot and
 * every report schema into its JavaScript (docs/performance.md, "First-load
 * JavaScript").
 */
export const REPORT_REASONS = ['spam', 'illegal', 'minor_safety', 'harassment', 'copyright', 'other'] as const
export const REPORT_STATUSES = ['open', 'claimed', 'resolved'] as const
export const REPORT_ACTIONS = ['dismiss', 'remove_upload', 'shadow_ban_uploader', 'remove_comment', 'shadow_ban_author'] as const
/** What a queue entry is about: an upload, or a comment on one. */
export const REPORT_TARGETS = ['upload', 'comment'] as const
/** The resolve actions each kind of group takes; any other is a 400. */
export const REPORT_TARGET_ACTIONS = {
  upload: ['dismiss', 'remove_upload', 'shadow_ban_uploader'],
  comment: ['dismiss', 'remove_comment', 'shadow_ban_author'],
} as const satisfies Record<(typeof REPORT_TARGETS)[number], readonly (typeof REPORT_ACTIONS)[number][]>
export const MAX_REPORT_DETAILS = 1000
/** The reasons from most to least severe: the queue's order and a group's `reason`. */
export const REPORT_SEVERITY = ['minor_safety', 'illegal', 'harassment', 'copyright', 'spam', 'other'] as const satisfies readonly (typeof REPORT_REASONS)[number][]

export type ReportReason = (typeof REPORT_REASONS)[number]
export type ReportStatus = (typeof REPORT_STATUSES)[number]
export type ReportAction = (typeof REPORT_ACTIONS)[number]
export type ReportTarget = (typeof REPORT_TARGETS)[number]
