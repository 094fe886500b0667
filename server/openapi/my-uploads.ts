import { MyUploadsQuerySchema, MyUploadsResponseSchema } from '#shared/schemas/lists'
import { defineApiPaths } from '../utils/openapi'

export default defineApiPaths({
  '/api/profile/uploads': {
    get: {
      operationId: 'listMyUploads',
      summary: 'The caller\'s own uploads, private ones included',
      description: 'Entries as in the per-user list, with `is_private` 1 for a private upload. sort: date (newest first), votes (upvotes, then newest), name (original name, case-insensitive). limit default 12, max 50. page and limit must be positive integers (400 `Invalid page` / `Invalid limit`); a larger limit is clamped to the maximum; a page past the end is empty. rating=safe|suggestive|explicit (repeated or comma-separated): only those content ratings. Cache-Control: private, no-store.',
      tags: ['Lists'],
      security: ['cookie'],
      params: { query: MyUploadsQuerySchema },
      responses: {
        200: { description: 'A page of the caller\'s uploads and their total', schema: MyUploadsResponseSchema, headers: { 'Cache-Control': 'private, no-store' } },
        304: { description: 'Not modified' },
        400: { description: 'Invalid page, limit, sort or rating' },
        401: { description: 'Not signed in, or the token is invalid, expired or revoked' },
      },
    },
  },
})
