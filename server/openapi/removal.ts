import * as v from 'valibot'
import { SuccessSchema } from '#shared/schemas/common'
import { BannedMediaQuerySchema, BannedMediaResponseSchema, ImageSearchResponseSchema, ImageSearchUrlSchema } from '#shared/schemas/removal'
import { defineApiPaths } from '../utils/openapi'

const IdPath = v.object({ id: v.pipe(v.string(), v.uuid(), v.description('Ban id')) })
const admin = { 401: { description: 'Not authenticated' }, 403: { description: 'Not an admin' } }

/** The image sent to search with; no `type: string`, as for uploads (generators would type it as text). */
const ImageSearchFormSchema = v.object({
  file: v.pipe(
    v.unknown(),
    v.metadata({ format: 'binary', contentMediaType: 'application/octet-stream' }),
    v.description('The image: JPEG, PNG, GIF or WebP, at most 10 MB and 50 megapixels (the type is read from the bytes)'),
  ),
})

export default defineApiPaths({
  '/api/admin/banned-media': {
    get: {
      operationId: 'listBannedMedia',
      summary: 'Banned images (admin)',
      description: 'Images an admin removed and banned (the default of an admin\'s removal: DELETE /api/upload/{id} or a report resolved '
        + 'with `remove_upload`, unless `ban: false`), newest first. An upload matching one (its SHA-256, or its perceptual hash within the '
        + 'duplicate distance) is refused with 451 for anyone. `createdBy` is null once that admin\'s account is deleted. limit default 20, max 100.',
      tags: ['Admin'],
      security: ['cookie'],
      params: { query: BannedMediaQuerySchema },
      responses: {
        200: { description: 'A page of bans', schema: BannedMediaResponseSchema },
        400: { description: '`Invalid page`, `Invalid limit`' },
        ...admin,
      },
    },
  },
  '/api/admin/banned-media/{id}': {
    delete: {
      operationId: 'liftBan',
      summary: 'Lift a ban (admin)',
      description: 'The image may be uploaded again, on every instance at once. Logged as `media_unbanned` (target: the removed upload).',
      tags: ['Admin'],
      security: ['cookie'],
      params: { path: IdPath },
      responses: {
        200: { description: 'Lifted', schema: SuccessSchema },
        400: { description: '`Invalid ID`' },
        ...admin,
        404: { description: '`Ban not found`' },
      },
    },
  },
  '/api/search/image': {
    post: {
      operationId: 'searchByImage',
      summary: 'Find uploads that look like an image',
      description: 'The image as a multipart `file`, or JSON `{ imageUrl }` fetched as for an upload (http/https, 10 s, 10 MB, 3 redirects, '
        + 'public addresses only). Nothing is stored. Public uploads, and the signed-in caller\'s own, whose picture is within the duplicate '
        + 'distance (Hamming distance of the perceptual hashes at most 6), nearest first, at most 20; an exact copy has distance 0. '
        + 'Counts in GENERAL.',
      tags: ['Lists'],
      security: ['cookie', 'none'],
      body: { json: ImageSearchUrlSchema, multipart: ImageSearchFormSchema, encoding: { file: { contentType: 'image/jpeg, image/png, image/gif, image/webp' } } },
      responses: {
        200: { description: 'The matches', schema: ImageSearchResponseSchema },
        400: { description: '`File is required`, `Invalid image URL`, `Unsupported image type`, `Invalid image`, `Image dimensions too large`, `Could not fetch image`, `Invalid JSON body`' },
        413: { description: 'File over 10 MB' },
        415: { description: 'A body that is neither multipart/form-data nor application/json' },
        429: { description: 'Rate limited (GENERAL)', headers: { 'Retry-After': 'Seconds until the window resets' } },
        503: { description: 'Image processing is busy (its queue is full): try again later', headers: { 'Retry-After': 'Seconds after which to try again' } },
      },
    },
  },
})
