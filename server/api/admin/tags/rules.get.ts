import { listTagRules } from '../../../services/tag-rules'

/** GET /api/admin/tags/rules: every alias and implication. */
export default defineEventHandler(async (event) => {
  await requireAdmin(event)
  return listTagRules(useDB())
})
