import * as v from 'valibot'
import { defineApiPaths, type ApiOperation } from '../utils/openapi'
import { FeedRatingFilterSchema, UsernameParamsSchema } from '#shared/schemas/lists'

const TagSlugParamsSchema = v.object({ slug: v.string() })
const UploadFeedParamsSchema = v.object({ id: v.string() })
const RatingQuerySchema = v.object({ rating: FeedRatingFilterSchema })
const SearchFeedQuerySchema = v.object({ q: v.optional(v.pipe(v.string(), v.description('A query of GET /api/search (without is:); missing or blank: every public upload'))), rating: FeedRatingFilterSchema })
const AtomSchema = v.pipe(v.string(), v.description('Atom XML (RFC 4287)'))
const JsonFeedSchema = v.pipe(v.looseObject({
  version: v.literal('https://jsonfeed.org/version/1.1'),
  title: v.string(),
  home_page_url: v.string(),
  feed_url: v.string(),
  items: v.array(v.looseObject({ id: v.string(), url: v.string(), title: v.string(), date_published: v.string() })),
}), v.description('JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/)'))

const feedHeaders = { 'Cache-Control': 'public, max-age=300', 'ETag': 'Strong validator; send it as If-None-Match for a 304' }
const description = 'The 50 newest public uploads (top: the 50 top-voted, by upvotes, then total votes, then newest), each with its description as title, a link to /upload/{id}, the uploader as author, published/updated, its tags as categories, its content rating as a category (Atom: scheme {site}/ratings; JSON Feed: the tag `rating:<rating>`) and, for images not rated explicit, the thumbnail (Atom: media:thumbnail; JSON Feed: image); an explicit upload\'s thumbnail is never embedded. rating=safe|suggestive|explicit (repeated or comma-separated): only those ratings (400 `Invalid rating` otherwise). Feeds are not rate-limited and leave no upload out for a signed-in caller.'

/** Atom (RFC 4287) and JSON Feed 1.1 documents of one list. */
function feed(operationId: string, summary: string, format: 'atom' | 'json', missing?: string, refusals: ApiOperation['responses'] = {}): { get: ApiOperation } {
  const notFound: ApiOperation['responses'] = missing ? { 404: { description: missing } } : {}
  return {
    get: {
      operationId,
      summary,
      description,
      tags: ['Feeds'],
      params: { query: RatingQuerySchema },
      responses: {
        200: {
          description: format === 'atom' ? 'An Atom feed (RFC 4287)' : 'A JSON Feed 1.1 document',
          content: format === 'atom' ? 'application/atom+xml' : 'application/feed+json',
          schema: format === 'atom' ? AtomSchema : JsonFeedSchema,
          headers: feedHeaders,
        },
        304: { description: 'Not modified' },
        400: { description: '`Invalid rating`' },
        ...notFound,
        ...refusals,
      },
    },
  }
}

const commentsDescription = 'The 50 newest comments (replies too) of a public upload that anyone may see (not deleted, author not shadow-banned), each with "Comment by {username}" as title, a link to /upload/{id}#comment-{commentId}, the author, published/updated and the sanitised HTML as content (Atom: content type="html"; JSON Feed: content_html). Not rate-limited.'

/** The comments of an upload as a feed. */
function commentsFeed(operationId: string, format: 'atom' | 'json'): { get: ApiOperation } {
  const base = feed(operationId, `The newest comments on a public upload (${format === 'atom' ? 'Atom' : 'JSON Feed'})`, format, '`Upload not found` (unknown or private)').get
  return { get: { ...base, description: commentsDescription, params: { path: UploadFeedParamsSchema } } }
}

/** A search feed refuses what GET /api/search refuses; it has no caller, so is: is a 401. */
const searchRefusals: ApiOperation['responses'] = {
  400: { description: '`Invalid query` or `Query too complex`, with data { position, expected }; `Invalid rating`' },
  401: { description: '`Authentication required`: the query asks is:' },
}

export default defineApiPaths({
  '/feeds/recent.atom': feed('getRecentFeedAtom', 'Newest public uploads (Atom)', 'atom'),
  '/feeds/recent.json': feed('getRecentFeedJson', 'Newest public uploads (JSON Feed)', 'json'),
  '/feeds/top.atom': feed('getTopFeedAtom', 'Top-voted public uploads (Atom)', 'atom'),
  '/feeds/top.json': feed('getTopFeedJson', 'Top-voted public uploads (JSON Feed)', 'json'),
  '/feeds/tag/{slug}.atom': { get: { ...feed('getTagFeedAtom', 'Newest public uploads carrying a tag (Atom)', 'atom', '`Tag not found`').get, params: { path: TagSlugParamsSchema, query: RatingQuerySchema } } },
  '/feeds/tag/{slug}.json': { get: { ...feed('getTagFeedJson', 'Newest public uploads carrying a tag (JSON Feed)', 'json', '`Tag not found`').get, params: { path: TagSlugParamsSchema, query: RatingQuerySchema } } },
  '/feeds/search.atom': { get: { ...feed('getSearchFeedAtom', 'Newest public uploads matching a search query (Atom)', 'atom', undefined, searchRefusals).get, params: { query: SearchFeedQuerySchema } } },
  '/feeds/search.json': { get: { ...feed('getSearchFeedJson', 'Newest public uploads matching a search query (JSON Feed)', 'json', undefined, searchRefusals).get, params: { query: SearchFeedQuerySchema } } },
  '/feeds/user/{username}.atom': { get: { ...feed('getUserFeedAtom', 'A user\'s newest public uploads (Atom)', 'atom', '`User not found`').get, params: { path: UsernameParamsSchema, query: RatingQuerySchema } } },
  '/feeds/user/{username}.json': { get: { ...feed('getUserFeedJson', 'A user\'s newest public uploads (JSON Feed)', 'json', '`User not found`').get, params: { path: UsernameParamsSchema, query: RatingQuerySchema } } },
  '/feeds/user/{username}/favourites.atom': { get: { ...feed('getUserFavouritesFeedAtom', 'A user\'s newest favourites among public uploads (Atom)', 'atom', '`Favourites not found` (no such user, or their favourites are private)').get, params: { path: UsernameParamsSchema, query: RatingQuerySchema } } },
  '/feeds/user/{username}/favourites.json': { get: { ...feed('getUserFavouritesFeedJson', 'A user\'s newest favourites among public uploads (JSON Feed)', 'json', '`Favourites not found` (no such user, or their favourites are private)').get, params: { path: UsernameParamsSchema, query: RatingQuerySchema } } },
  '/feeds/upload/{id}/comments.atom': commentsFeed('getUploadCommentsFeedAtom', 'atom'),
  '/feeds/upload/{id}/comments.json': commentsFeed('getUploadCommentsFeedJson', 'json'),
})
