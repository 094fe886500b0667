import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { sendStream, setResponseHeaders } from 'h3'
import { ImageQuerySchema, UploadIdParamsSchema } from '#shared/schemas/uploads'
import { imageFileOf } from '../../services/uploads'

/**
 * GET /api/image/{id}[?size=thumb|display]: the stored image, its WebP
 * thumbnail, or its display-size WebP (made on first request), streamed from
 * disk, cached one year. A matching If-None-Match is answered without reading
 * or making the file.
 */
export default defineEventHandler(async (event) => {
  const { id } = paramsValidated(event, UploadIdParamsSchema)
  const { size } = queryValidated(event, ImageQuerySchema)
  const image = await imageFileOf(useDB(), id, mediaOptions().mediaDir, size ?? 'full')
  setResponseHeaders(event, {
    'Cache-Control': CACHE_POLICIES.image,
    'Content-Type': image.contentType,
    'X-Content-Type-Options': 'nosniff',
  })
  if (isNotModified(event, image.etag)) return null
  let info = await stat(image.path).catch(() => null)
  if (!info && image.remake) {
    // Queue full: its 503 goes out. Original unreadable: 404 below.
    await image.remake().catch((error: unknown) => {
      if (typeof (error as { statusCode?: unknown })?.statusCode === 'number') throw error
    })
    info = await stat(image.path).catch(() => null)
  }
  if (!info) throw notFound('Image not found')
  setResponseHeaders(event, { 'Content-Length': info.size })
  return sendStream(event, createReadStream(image.path))
})
