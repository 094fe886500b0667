import { IdParamsSchema } from '#shared/schemas/common'
import {
  AdminReportsQuerySchema, AdminReportsResponseSchema, ReportClaimedSchema, ReportCreatedSchema, ReportResolvedSchema, ReportSchema, ResolveReportSchema,
} from '#shared/schemas/reports'
import { UploadIdParamsSchema } from '#shared/schemas/uploads'
import { defineApiPaths } from '../utils/openapi'

const admin = { 401: { description: 'Not authenticated' }, 403: { description: 'Not an admin' } }

export default defineApiPaths({
  '/api/upload/{id}/report': {
    post: {
      operationId: 'reportUpload',
      summary: 'Report an upload',
      description: 'Signed in (cookie), or anonymous with `clientFingerprint`: an anonymous reporter is known, like an anonymous voter, by the '
        + 'fingerprint and the keyed SHA-256 of the IP, either of which matches. One unresolved report per reporter and upload. Counts in GENERAL.',
      tags: ['Reports'],
      security: ['cookie', 'none'],
      params: { path: UploadIdParamsSchema },
      body: { json: ReportSchema },
      responses: {
        201: { description: 'Reported', schema: ReportCreatedSchema },
        400: { description: '`Invalid reason`, `Details must be at most 1000 characters`, `Invalid client fingerprint` (anonymous without one)' },
        404: { description: '`Upload not found` (unknown, or private and not visible to the caller)' },
        409: { description: '`Already reported` (this reporter has an unresolved report of this upload)' },
        429: { description: 'Rate limited (GENERAL)', headers: { 'Retry-After': 'Seconds until the window resets' } },
      },
    },
  },
  '/api/admin/reports': {
    get: {
      operationId: 'listReports',
      summary: 'The report queue (admin)',
      description: 'One entry per target (an upload, or a comment: `targetType`) and status: every report of that target in the requested status (default `open`), counted in '
        + '`reportCount`, listed oldest first in `items` (reporter null for an anonymous or deleted reporter) and tallied by reason in '
        + '`reasons`, most severe first. `reason` is the group\'s most severe (`minor_safety` > `illegal` > `harassment` > `copyright` > '
        + '`spam` > `other`), `id` and `details` are those of the first report with that reason, `createdAt` the group\'s first report\'s. '
        + 'Any report id of the group names the group in claim and resolve. `claimedBy` is the admin who claimed (or resolved) it; '
        + 'once the upload is removed, `upload` is null and `removedUpload` its tombstone (an admin\'s keeps description, uploader, type and '
        + 'reason; an owner\'s only the id and when). A comment\'s entry carries `comment` (id, body, html, author, uploadId, createdAt; null once '
        + 'the comment is removed) and its upload in `upload` (or `removedUpload`); an upload\'s has `comment` null. Groups with a more severe `reason` first, then the oldest. '
        + 'limit default 20, max 100.',
      tags: ['Admin'],
      security: ['cookie'],
      params: { query: AdminReportsQuerySchema },
      responses: {
        200: { description: 'A page of report groups', schema: AdminReportsResponseSchema },
        400: { description: '`Invalid status`, `Invalid page`, `Invalid limit`' },
        ...admin,
      },
    },
  },
  '/api/admin/reports/{id}/claim': {
    post: {
      operationId: 'claimReport',
      summary: 'Claim a group\'s reports (admin)',
      description: 'The caller takes every unresolved report of the report\'s target (an upload, or a comment); claiming again changes nothing. Logged as `report_claimed`.',
      tags: ['Admin'],
      security: ['cookie'],
      params: { path: IdParamsSchema },
      responses: {
        200: { description: 'Claimed', schema: ReportClaimedSchema },
        400: { description: '`Invalid ID`' },
        ...admin,
        404: { description: '`Report not found`' },
        409: { description: '`Report already resolved`, `Report claimed by another admin`' },
      },
    },
  },
  '/api/admin/reports/{id}/resolve': {
    post: {
      operationId: 'resolveReport',
      summary: 'Resolve a group\'s reports (admin)',
      description: 'Resolves every unresolved report of the report\'s target with one action. An upload\'s group: `dismiss`, `remove_upload` (the upload and its files '
        + 'go, a tombstone with the reason stays, its reports stay resolved, and its image is banned unless `ban` is false) or `shadow_ban_uploader`. A comment\'s group: `dismiss`, `remove_comment` (as an admin\'s delete, '
        + 'logged `comment_removed`) or `shadow_ban_author` (logged `shadow_ban_on`); an action of the other kind is a 400. The action and its moderation log entries commit together.',
      tags: ['Admin'],
      security: ['cookie'],
      params: { path: IdParamsSchema },
      body: { json: ResolveReportSchema },
      responses: {
        200: { description: 'Resolved', schema: ReportResolvedSchema },
        400: { description: '`Invalid action`, `Note must be at most 1000 characters`, `Invalid ID`, `You cannot shadow-ban yourself`, '
          + '`Action remove_upload does not apply to a report on a comment` (and likewise for the other actions)' },
        ...admin,
        404: { description: '`Report not found`, `User not found` (shadow_ban_uploader or shadow_ban_author when the account, or the comment, is gone)' },
        409: { description: '`Report already resolved`, `Report claimed by another admin`' },
      },
    },
  },
})
