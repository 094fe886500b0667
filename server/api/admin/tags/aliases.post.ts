import { setResponseStatus } from 'h3'
import { AddAliasSchema } from '#shared/schemas/tags'
import { addTagAlias } from '../../../services/tag-rules'

/** POST /api/admin/tags/aliases: `from` resolves to the tag `to` from now on; its links move there (logged). */
export default defineEventHandler(async (event) => {
  const actor = await requireAdmin(event)
  const input = await readValidated(event, AddAliasSchema)
  const created = await addTagAlias(useDB(), actor, input)
  setResponseStatus(event, 201)
  return created
})
