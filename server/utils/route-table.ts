import type { ApiOperation, ApiPaths } from './openapi'
import type { CachePolicy } from './http-cache'
import type { RateLimitCategory } from './rate-limit'
import accounts from '../openapi/accounts'
import admin from '../openapi/admin'
import comments from '../openapi/comments'
import duels from '../openapi/duels'
import favourites from '../openapi/favourites'
import feeds from '../openapi/feeds'
import filters from '../openapi/filters'
import lists from '../openapi/lists'
import meta from '../openapi/meta'
import myUploads from '../openapi/my-uploads'
import oauth from '../openapi/oauth'
import ownData from '../openapi/own-data'
import passkeys from '../openapi/passkeys'
import removal from '../openapi/removal'
import reports from '../openapi/reports'
import sessions from '../openapi/sessions'
import tags from '../openapi/tags'
import uploadEdits from '../openapi/upload-edits'
import uploads from '../openapi/uploads'
import votes from '../openapi/votes'

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** What one route is, for everything that treats a request by its route before (or instead of) its handler. */
export interface RouteRecord {
  method: RouteMethod
  /** The route as Nitro writes it: `/api/user/:username/uploads` for server/api/user/[username]/uploads.get.ts. */
  route: string
  /**
   * The rate-limit category a request counts in (docs/behaviour.md, Rate limits), or a
   * function of whether it carries a session cookie, asked only for this route; null: not counted.
   */
  limit: RateLimitCategory | null | ((signedIn: boolean) => RateLimitCategory)
  /**
   * GET: the Cache-Control policy of a 200 JSON answer whose handler chooses none itself
   * (server/utils/http-cache.ts, docs/behaviour.md, Caching). Null for writes, and for
   * routes outside /api, which set their own headers.
   */
  cache: CachePolicy | null
  /**
   * `multipart`: a form with a file (no Content-Type check). `json`, and `none` on a POST
   * (the input is in the path and query): anything but an empty or JSON body is a 415, so
   * no simple cross-site form reaches the route (docs/behaviour.md, Errors). `none` on a
   * PATCH, PUT or DELETE, which no form sends: any body is ignored (bodyIgnored).
   */
  body: 'none' | 'json' | 'multipart'
  /** Answered by the fast path (server/plugins/api-fast-path.ts); `list`: its answers may be replayed. */
  fast?: { list: boolean }
  /**
   * The route's operation in the OpenAPI document (server/openapi/*.ts); a route whose
   * one handler answers several documented paths (a feed's .atom and .json files) names
   * them, in `{param}` form.
   */
  openapi?: ApiOperation | Record<string, ApiOperation>
}

/**
 * Every route of server/api, one record per method and route, and the web routes the
 * API document describes (tests/unit/route-table.test.ts holds it equal to the
 * handler files). The rate limit, the cache policy, the body check, the fast path and
 * the OpenAPI document all read it; a new endpoint is a handler file and its record here.
 * In document order: the document's list of tags follows the first record of each.
 */
export const ROUTE_TABLE: readonly RouteRecord[] = [
  // Meta
  // Load balancers poll it: never counted; it answers no-store itself.
  { method: 'GET', route: '/api/health', limit: null, cache: 'revalidate', body: 'none', openapi: meta['/api/health'].get },
  { method: 'GET', route: '/api/openapi.json', limit: 'general', cache: 'revalidate', body: 'none', openapi: meta['/api/openapi.json'].get },
  // Accounts: login, tokens, MFA, passwords, e-mail
  { method: 'POST', route: '/api/auth', limit: 'auth', cache: null, body: 'json', openapi: accounts['/api/auth'].post },
  { method: 'POST', route: '/api/auth/logout', limit: 'general', cache: null, body: 'none', openapi: accounts['/api/auth/logout'].post },
  { method: 'GET', route: '/api/profile', limit: 'general', cache: 'profile', body: 'none', openapi: accounts['/api/profile'].get },
  { method: 'POST', route: '/api/auth/tokens/generate', limit: 'general', cache: null, body: 'json', openapi: accounts['/api/auth/tokens/generate'].post },
  { method: 'GET', route: '/api/auth/tokens', limit: 'general', cache: 'personal', body: 'none', openapi: accounts['/api/auth/tokens'].get },
  { method: 'DELETE', route: '/api/auth/tokens/:id', limit: 'general', cache: null, body: 'none', openapi: accounts['/api/auth/tokens/{id}'].delete },
  { method: 'POST', route: '/api/auth/mfa/setup', limit: 'general', cache: null, body: 'none', openapi: accounts['/api/auth/mfa/setup'].post },
  { method: 'POST', route: '/api/auth/mfa/verify', limit: 'auth', cache: null, body: 'json', openapi: accounts['/api/auth/mfa/verify'].post },
  { method: 'POST', route: '/api/auth/mfa/disable', limit: 'auth', cache: null, body: 'json', openapi: accounts['/api/auth/mfa/disable'].post },
  { method: 'POST', route: '/api/auth/change-password', limit: 'auth', cache: null, body: 'json', openapi: accounts['/api/auth/change-password'].post },
  { method: 'POST', route: '/api/auth/forgot-password', limit: 'auth', cache: null, body: 'json', openapi: accounts['/api/auth/forgot-password'].post },
  { method: 'POST', route: '/api/auth/reset-password', limit: 'auth', cache: null, body: 'json', openapi: accounts['/api/auth/reset-password'].post },
  { method: 'POST', route: '/api/auth/reset-password/check', limit: 'auth', cache: null, body: 'json', openapi: accounts['/api/auth/reset-password/check'].post },
  { method: 'POST', route: '/api/auth/verify-email', limit: 'auth', cache: null, body: 'json', openapi: accounts['/api/auth/verify-email'].post },
  { method: 'POST', route: '/api/auth/verify-email/resend', limit: 'auth', cache: null, body: 'none', openapi: accounts['/api/auth/verify-email/resend'].post },
  // Sessions
  { method: 'GET', route: '/api/auth/sessions', limit: 'general', cache: 'revalidate', body: 'none', openapi: sessions['/api/auth/sessions'].get },
  { method: 'DELETE', route: '/api/auth/sessions/:id', limit: 'general', cache: null, body: 'none', openapi: sessions['/api/auth/sessions/{id}'].delete },
  // Passkeys
  { method: 'POST', route: '/api/auth/passkeys/register/options', limit: 'general', cache: null, body: 'none', openapi: passkeys['/api/auth/passkeys/register/options'].post },
  { method: 'POST', route: '/api/auth/passkeys/register/verify', limit: 'general', cache: null, body: 'json', openapi: passkeys['/api/auth/passkeys/register/verify'].post },
  { method: 'GET', route: '/api/auth/passkeys', limit: 'general', cache: 'revalidate', body: 'none', openapi: passkeys['/api/auth/passkeys'].get },
  { method: 'DELETE', route: '/api/auth/passkeys/:id', limit: 'general', cache: null, body: 'none', openapi: passkeys['/api/auth/passkeys/{id}'].delete },
  { method: 'POST', route: '/api/auth/passkeys/login/options', limit: 'auth', cache: null, body: 'none', openapi: passkeys['/api/auth/passkeys/login/options'].post },
  { method: 'POST', route: '/api/auth/passkeys/login/verify', limit: 'auth', cache: null, body: 'json', openapi: passkeys['/api/auth/passkeys/login/verify'].post },
  // OAuth accounts
  { method: 'GET', route: '/api/auth/providers', limit: 'general', cache: 'revalidate', body: 'none', openapi: oauth['/api/auth/providers'].get },
  { method: 'GET', route: '/api/auth/oauth-accounts', limit: 'general', cache: 'revalidate', body: 'none', openapi: oauth['/api/auth/oauth-accounts'].get },
  { method: 'DELETE', route: '/api/auth/oauth-accounts/:provider', limit: 'general', cache: null, body: 'none', openapi: oauth['/api/auth/oauth-accounts/{provider}'].delete },
  { method: 'POST', route: '/api/auth/oauth/mfa', limit: 'auth', cache: null, body: 'json', openapi: oauth['/api/auth/oauth/mfa'].post },
  // Uploads and their pictures
  // Uploads count per account, in the handler (limitUploader).
  { method: 'POST', route: '/api/upload', limit: 'upload', cache: null, body: 'multipart', openapi: uploads['/api/upload'].post },
  { method: 'POST', route: '/api/v1/upload', limit: 'upload', cache: null, body: 'multipart', openapi: uploads['/api/v1/upload'].post },
  { method: 'GET', route: '/api/upload/:id', limit: 'general', cache: 'revalidate', body: 'none', openapi: uploads['/api/upload/{id}'].get },
  { method: 'DELETE', route: '/api/upload/:id', limit: 'general', cache: null, body: 'json', openapi: uploads['/api/upload/{id}'].delete },
  { method: 'PATCH', route: '/api/upload/:id/privacy', limit: 'general', cache: null, body: 'none', openapi: uploads['/api/upload/{id}/privacy'].patch },
  // Pictures are not counted; the answer is not JSON, so the handler sets its `image` policy itself.
  { method: 'GET', route: '/api/image/:id', limit: null, cache: 'image', body: 'none', fast: { list: false }, openapi: uploads['/api/image/{id}'].get },
  // Upload edits
  { method: 'PATCH', route: '/api/upload/:id', limit: 'general', cache: null, body: 'json', fast: { list: false }, openapi: uploadEdits['/api/upload/{id}'].patch },
  { method: 'GET', route: '/api/upload/:id/history', limit: 'general', cache: 'revalidate', body: 'none', openapi: uploadEdits['/api/upload/{id}/history'].get },
  { method: 'DELETE', route: '/api/uploads/:id/tags/:slug', limit: 'general', cache: null, body: 'none', openapi: uploadEdits['/api/uploads/{id}/tags/{slug}'].delete },
  { method: 'POST', route: '/api/admin/uploads/:id/revert', limit: 'general', cache: null, body: 'json', openapi: uploadEdits['/api/admin/uploads/{id}/revert'].post },
  { method: 'POST', route: '/api/admin/uploads/:id/lock', limit: 'general', cache: null, body: 'json', openapi: uploadEdits['/api/admin/uploads/{id}/lock'].post },
  // Lists and search
  { method: 'GET', route: '/api/uploads', limit: 'general', cache: 'list', body: 'none', fast: { list: true }, openapi: lists['/api/uploads'].get },
  { method: 'GET', route: '/api/uploads/filtered', limit: 'general', cache: 'list', body: 'none', fast: { list: true }, openapi: lists['/api/uploads/filtered'].get },
  { method: 'GET', route: '/api/search', limit: 'general', cache: 'list', body: 'none', openapi: lists['/api/search'].get },
  { method: 'GET', route: '/api/search/suggest', limit: 'general', cache: 'revalidate', body: 'none', openapi: lists['/api/search/suggest'].get },
  { method: 'GET', route: '/api/user/:username/uploads', limit: 'general', cache: 'revalidate', body: 'none', fast: { list: true }, openapi: lists['/api/user/{username}/uploads'].get },
  { method: 'GET', route: '/api/items-recent', limit: 'general', cache: 'feature', body: 'none', fast: { list: true }, openapi: lists['/api/items-recent'].get },
  { method: 'GET', route: '/api/items-top-voted', limit: 'general', cache: 'feature', body: 'none', fast: { list: true }, openapi: lists['/api/items-top-voted'].get },
  // The caller's uploads
  { method: 'GET', route: '/api/profile/uploads', limit: 'general', cache: 'revalidate', body: 'none', openapi: myUploads['/api/profile/uploads'].get },
  // Content filters
  { method: 'GET', route: '/api/profile/filters', limit: 'general', cache: 'revalidate', body: 'none', openapi: filters['/api/profile/filters'].get },
  { method: 'PUT', route: '/api/profile/filters', limit: 'general', cache: null, body: 'json', openapi: filters['/api/profile/filters'].put },
  // Tags
  { method: 'GET', route: '/api/uploads/:id/tags', limit: 'general', cache: 'revalidate', body: 'none', openapi: tags['/api/uploads/{id}/tags'].get },
  { method: 'POST', route: '/api/uploads/:id/tags', limit: 'general', cache: null, body: 'json', openapi: tags['/api/uploads/{id}/tags'].post },
  { method: 'GET', route: '/api/tags', limit: 'general', cache: 'revalidate', body: 'none', openapi: tags['/api/tags'].get },
  { method: 'GET', route: '/api/tags/:slug', limit: 'general', cache: 'revalidate', body: 'none', openapi: tags['/api/tags/{slug}'].get },
  { method: 'GET', route: '/api/admin/tags/rules', limit: 'general', cache: 'personal', body: 'none', openapi: tags['/api/admin/tags/rules'].get },
  { method: 'POST', route: '/api/admin/tags/aliases', limit: 'general', cache: null, body: 'json', openapi: tags['/api/admin/tags/aliases'].post },
  { method: 'DELETE', route: '/api/admin/tags/aliases/:from', limit: 'general', cache: null, body: 'none', openapi: tags['/api/admin/tags/aliases/{from}'].delete },
  { method: 'POST', route: '/api/admin/tags/implications', limit: 'general', cache: null, body: 'json', openapi: tags['/api/admin/tags/implications'].post },
  { method: 'DELETE', route: '/api/admin/tags/implications/:tag/:implies', limit: 'general', cache: null, body: 'none', openapi: tags['/api/admin/tags/implications/{tag}/{implies}'].delete },
  // Votes
  { method: 'POST', route: '/api/vote', limit: 'vote', cache: null, body: 'json', fast: { list: false }, openapi: votes['/api/vote'].post },
  { method: 'GET', route: '/api/vote', limit: 'general', cache: 'personal', body: 'none', openapi: votes['/api/vote'].get },
  { method: 'DELETE', route: '/api/vote', limit: 'vote', cache: null, body: 'none', fast: { list: false }, openapi: votes['/api/vote'].delete },
  { method: 'GET', route: '/api/vote/next', limit: 'general', cache: 'personal', body: 'none', openapi: votes['/api/vote/next'].get },
  { method: 'GET', route: '/api/vote/mine', limit: 'general', cache: 'personal', body: 'none', openapi: votes['/api/vote/mine'].get },
  { method: 'POST', route: '/api/vote/anonymous', limit: 'anonVote', cache: null, body: 'json', fast: { list: false }, openapi: votes['/api/vote/anonymous'].post },
  // Duels
  { method: 'GET', route: '/api/duel/next', limit: 'general', cache: 'revalidate', body: 'none', openapi: duels['/api/duel/next'].get },
  // A duel's judgement is a vote between two: VOTE with a session cookie, ANON_VOTE without.
  { method: 'POST', route: '/api/duel', limit: signedIn => signedIn ? 'vote' : 'anonVote', cache: null, body: 'json', fast: { list: false }, openapi: duels['/api/duel'].post },
  { method: 'GET', route: '/api/duels/leaderboard', limit: 'general', cache: 'revalidate', body: 'none', openapi: duels['/api/duels/leaderboard'].get },
  // Reports
  { method: 'POST', route: '/api/upload/:id/report', limit: 'general', cache: null, body: 'json', openapi: reports['/api/upload/{id}/report'].post },
  { method: 'GET', route: '/api/admin/reports', limit: 'general', cache: 'personal', body: 'none', openapi: reports['/api/admin/reports'].get },
  { method: 'POST', route: '/api/admin/reports/:id/claim', limit: 'general', cache: null, body: 'none', openapi: reports['/api/admin/reports/{id}/claim'].post },
  { method: 'POST', route: '/api/admin/reports/:id/resolve', limit: 'general', cache: null, body: 'json', openapi: reports['/api/admin/reports/{id}/resolve'].post },
  // Removal and banned media
  { method: 'GET', route: '/api/admin/banned-media', limit: 'general', cache: 'personal', body: 'none', openapi: removal['/api/admin/banned-media'].get },
  { method: 'DELETE', route: '/api/admin/banned-media/:id', limit: 'general', cache: null, body: 'none', openapi: removal['/api/admin/banned-media/{id}'].delete },
  { method: 'POST', route: '/api/search/image', limit: 'general', cache: null, body: 'multipart', openapi: removal['/api/search/image'].post },
  // Administration
  { method: 'GET', route: '/api/admin/users', limit: 'general', cache: 'personal', body: 'none', openapi: admin['/api/admin/users'].get },
  { method: 'POST', route: '/api/admin/users/:id/shadow-ban', limit: 'general', cache: null, body: 'json', openapi: admin['/api/admin/users/{id}/shadow-ban'].post },
  { method: 'GET', route: '/api/admin/modlog', limit: 'general', cache: 'personal', body: 'none', openapi: admin['/api/admin/modlog'].get },
  // Own data
  { method: 'GET', route: '/api/profile/export', limit: 'general', cache: 'revalidate', body: 'none', openapi: ownData['/api/profile/export'].get },
  // Deleting the account takes the password and MFA code: guesses count like a login's.
  { method: 'DELETE', route: '/api/profile', limit: 'auth', cache: null, body: 'json', openapi: ownData['/api/profile'].delete },
  // Feeds (web routes outside /api that the API document describes)
  { method: 'GET', route: '/feeds/:file', limit: null, cache: null, body: 'none', openapi: {
    '/feeds/recent.atom': feeds['/feeds/recent.atom'].get,
    '/feeds/recent.json': feeds['/feeds/recent.json'].get,
    '/feeds/top.atom': feeds['/feeds/top.atom'].get,
    '/feeds/top.json': feeds['/feeds/top.json'].get,
    '/feeds/search.atom': feeds['/feeds/search.atom'].get,
    '/feeds/search.json': feeds['/feeds/search.json'].get,
  } },
  { method: 'GET', route: '/feeds/tag/:file', limit: null, cache: null, body: 'none', openapi: {
    '/feeds/tag/{slug}.atom': feeds['/feeds/tag/{slug}.atom'].get,
    '/feeds/tag/{slug}.json': feeds['/feeds/tag/{slug}.json'].get,
  } },
  { method: 'GET', route: '/feeds/user/:file', limit: null, cache: null, body: 'none', openapi: {
    '/feeds/user/{username}.atom': feeds['/feeds/user/{username}.atom'].get,
    '/feeds/user/{username}.json': feeds['/feeds/user/{username}.json'].get,
  } },
  { method: 'GET', route: '/feeds/user/:username/:file', limit: null, cache: null, body: 'none', openapi: {
    '/feeds/user/{username}/favourites.atom': feeds['/feeds/user/{username}/favourites.atom'].get,
    '/feeds/user/{username}/favourites.json': feeds['/feeds/user/{username}/favourites.json'].get,
  } },
  { method: 'GET', route: '/feeds/upload/:id/:file', limit: null, cache: null, body: 'none', openapi: {
    '/feeds/upload/{id}/comments.atom': feeds['/feeds/upload/{id}/comments.atom'].get,
    '/feeds/upload/{id}/comments.json': feeds['/feeds/upload/{id}/comments.json'].get,
  } },
  // Favourites
  // A favourite is a write like a vote, as cheap and as easy to repeat: it counts as one (docs/behaviour.md, Rate limits).
  { method: 'PUT', route: '/api/upload/:id/favourite', limit: 'vote', cache: null, body: 'none', fast: { list: false }, openapi: favourites['/api/upload/{id}/favourite'].put },
  { method: 'DELETE', route: '/api/upload/:id/favourite', limit: 'vote', cache: null, body: 'none', fast: { list: false }, openapi: favourites['/api/upload/{id}/favourite'].delete },
  { method: 'GET', route: '/api/profile/favourites', limit: 'general', cache: 'revalidate', body: 'none', openapi: favourites['/api/profile/favourites'].get },
  { method: 'GET', route: '/api/user/:username/favourites', limit: 'general', cache: 'revalidate', body: 'none', openapi: favourites['/api/user/{username}/favourites'].get },
  { method: 'GET', route: '/api/profile/preferences', limit: 'general', cache: 'revalidate', body: 'none', openapi: favourites['/api/profile/preferences'].get },
  { method: 'PUT', route: '/api/profile/preferences', limit: 'general', cache: null, body: 'json', openapi: favourites['/api/profile/preferences'].put },
  // Comments
  { method: 'GET', route: '/api/upload/:id/comments', limit: 'general', cache: 'revalidate', body: 'none', openapi: comments['/api/upload/{id}/comments'].get },
  // Posting and editing a comment count per account, in the handler (limitAccount), like uploads.
  { method: 'POST', route: '/api/upload/:id/comments', limit: 'comment', cache: null, body: 'json', fast: { list: false }, openapi: comments['/api/upload/{id}/comments'].post },
  { method: 'PATCH', route: '/api/comments/:id', limit: 'comment', cache: null, body: 'json', openapi: comments['/api/comments/{id}'].patch },
  { method: 'DELETE', route: '/api/comments/:id', limit: 'general', cache: null, body: 'none', openapi: comments['/api/comments/{id}'].delete },
  { method: 'PUT', route: '/api/comments/:id/vote', limit: 'general', cache: null, body: 'json', fast: { list: false }, openapi: comments['/api/comments/{id}/vote'].put },
  { method: 'POST', route: '/api/comments/:id/report', limit: 'general', cache: null, body: 'json', openapi: comments['/api/comments/{id}/report'].post },
  { method: 'POST', route: '/api/comments/preview', limit: 'general', cache: null, body: 'json', openapi: comments['/api/comments/preview'].post },
]

/** A method's records: routes without parameters by path, then the others as patterns. */
interface MethodRoutes {
  statics: Map<string, RouteRecord>
  patterns: { pattern: RegExp, record: RouteRecord }[]
}

let byMethod: Map<string, MethodRoutes> | undefined

function routesOf(method: string): MethodRoutes | undefined {
  if (!byMethod) {
    byMethod = new Map()
    for (const record of ROUTE_TABLE) {
      let routes = byMethod.get(record.method)
      if (!routes) byMethod.set(record.method, routes = { statics: new Map(), patterns: [] })
      if (!record.route.includes(':')) routes.statics.set(record.route, record)
      else routes.patterns.push({ pattern: patternOf(record.route), record })
    }
    // Fewer parameters first, as Nitro's router prefers a fixed segment to a parameter.
    for (const routes of byMethod.values()) routes.patterns.sort((a, b) => paramCount(a.record.route) - paramCount(b.record.route))
  }
  return byMethod.get(method)
}

function patternOf(route: string): RegExp {
  const source = route.split('/').map(segment => segment.startsWith(':') ? '[^/]+' : segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('/')
  return new RegExp(`^${source}$`)
}

function paramCount(route: string): number {
  return route.match(/:/g)?.length ?? 0
}

/**
 * The record of a request by its method and path (no query), spelled exactly as
 * the route: another spelling (a trailing slash) has none, and each caller says
 * what it gets instead.
 */
export function routeRecord(method: string, path: string): RouteRecord | undefined {
  const routes = routesOf(method)
  if (!routes) return undefined
  return routes.statics.get(path) ?? routes.patterns.find(({ pattern }) => pattern.test(path))?.record
}

function isOperation(openapi: NonNullable<RouteRecord['openapi']>): openapi is ApiOperation {
  return typeof openapi.operationId === 'string'
}

/** The OpenAPI paths of every record, in `{param}` form, in table order (server/utils/openapi.ts builds the document). */
export function documentedPaths(): ApiPaths {
  const paths: ApiPaths = {}
  for (const { method, route, openapi, limit } of ROUTE_TABLE) {
    if (!openapi) continue
    const operations = isOperation(openapi) ? { [route.replace(/:(\w+)/g, '{$1}')]: openapi } : openapi
    for (const [path, operation] of Object.entries(operations)) {
      paths[path] = { ...paths[path], [method.toLowerCase()]: limit === null ? { ...operation, rateLimited: false } : operation }
    }
  }
  return paths
}
