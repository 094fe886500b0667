import { ImplicationParamsSchema } from '#shared/schemas/tags'
import { removeTagImplication } from '../../../../../services/tag-rules'

/** DELETE /api/admin/tags/implications/{tag}/{implies}: later tagging no longer adds it (logged). */
export default defineEventHandler(async (event) => {
  const actor = await requireAdmin(event)
  const input = paramsValidated(event, ImplicationParamsSchema)
  return removeTagImplication(useDB(), actor, input)
})
