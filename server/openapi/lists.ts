import {
  FeatureListResponseSchema, FilteredListQuerySchema, FilteredListResponseSchema, UploadListQuerySchema,
  UploadListResponseSchema, UserListQuerySchema, UserListResponseSchema, UsernameParamsSchema,
} from '#shared/schemas/lists'

const paging = 'page and limit must be positive integers (400 `Invalid page` / `Invalid limit`); a larger limit is clamped to the maximum; a page past the end is empty.'
const ranking = 'sort: new (default), top (upvotes, then total votes), hot (sign(u−d)·log10(max(|u−d|,1)) + (created_at in Unix seconds − 1700000000)/45000), best (Wilson lower bound of u/(u+d) at z = 1.96), divisive ((u+d)^(min(u,d)/max(u,d)), 0 when either is 0), favourites (how many accounts have it as a favourite); ties newest first; other values 400 `Invalid sort`. period (top, best, divisive, favourites): day, week, month (30 days), year or all (default); other values 400 `Invalid period`. unvoted=true (session cookie; 401 `Authentication required` without): only uploads the caller has not voted on.'
const personal = 'With a session cookie the caller\'s hidden tags (PUT /api/profile/filters) are left out and every entry carries `favourited` (whether the caller has it as a favourite), and such an answer (and any unvoted=true answer) is `Cache-Control: private, no-store`.'
const cached = (value: string) => ({ 'Cache-Control': value, 'ETag': 'Strong validator; send it as If-None-Match for a 304' })

export default defineApiPaths({
  '/api/uploads': {
    get: {
      operationId: 'listUploads',
      summary: 'Public uploads, newest first',
      description: `limit default 10, max 100. ${paging} ${ranking} ${personal}`,
      tags: ['Lists'],
      security: ['none', 'cookie'],
      params: { query: UploadListQuerySchema },
      responses: {
        200: { description: 'A page of uploads', schema: UploadListResponseSchema, headers: cached('public, max-age=120') },
        304: { description: 'Not modified' },
        400: { description: 'Invalid page, limit, sort, period or unvoted' },
        401: { description: 'unvoted=true without a session' },
      },
    },
  },
  '/api/uploads/filtered': {
    get: {
      operationId: 'listFilteredUploads',
      summary: 'Public uploads carrying the given tags, newest first',
      description: `tags: comma-separated names, compared by slug; an upload must carry all of them (match=any: any). No tags: every public upload. limit default 10, max 100. ${paging} ${ranking} ${personal}`,
      tags: ['Lists'],
      security: ['none', 'cookie'],
      params: { query: FilteredListQuerySchema },
      responses: {
        200: { description: 'A page of uploads and the total', schema: FilteredListResponseSchema, headers: cached('public, max-age=120') },
        304: { description: 'Not modified' },
        400: { description: 'Invalid page, limit, match, sort, period or unvoted' },
        401: { description: 'unvoted=true without a session' },
      },
    },
  },
  '/api/user/{username}/uploads': {
    get: {
      operationId: 'listUserUploads',
      security: ['none', 'cookie'],
      summary: 'A user\'s public uploads',
      description: `Private uploads are never listed, even for their owner. sort: date (newest first), votes (upvotes, then newest), name (original name, case-insensitive), favourites (most favourited, then newest). tags: slugs, all must match. limit default 12, max 50. ${paging} ${personal}`,
      tags: ['Lists'],
      params: { path: UsernameParamsSchema, query: UserListQuerySchema },
      responses: {
        200: { description: 'The user and a page of uploads', schema: UserListResponseSchema },
        304: { description: 'Not modified' },
        400: { description: 'Invalid page, limit or sort' },
        404: { description: 'User not found' },
      },
    },
  },
  '/api/items-recent': {
    get: {
      operationId: 'listRecentUploads',
      security: ['none', 'cookie'],
      summary: 'The 6 newest public uploads',
      description: personal,
      tags: ['Lists'],
      responses: {
        200: { description: 'Exactly 6 items (fewer only when fewer exist)', schema: FeatureListResponseSchema('recent'), headers: cached('public, max-age=300') },
        304: { description: 'Not modified' },
      },
    },
  },
  '/api/items-top-voted': {
    get: {
      operationId: 'listTopVotedUploads',
      security: ['none', 'cookie'],
      summary: 'The 6 top-voted public uploads',
      description: `Ordered by upvotes, then total votes, then newest. ${personal}`,
      tags: ['Lists'],
      responses: {
        200: { description: 'Exactly 6 items (fewer only when fewer exist)', schema: FeatureListResponseSchema('top-voted'), headers: cached('public, max-age=300') },
        304: { description: 'Not modified' },
      },
    },
  },
})
