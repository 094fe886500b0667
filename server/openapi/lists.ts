import {
  FeatureListQuerySchema, FeatureListResponseSchema, FilteredListQuerySchema, FilteredListResponseSchema, SearchQuerySchema, SearchSuggestQuerySchema, SearchSuggestResponseSchema, UploadListQuerySchema,
  UploadListResponseSchema, UserListQuerySchema, UserListResponseSchema, UsernameParamsSchema,
} from '#shared/schemas/lists'
import { defineApiPaths } from '../utils/openapi'

const paging = 'page and limit must be positive integers (400 `Invalid page` / `Invalid limit`); a larger limit is clamped to the maximum; a page past the end is empty.'
const ranking = 'sort: new (default), top (upvotes, then total votes), hot (sign(u−d)·log10(max(|u−d|,1)) + (created_at in Unix seconds − 1700000000)/45000), best (Wilson lower bound of u/(u+d) at z = 1.96), divisive ((u+d)^(min(u,d)/max(u,d)), 0 when either is 0), favourites (how many accounts have it as a favourite); ties newest first; other values 400 `Invalid sort`. period (top, best, divisive, favourites): day, week, month (30 days), year or all (default); other values 400 `Invalid period`. unvoted=true (session cookie; 401 `Authentication required` without): only uploads the caller has not voted on.'
const personal = 'rating=safe|suggestive|explicit (repeated or comma-separated; other values 400 `Invalid rating`): only those content ratings. With a session cookie the caller\'s hidden tags (PUT /api/profile/filters) and the ratings they hide (PUT /api/profile/preferences) are left out and every entry carries `favourited` (whether the caller has it as a favourite), and such an answer (and any unvoted=true answer) is `Cache-Control: private, no-store`.'
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
        400: { description: 'Invalid page, limit, sort, period, unvoted or rating' },
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
        400: { description: 'Invalid page, limit, match, sort, period, unvoted or rating' },
        401: { description: 'unvoted=true without a session' },
      },
    },
  },
  '/api/search': {
    get: {
      operationId: 'searchUploads',
      summary: 'Public uploads matching a search query',
      description: `q: terms separated by spaces or commas are ANDed; OR or || between terms; -term or NOT term; parentheses (nesting at most 5). A bare word is a tag slug (a tag no upload carries: nothing in an AND, left out of an OR). "a phrase" and text:word (text:wor* a prefix) match whole words of the description, case- and diacritic-insensitive. Fields with :, :>, :>=, :<, :<= or :a..b: fucks, nope, votes, score (fucks − nope), ratio (0–1; an upload without votes has none), tags (tag count), age (12h, 7d, 2w, 3m, 1y), date (2026, 2026-01, 2026-01-15, UTC), user:name, type:image|link, rating:safe|suggestive|explicit, is:voted|unvoted|mine (session cookie; 401 \`Authentication required\` without). At most 500 characters, 30 terms, 5 full-text terms. A missing or blank q: every public upload. Private uploads never match. A syntax error is 400 \`Invalid query\` with data { position (0-based, in characters), expected }; past the limits, or when matching would take longer than the server's search budget (NUXT_SEARCH_BUDGET_MS, 200 ms by default; one tag is always answered), 400 \`Query too complex\` with the same data (the budget's: position 0, expected "a narrower query"). The answer is as /api/uploads/filtered's. limit default 10, max 100. ${paging} ${ranking.replace(/ unvoted=true.*$/, '')} ${personal} An is: answer is also private.`,
      tags: ['Lists'],
      security: ['none', 'cookie'],
      params: { query: SearchQuerySchema },
      responses: {
        200: { description: 'A page of uploads and the total', schema: FilteredListResponseSchema, headers: cached('public, max-age=120') },
        304: { description: 'Not modified' },
        400: { description: '`Invalid query` or `Query too complex` (with data { position, expected }), or invalid page, limit, sort, period or rating' },
        401: { description: 'is: without a session' },
      },
    },
  },
  '/api/search/suggest': {
    get: {
      operationId: 'suggestSearchTerms',
      summary: 'Completions of the last term of a search query',
      description: 'The last term of q (after the last space, comma or parenthesis, without a leading -): the 10 tags most used on public uploads whose slug starts with it, with their public upload counts, and the field names that start with it. A term naming a field already (votes:), a phrase, or nothing: both lists empty.',
      tags: ['Lists'],
      security: ['none', 'cookie'],
      params: { query: SearchSuggestQuerySchema },
      responses: {
        200: { description: 'Tags and field names', schema: SearchSuggestResponseSchema },
        400: { description: '`Query too complex` (q over 500 characters) or `Invalid query`' },
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
        400: { description: 'Invalid page, limit, sort or rating' },
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
      params: { query: FeatureListQuerySchema },
      responses: {
        200: { description: 'Exactly 6 items (fewer only when fewer exist)', schema: FeatureListResponseSchema('recent'), headers: cached('public, max-age=300') },
        304: { description: 'Not modified' },
        400: { description: 'Invalid rating' },
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
      params: { query: FeatureListQuerySchema },
      responses: {
        200: { description: 'Exactly 6 items (fewer only when fewer exist)', schema: FeatureListResponseSchema('top-voted'), headers: cached('public, max-age=300') },
        304: { description: 'Not modified' },
        400: { description: 'Invalid rating' },
      },
    },
  },
})
