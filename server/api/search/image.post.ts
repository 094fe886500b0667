import { getRequestHeader } from 'h3'
import { ImageSearchUrlSchema } from '#shared/schemas/removal'
import { MAX_IMAGE_BYTES } from '#shared/utils/upload-limits'
import { searchByImage } from '../../services/image-search'

/** POST /api/search/image: uploads that look like the image sent (multipart `file`, or JSON `{ imageUrl }`); nothing is stored. */
export default defineEventHandler(async (event) => {
  const actor = await getOptionalUser(event)
  const options = mediaOptions()
  let source: Parameters<typeof searchByImage>[2]
  if (/^multipart\/form-data/i.test(getRequestHeader(event, 'content-type') ?? '')) {
    const form = await readMultipart(event, { maxFileBytes: MAX_IMAGE_BYTES, tmpDir: options.tmpDir, fields: [] })
    if (!form.file) throw badRequest('File is required')
    source = { file: form.file }
  }
  else {
    // Neither a form nor JSON: 415, as every JSON endpoint answers (server/middleware/03.api-method.ts).
    if (!isJsonOrEmpty(event)) throw apiError(415, 'Content-Type must be multipart/form-data or application/json')
    source = await readValidated(event, ImageSearchUrlSchema)
  }
  return searchByImage(useDB(), actor, source, options)
})
