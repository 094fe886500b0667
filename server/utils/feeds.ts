import type { H3Event } from 'h3'
import { getQuery, setResponseHeaders, setResponseStatus } from 'h3'
import * as v from 'valibot'
import { RatingFilterSchema } from '#shared/schemas/lists'
import { CONTENT_RATINGS } from '#shared/utils/content-rating'
import { reasonPhrase } from '../services/errors'
import { renderFeed, type FeedFormat, type FeedSource } from '../services/feeds'

const CONTENT_TYPES: Record<FeedFormat, string> = {
  atom: 'application/atom+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
}

/** `name.atom` / `name.json` → name and format; null for anything else. */
export function feedFile(file: string | undefined): { name: string, format: FeedFormat } | null {
  const match = /^(.{1,200})\.(atom|json)$/.exec(file ?? '')
  return match ? { name: match[1]!, format: match[2] as FeedFormat } : null
}

/** The error shape of the API, for a feed or sitemap that does not exist or a request it refuses. */
export function feedErrorBody(event: H3Event, statusCode: number, message: string, data?: Record<string, unknown>, extra?: { requestId?: string }): string {
  const statusMessage = reasonPhrase(statusCode)
  setResponseStatus(event, statusCode, statusMessage)
  setResponseHeaders(event, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
  return JSON.stringify({ statusCode, statusMessage, message, ...(data ? { data } : {}), ...extra })
}

/**
 * Answers a feed: its text with `public, max-age=300` and an ETag (304 when
 * it matches), or the 404 JSON error; only the ratings of `rating=` when
 * given (400 `Invalid rating` for anything else).
 */
export async function sendFeed(event: H3Event, source: FeedSource | null, format: FeedFormat | undefined, missing: string): Promise<string> {
  const rating = v.safeParse(RatingFilterSchema, getQuery(event).rating)
  if (!rating.success) return feedErrorBody(event, 400, 'Invalid rating')
  const ratings = rating.output && rating.output.length < CONTENT_RATINGS.length ? rating.output : null
  const body = source && format ? await renderFeed(useDB(), source, format, siteOrigin(), ratings) : null
  if (body === null) return feedErrorBody(event, 404, missing)
  setResponseHeaders(event, { 'Content-Type': CONTENT_TYPES[format!], 'Cache-Control': 'public, max-age=300' })
  return isNotModified(event, etagOf(body)) ? '' : body
}
