import { setResponseStatus } from 'h3'
import { UPLOAD_FORM_FIELDS, UploadFieldsSchema } from '#shared/schemas/uploads'
import { MAX_IMAGE_BYTES } from '#shared/utils/upload-limits'
import { createUpload } from '../../services/uploads'

/** POST /api/upload (cookie): an image file, an image fetched from a URL, or a link. 201 with the creation subset. */
export default defineEventHandler(async (event) => {
  const actor = await limitUploader(event, requireUser)
  const options = mediaOptions()
  const form = await readMultipart(event, { maxFileBytes: MAX_IMAGE_BYTES, tmpDir: options.tmpDir, fields: UPLOAD_FORM_FIELDS })
  const input = parseWith(UploadFieldsSchema, form.fields)
  // A retry with the same Idempotency-Key gets the first answer (docs/behaviour.md, Sending again).
  const sent = { ...input, file: form.file?.received.sha256 ?? null }
  const created = await answerOnce(event, actor.id, sent, keep => createUpload(useDB(), actor, input, form.file, options, keep))
  setResponseStatus(event, 201)
  return created
})
