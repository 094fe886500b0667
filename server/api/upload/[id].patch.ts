import { getRequestHeader } from 'h3'
import { EditUploadSchema } from '#shared/schemas/upload-edits'
import { UploadIdParamsSchema } from '#shared/schemas/uploads'
import { editUpload } from '../../services/upload-edits'

/** PATCH /api/upload/{id}: the owner (unless locked) or an admin changes the description, tags or link as one revision; If-Match optional. */
export default defineEventHandler(async (event) => {
  const { caller, input: { id, edit } } = await requireCaller(event, async () => ({
    id: paramsValidated(event, UploadIdParamsSchema).id,
    edit: await readValidated(event, EditUploadSchema),
  }))
  return editUpload(useDB(), caller, id, edit, getRequestHeader(event, 'if-match'))
})
