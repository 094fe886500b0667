import { IdParamsSchema } from '#shared/schemas/common'
import { AddTagsResponseSchema, AddTagsSchema, TagListSchema, TagSearchQuerySchema, TagSearchResponseSchema } from '#shared/schemas/tags'

export default defineApiPaths({
  '/api/uploads/{id}/tags': {
    get: {
      operationId: 'listUploadTags',
      summary: 'Tags of an upload',
      description: 'A private upload answers only its owner or an admin (by the cookie); others get 404.',
      tags: ['Tags'],
      security: ['none', 'cookie'],
      params: { path: IdParamsSchema },
      responses: {
        200: { description: 'The tags', schema: TagListSchema },
        400: { description: 'Malformed id' },
        404: { description: 'Upload not found' },
      },
    },
    post: {
      operationId: 'addUploadTags',
      summary: 'Add tags to an upload (owner or admin)',
      description: 'Tags already on the upload are skipped and not counted in `added`. At most 10 tags per upload. '
        + 'A name is 2–50 letters, digits, spaces or hyphens after trimming; case is kept, the slug is lowercased. '
        + 'One tag row per slug is shared by every upload.',
      tags: ['Tags'],
      security: ['cookie'],
      params: { path: IdParamsSchema },
      body: { json: AddTagsSchema },
      responses: {
        200: { description: 'The full, updated tag list', schema: AddTagsResponseSchema },
        400: { description: 'tags missing, empty or not an array; invalid name; more than 10 tags' },
        401: { description: 'Not authenticated' },
        403: { description: 'Caller is neither the owner nor an admin' },
        404: { description: 'Upload not found' },
      },
    },
  },
  '/api/tags': {
    get: {
      operationId: 'searchTags',
      summary: 'Tag discovery',
      description: 'Tags used on public uploads whose slug starts with `q`, most used first; `count` counts public uploads.',
      tags: ['Tags'],
      params: { query: TagSearchQuerySchema },
      responses: {
        200: { description: 'Matching tags', schema: TagSearchResponseSchema },
        400: { description: 'Invalid limit or query' },
      },
    },
  },
})
