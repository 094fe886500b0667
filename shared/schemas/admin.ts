import * as v from 'valibot'
import { limitSchema, PageSchema } from './lists'

/** GET /api/admin/users */
export const AdminUsersQuerySchema = v.object({
  page: PageSchema,
  limit: limitSchema(20, 100),
  q: v.optional(v.pipe(v.string('Invalid query'), v.trim(), v.maxLength(254, 'Invalid query')), ''),
})

/** POST /api/admin/users/{id}/shadow-ban */
export const ShadowBanSchema = v.object({
  shadowBanned: v.boolean('shadowBanned must be a boolean'),
}, 'shadowBanned must be a boolean')

export const AdminUserSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  username: v.string(),
  email: v.nullable(v.string()),
  isAdmin: v.boolean(),
  shadowBanned: v.boolean(),
  createdAt: v.string(),
})

export const AdminUsersResponseSchema = v.object({
  users: v.array(AdminUserSchema),
  total: v.pipe(v.number(), v.integer()),
  page: v.pipe(v.number(), v.integer()),
  limit: v.pipe(v.number(), v.integer()),
})

export const ShadowBanResponseSchema = v.object({
  success: v.literal(true),
  user: v.object({ id: v.pipe(v.string(), v.uuid()), username: v.string(), shadowBanned: v.boolean() }),
})
