import { FavouriteResponseSchema, FavouritesListResponseSchema, FavouritesQuerySchema, PreferencesResponseSchema, PreferencesSchema } from '#shared/schemas/favourites'
import { UsernameParamsSchema } from '#shared/schemas/lists'
import { UploadIdParamsSchema } from '#shared/schemas/uploads'
import { defineApiPaths } from '../utils/openapi'

const tags = ['Favourites']
const limited = { description: 'Rate limited (the VOTE category)', headers: { 'Retry-After': 'Seconds until the window resets' } }
const paging = 'page and limit must be positive integers (400 `Invalid page` / `Invalid limit`); limit default 12, max 50 (a larger one is clamped); a page past the end is empty. Newest favourite first.'
const marked = 'With a session cookie every entry carries `favourited` (the caller\'s), and the answer is `Cache-Control: private, no-store`.'

const favourite = (on: boolean) => ({
  operationId: on ? 'addFavourite' : 'removeFavourite',
  summary: on ? 'Add an upload to the caller\'s favourites' : 'Remove an upload from the caller\'s favourites',
  description: `${on ? 'Already a favourite: nothing changes' : 'Not a favourite: nothing changes'}; the answer is the same. \`favourites\` counts the accounts that have it as a favourite.${on ? '' : ' A favourite the caller has on an upload made private since (no longer visible to them) can still be removed.'} Counts in the VOTE rate-limit category.`,
  tags,
  security: ['cookie' as const],
  params: { path: UploadIdParamsSchema },
  responses: {
    200: { description: 'Whether the caller has it as a favourite now, and the count', schema: FavouriteResponseSchema },
    401: { description: 'Not authenticated' },
    404: { description: on ? '`Upload not found` (unknown, or private and not the caller\'s)' : '`Upload not found` (unknown, or private and not the caller\'s while the caller has no favourite on it)' },
    429: limited,
  },
})

export default defineApiPaths({
  '/api/upload/{id}/favourite': {
    put: favourite(true),
    delete: favourite(false),
  },
  '/api/profile/favourites': {
    get: {
      operationId: 'listMyFavourites',
      summary: 'The caller\'s favourites',
      description: `Uploads the caller can still see (their own private ones included). ${paging} Cache-Control: private, no-store.`,
      tags,
      security: ['cookie'],
      params: { query: FavouritesQuerySchema },
      responses: {
        200: { description: 'A page of favourites and the total', schema: FavouritesListResponseSchema },
        400: { description: 'Invalid page, limit or rating' },
        401: { description: 'Not authenticated' },
      },
    },
  },
  '/api/user/{username}/favourites': {
    get: {
      operationId: 'listUserFavourites',
      summary: 'A user\'s favourites',
      description: `Only public uploads. 404 \`Favourites are private\` when the user turned the list off (PUT /api/profile/preferences). ${paging} ${marked}`,
      tags,
      security: ['none', 'cookie'],
      params: { path: UsernameParamsSchema, query: FavouritesQuerySchema },
      responses: {
        200: { description: 'A page of favourites and the total', schema: FavouritesListResponseSchema },
        304: { description: 'Not modified' },
        400: { description: 'Invalid page, limit or rating' },
        404: { description: '`User not found` or `Favourites are private`' },
      },
    },
  },
  '/api/profile/preferences': {
    get: {
      operationId: 'getPreferences',
      summary: 'The caller\'s preferences',
      description: 'publicFavourites, and what the caller\'s lists and pages do with explicit (default blur) and suggestive (default show) uploads. Visitors without an account get the defaults and keep their own choice in the browser.',
      tags: ['Accounts'],
      security: ['cookie'],
      responses: {
        200: { description: 'Every preference', schema: PreferencesResponseSchema },
        401: { description: 'Not authenticated' },
      },
    },
    put: {
      operationId: 'setPreferences',
      summary: 'Set the caller\'s preferences',
      description: 'publicFavourites: whether others may list the caller\'s favourites (on by default). explicit, suggestive: show, blur or hide (left out of the caller\'s lists, which then answer `Cache-Control: private`). A field left out stays as it is.',
      tags: ['Accounts'],
      security: ['cookie'],
      body: { json: PreferencesSchema },
      responses: {
        200: { description: 'Every preference as now stored', schema: PreferencesResponseSchema },
        400: { description: '`Invalid publicFavourites`, `Invalid explicit`, `Invalid suggestive` or `Invalid preferences` (not an object)' },
        401: { description: 'Not authenticated' },
      },
    },
  },
})
