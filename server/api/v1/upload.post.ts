import { setResponseStatus } from 'h3'
import { ApiUploadFieldsSchema, UPLOAD_FORM_FIELDS } from '#shared/schemas/uploads'
import { MAX_IMAGE_BYTES } from '#shared/utils/upload-limits'
import { createUpload } from '../../services/uploads'

/** POST /api/v1/upload (API token): an image file or a link; `image_url` is refused with 400. */
export default defineEventHandler(async (event) => {
  const actor = await limitUploader(event, requireApiToken)
  const options = mediaOptions()
  const form = await readMultipart(event, { maxFileBytes: MAX_IMAGE_BYTES, tmpDir: options.tmpDir, fields: UPLOAD_FORM_FIELDS })
  const input = parseWith(ApiUploadFieldsSchema, form.fields)
  // A retry with the same Idempotency-Key gets the first answer (docs/behaviour.md, Sending again).
  const sent = { ...input, file: form.file?.received.sha256 ?? null }
  const created = await answerOnce(event, actor.id, sent, keep => createUpload(useDB(), actor, input, form.file, options, keep))
  setResponseStatus(event, 201)
  return created
})
