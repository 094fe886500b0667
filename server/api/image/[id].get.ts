import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { sendStream, setResponseHeaders } from 'h3'
import { ImageQuerySchema, UploadIdParamsSchema } from '#shared/schemas/uploads'
import { imageFileOf } from '../../services/uploads'

/** GET /api/image/{id}[?size=thumb]: the stored image (or its WebP thumbnail), streamed from disk, cached one year. */
export default defineEventHandler(async (event) => {
  const { id } = paramsValidated(event, UploadIdParamsSchema)
  const { size } = queryValidated(event, ImageQuerySchema)
  const image = await imageFileOf(useDB(), id, mediaOptions().mediaDir, size ?? 'full')
  const info = await stat(image.path).catch(() => null)
  if (!info) throw notFound('Image not found')
  setResponseHeaders(event, {
    'Cache-Control': CACHE_POLICIES.image,
    'Content-Type': image.contentType,
    'X-Content-Type-Options': 'nosniff',
  })
  if (isNotModified(event, image.etag)) return null
  setResponseHeaders(event, { 'Content-Length': info.size })
  return sendStream(event, createReadStream(image.path))
})
