import { ProfileFiltersResponseSchema, ProfileFiltersSchema } from '#shared/schemas/filters'
import { defineApiPaths } from '../utils/openapi'

const tags = ['Accounts']
const unauthenticated = { 401: { description: 'Not authenticated' } }

export default defineApiPaths({
  '/api/profile/filters': {
    get: {
      operationId: 'getProfileFilters',
      summary: 'The caller\'s hidden tags',
      description: 'Uploads carrying any of these tags are left out of every list, the recent and top lists and GET /api/vote/next for this account (feeds excepted). Cache-Control: private, no-store.',
      tags,
      security: ['cookie'],
      responses: { 200: { description: 'The hidden tags, in slug order', schema: ProfileFiltersResponseSchema }, ...unauthenticated },
    },
    put: {
      operationId: 'setProfileFilters',
      summary: 'Replace the caller\'s hidden tags',
      description: 'At most 100 tag slugs (lowercase, as tags carry them); a slug need not name an existing tag. Duplicates count once.',
      tags,
      security: ['cookie'],
      body: { json: ProfileFiltersSchema },
      responses: {
        200: { description: 'The hidden tags now stored, in slug order', schema: ProfileFiltersResponseSchema },
        400: { description: '`Invalid hidden tags` (not an array of valid slugs) or `At most 100 hidden tags`' },
        ...unauthenticated,
      },
    },
  },
})
