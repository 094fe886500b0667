import { AdminUsersQuerySchema, AdminUsersResponseSchema, ShadowBanResponseSchema, ShadowBanSchema } from '#shared/schemas/admin'
import { IdParamsSchema } from '#shared/schemas/common'
import { ModlogQuerySchema, ModlogResponseSchema } from '#shared/schemas/modlog'
import { defineApiPaths } from '../utils/openapi'

export default defineApiPaths({
  '/api/admin/users': {
    get: {
      operationId: 'listUsers',
      summary: 'Accounts (admin)',
      description: 'Newest first; q filters by username or e-mail. limit default 20, max 100.',
      tags: ['Admin'],
      security: ['cookie'],
      params: { query: AdminUsersQuerySchema },
      responses: {
        200: { description: 'A page of accounts', schema: AdminUsersResponseSchema },
        400: { description: 'Invalid page or limit' },
        401: { description: 'Not authenticated' },
        403: { description: 'Not an admin' },
      },
    },
  },
  '/api/admin/users/{id}/shadow-ban': {
    post: {
      operationId: 'setShadowBan',
      summary: 'Shadow-ban or unban a user (admin)',
      description: 'A banned user\'s votes are recorded but not counted; the counts of every upload the user voted on are recomputed at once.',
      tags: ['Admin'],
      security: ['cookie'],
      params: { path: IdParamsSchema },
      body: { json: ShadowBanSchema },
      responses: {
        200: { description: 'The new state', schema: ShadowBanResponseSchema },
        400: { description: 'Invalid id or body' },
        401: { description: 'Not authenticated' },
        403: { description: 'Not an admin' },
        404: { description: 'User not found' },
      },
    },
  },
  '/api/admin/modlog': {
    get: {
      operationId: 'listModerationLog',
      summary: 'The moderation log (admin)',
      description: 'Every admin action, newest first, appended in the action\'s own transaction and never edited. `action`: `shadow_ban_on`, '
        + '`shadow_ban_off`, `upload_removed`, `tag_added`, `report_claimed`, `report_resolved` (note: the resolution, then the admin\'s note), '
        + '`admin_granted`, `admin_revoked` (command line: `actor` null), `admin_account_deleted` (an admin deleted their own account), `upload_edited` (an admin edited someone else\'s upload; note: the reason), '
        + '`upload_reverted`, `upload_locked`, `upload_unlocked`, `media_banned`, `media_unbanned` (target: the removed upload), `comment_removed` (an admin deleted someone else\'s comment), '
        + '`tag_alias_added`, `tag_alias_removed`, `tag_implication_added`, `tag_implication_removed` (target: the tag; note: `from → to`, or `tag → implied`). `actor` '
        + 'keeps the username the admin had when the entry was written; its `id` is null once that account is deleted. `targetLabel` is the '
        + 'target as it was then (a username, the first 80 characters of a description or a comment, a report\'s reason, a tag\'s name), `targetExists` whether it is still '
        + 'there. limit default 50, max 100.',
      tags: ['Admin'],
      security: ['cookie'],
      params: { query: ModlogQuerySchema },
      responses: {
        200: { description: 'A page of log entries', schema: ModlogResponseSchema },
        400: { description: '`Invalid page`, `Invalid limit`' },
        401: { description: 'Not authenticated' },
        403: { description: 'Not an admin' },
      },
    },
  },
})
