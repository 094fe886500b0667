import * as v from 'valibot'
import { limitSchema, PageSchema } from './lists'

export const MAX_MODERATION_NOTE = 1000

/** An account as the moderation views name it. */
export const AccountRefSchema = v.object({ id: v.pipe(v.string(), v.uuid()), username: v.string() })

export const MODERATION_ACTIONS = ['shadow_ban_on', 'shadow_ban_off', 'upload_removed', 'tag_added', 'report_claimed', 'report_resolved', 'admin_granted', 'admin_revoked', 'admin_account_deleted', 'upload_edited', 'upload_reverted', 'upload_locked', 'upload_unlocked', 'media_banned', 'media_unbanned', 'comment_removed', 'tag_alias_added', 'tag_alias_removed', 'tag_implication_added', 'tag_implication_removed'] as const
export type ModerationAction = (typeof MODERATION_ACTIONS)[number]
export const MODERATION_TARGETS = ['user', 'upload', 'report', 'comment', 'tag'] as const
export type ModerationTarget = (typeof MODERATION_TARGETS)[number]

/** GET /api/admin/modlog */
export const ModlogQuerySchema = v.object({
  page: PageSchema,
  limit: limitSchema(50, 100),
})

export const ModlogEntrySchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  /** The acting admin, named as when the entry was written; `id` null once the account is deleted; null for the command line. */
  actor: v.nullable(v.object({ id: v.nullable(v.pipe(v.string(), v.uuid())), username: v.string() })),
  action: v.picklist(MODERATION_ACTIONS),
  targetType: v.picklist(MODERATION_TARGETS),
  targetId: v.string(),
  /** The target's username, description (first 80 characters) or reason when the entry was written; null when it was already gone. */
  targetLabel: v.nullable(v.string()),
  /** Whether the target is still there (a page to link to for users and uploads). */
  targetExists: v.boolean(),
  note: v.nullable(v.string()),
  createdAt: v.string(),
})

export const ModlogResponseSchema = v.object({
  entries: v.array(ModlogEntrySchema),
  total: v.pipe(v.number(), v.integer()),
  page: v.pipe(v.number(), v.integer()),
  limit: v.pipe(v.number(), v.integer()),
})
