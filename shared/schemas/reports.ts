import * as v from 'valibot'
import { maxCharacters } from './common'
import { ListEntrySchema, limitSchema, PageSchema } from './lists'
import { AccountRefSchema, MAX_MODERATION_NOTE } from './modlog'
import { BanFlagSchema, TombstoneSchema } from './removal'
import { MAX_REPORT_DETAILS, REPORT_ACTIONS, REPORT_REASONS, REPORT_STATUSES, REPORT_TARGETS } from '../utils/report-kinds'

/** POST /api/upload/{id}/report and POST /api/comments/{id}/report. `clientFingerprint` is required when no account is signed in. */
export const ReportSchema = v.object({
  reason: v.picklist(REPORT_REASONS, 'Invalid reason'),
  details: v.optional(v.pipe(
    v.string('Invalid details'),
    v.trim(),
    ...maxCharacters(MAX_REPORT_DETAILS, `Details must be at most ${MAX_REPORT_DETAILS} characters`),
    v.transform(details => details || undefined),
  )),
  clientFingerprint: v.optional(v.pipe(
    v.string('Invalid client fingerprint'),
    v.minLength(8, 'Invalid client fingerprint'),
    v.maxLength(256, 'Invalid client fingerprint'),
  )),
}, 'Invalid reason')

export const ReportCreatedSchema = v.object({
  report: v.object({
    id: v.pipe(v.string(), v.uuid()),
    uploadId: v.pipe(v.string(), v.uuid()),
    reason: v.picklist(REPORT_REASONS),
    status: v.literal('open'),
    createdAt: v.string(),
  }),
})

export const CommentReportCreatedSchema = v.object({
  report: v.object({
    id: v.pipe(v.string(), v.uuid()),
    commentId: v.pipe(v.string(), v.uuid()),
    uploadId: v.pipe(v.string(), v.uuid()),
    reason: v.picklist(REPORT_REASONS),
    status: v.literal('open'),
    createdAt: v.string(),
  }),
})

/** The reported comment in a queue entry, while it is there. */
export const ReportedCommentSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  body: v.string(),
  html: v.string(),
  author: v.nullable(AccountRefSchema),
  uploadId: v.pipe(v.string(), v.uuid()),
  createdAt: v.string(),
})

/** GET /api/admin/reports */
export const AdminReportsQuerySchema = v.object({
  status: v.optional(v.picklist(REPORT_STATUSES, 'Invalid status'), 'open'),
  page: PageSchema,
  limit: limitSchema(20, 100),
})

/**
 * One queue entry: every report of one target (an upload, or a comment) in one status, grouped. `reason`
 * is the group's most severe, `id` and `details` are the first report with that
 * reason's, `createdAt` the group's first report's; any id of the group names
 * the group in claim and resolve.
 */
export const ReportGroupSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  targetType: v.picklist(REPORT_TARGETS),
  /** The reported upload, or the reported comment's upload (null once removed). */
  upload: v.nullable(ListEntrySchema),
  /** The reported comment (targetType `comment`); null for an upload's group and once the comment is removed. */
  comment: v.nullable(ReportedCommentSchema),
  /** What is left of the upload once removed (then `upload` is null). */
  removedUpload: v.nullable(TombstoneSchema),
  reason: v.picklist(REPORT_REASONS),
  details: v.nullable(v.string()),
  status: v.picklist(REPORT_STATUSES),
  reportCount: v.pipe(v.number(), v.integer()),
  reasons: v.array(v.object({ reason: v.picklist(REPORT_REASONS), count: v.pipe(v.number(), v.integer()) })),
  items: v.array(v.object({
    id: v.pipe(v.string(), v.uuid()),
    reason: v.picklist(REPORT_REASONS),
    details: v.nullable(v.string()),
    reporter: v.nullable(AccountRefSchema),
    createdAt: v.string(),
  })),
  claimedBy: v.nullable(AccountRefSchema),
  createdAt: v.string(),
})

export const AdminReportsResponseSchema = v.object({
  reports: v.array(ReportGroupSchema),
  total: v.pipe(v.number(), v.integer()),
  page: v.pipe(v.number(), v.integer()),
  limit: v.pipe(v.number(), v.integer()),
})

export const ReportClaimedSchema = v.object({
  success: v.literal(true),
  uploadId: v.pipe(v.string(), v.uuid()),
  status: v.literal('claimed'),
  claimedBy: AccountRefSchema,
  reportCount: v.pipe(v.number(), v.integer()),
})

/** POST /api/admin/reports/{id}/resolve */
export const ResolveReportSchema = v.object({
  action: v.picklist(REPORT_ACTIONS, 'Invalid action'),
  note: v.optional(v.pipe(
    v.string('Invalid note'),
    v.trim(),
    v.maxLength(MAX_MODERATION_NOTE, `Note must be at most ${MAX_MODERATION_NOTE} characters`),
    v.transform(note => note || undefined),
  )),
  /** With `remove_upload`: false keeps the image allowed (it is banned by default). */
  ban: BanFlagSchema,
}, 'Invalid action')

export const ReportResolvedSchema = v.object({
  success: v.literal(true),
  uploadId: v.pipe(v.string(), v.uuid()),
  action: v.picklist(REPORT_ACTIONS),
  reportCount: v.pipe(v.number(), v.integer()),
})
