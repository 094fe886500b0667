import { IdParamsSchema } from '#shared/schemas/common'
import { AddTagsSchema } from '#shared/schemas/tags'
import { addUploadTags } from '../../../services/upload-edits'

/** POST /api/uploads/{id}/tags: the owner (unless locked) or an admin adds tags, as one revision (existing ones skipped). */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const { id } = paramsValidated(event, IdParamsSchema)
  const { tags } = await readValidated(event, AddTagsSchema)
  return addUploadTags(useDB(), actor, id, tags)
})
