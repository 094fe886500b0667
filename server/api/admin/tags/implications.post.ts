import { setResponseStatus } from 'h3'
import { AddImplicationSchema } from '#shared/schemas/tags'
import { addTagImplication } from '../../../services/tag-rules'

/** POST /api/admin/tags/implications: uploads carrying `tag` also carry `implies`, now and later, within the cap (logged). */
export default defineEventHandler(async (event) => {
  const actor = await requireAdmin(event)
  const input = await readValidated(event, AddImplicationSchema)
  const created = await addTagImplication(useDB(), actor, input)
  setResponseStatus(event, 201)
  return created
})
