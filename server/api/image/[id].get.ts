import { sendStream, setResponseHeaders } from 'h3'
import { ImageQuerySchema, UploadIdParamsSchema } from '#shared/schemas/uploads'
import { imageFileOf, openImageFile } from '../../services/uploads'

/**
 * GET /api/image/{id}[?size=small|thumb|medium|display]: the stored image or
 * one of its WebP derivatives (made on first request), streamed from the
 * media store (disk or bucket, the same answer), cached one year. A matching
 * If-None-Match is answered without reading or making the file, and after the
 * first request without a query either.
 */
export default defineEventHandler(async (event) => {
  const { id } = paramsValidated(event, UploadIdParamsSchema)
  const { size } = queryValidated(event, ImageQuerySchema)
  const store = mediaStore()
  const image = await imageFileOf(useDB(), id, store, size ?? 'full')
  setResponseHeaders(event, {
    'Cache-Control': CACHE_POLICIES.image,
    'Content-Type': image.contentType,
    'X-Content-Type-Options': 'nosniff',
  })
  if (isNotModified(event, image.etag)) return null
  const stored = await openImageFile(store, image)
  if (!stored) throw notFound('Image not found')
  // A client that goes away mid-image releases the file or the bucket's connection.
  event.node.res.once('close', () => stored.body.destroy())
  setResponseHeaders(event, { 'Content-Length': stored.size })
  return sendStream(event, stored.body)
})
