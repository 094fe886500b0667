/**
 * What the benchmarks measure: each scenario is an HTTP request to the app
 * and the same work through the service functions (the SQL baseline).
 * Shared by `npm run bench` (scripts/bench.ts) and `npm run bench:scale`
 * (scripts/bench-scale.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import type { Database } from '../../server/database/port'
import { inList, sql } from '../../server/database/sql'
import { postComment, voteComment } from '../../server/services/comments'
import { duelKey, DUEL_TTL_MS, judgeDuel, openDuel, signDuel } from '../../server/services/duels'
import { setFavourite } from '../../server/services/favourites'
import { editUpload } from '../../server/services/upload-edits'
import { featureList, listFilteredUploads, listUploads, listUserUploads, PUBLIC_VIEW, type ListView } from '../../server/services/lists'
import { castAnonymousVote, castVote, removeVote, type AnonymousVoteValue } from '../../server/services/votes'
import type { Actor } from '../../server/services/sessions'
import { PERIOD_SORTS, periodStart, type Period, type Sort } from '../../shared/utils/ranking'
import type { SingleUseRequests, WriteRequest } from './load'
import { bulkTagName, bulkUsername } from './seed'

/** What a scenario may use: the seeded data and a signed-in user. */
export interface BenchContext {
  token: string
  actor: Actor
  uploadIds: string[]
  /** The site's secrets (the duel ids' key, the visitors' IP hashes); a write that needs them says so. */
  secrets?: { session: string, ipHash: string }
  /** The comments a comment vote is cast on, made by its `prepare`. */
  commentIds?: string[]
  /** The uploads an edit changes (the bench user's, by its `prepare`), with their tag names in order. */
  edited?: { id: string, tags: string[] }[]
}

/** What the baseline server passes a scenario besides the URL and the body: the method, the route's parameters and the headers. */
export interface BaselineCall {
  method: string
  params: Record<string, string>
  headers: IncomingHttpHeaders
}

export interface Scenario {
  name: string
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  /** Request bodies, sent in turn to `method` `path` (a write). */
  bodies?: (ctx: BenchContext) => unknown[]
  /** A write's requests, instead of `bodies`: a list sent in turn, or requests that work once (scripts/lib/load.ts). */
  requests?: (ctx: BenchContext) => WriteRequest[] | SingleUseRequests
  /** The routes the baseline server answers with this scenario, as `METHOD /path/:param`; without them, `method` and `path`. */
  routes?: string[]
  /** Makes what the requests need (comments to vote on, images to pair), once, before the servers' first run; may fill `ctx`. */
  prepare?: (db: Database, ctx: BenchContext) => Promise<void>
  /** Needs the session cookie. */
  auth?: boolean
  /** The same work without a framework, for the baseline server. */
  baseline: (db: Database, url: URL, ctx: BenchContext, body: unknown, call: BaselineCall) => Promise<unknown>
  /** Reads are held to the goal (>= 60% of the baseline, p99 < 50 ms). */
  read: boolean
  /** A write also measured against the minimal write reference (scripts/lib/bench-minimal-writes.ts), which serves its routes. */
  minimal?: boolean
}

/** What a read's baseline is called with: a GET, nothing more. */
export const READ_CALL: BaselineCall = { method: 'GET', params: {}, headers: {} }

/** The route parameters when `method` and `pathname` match `route` (`METHOD /path/:param`), else undefined. */
export function matchRoute(route: string, method: string, pathname: string): Record<string, string> | undefined {
  const [routeMethod, routePath] = route.split(' ') as [string, string]
  const expected = routePath.split('/')
  const given = pathname.split('/')
  if (routeMethod !== method || expected.length !== given.length) return undefined
  const params: Record<string, string> = {}
  for (const [i, part] of expected.entries()) {
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(given[i]!)
    else if (part !== given[i]) return undefined
  }
  return params
}

export const paging = (url: URL, limit = 10) => ({ page: Number(url.searchParams.get('page') ?? 1), limit: Number(url.searchParams.get('limit') ?? limit) })
/** The ranking of `?sort=&period=` (the baseline server finds a scenario by its path alone). */
export const viewOf = (url: URL): ListView => ({
  ...PUBLIC_VIEW,
  sort: (url.searchParams.get('sort') ?? 'new') as Sort,
  since: periodStart((url.searchParams.get('period') ?? 'all') as Period),
})
/** Page 1 of each ranking, held to the same goal as newest-first. */
const rankings = (['top', 'hot', 'best', 'divisive'] as const).map((sort): Scenario => ({
  name: `GET /api/uploads?sort=${sort}${sort === 'hot' ? '' : '&period=year'}`,
  method: 'GET',
  path: `/api/uploads?sort=${sort}${sort === 'hot' ? '' : '&period=year'}`,
  read: true,
  baseline: (db, url) => listUploads(db, paging(url), viewOf(url)),
}))

export const scenarios: Scenario[] = [
  { name: 'GET /api/uploads (page 1)', method: 'GET', path: '/api/uploads', read: true, baseline: (db, url) => listUploads(db, paging(url), viewOf(url)) },
  { name: 'GET /api/uploads (page 500)', method: 'GET', path: '/api/uploads?page=500', read: true, baseline: (db, url) => listUploads(db, paging(url), viewOf(url)) },
  ...rankings,
  {
    // A tag's page as it opens (newest first), and ranked: a tag on 1,139 public uploads of 100,000.
    name: 'GET /api/uploads/filtered (one tag)',
    method: 'GET',
    path: `/api/uploads/filtered?tags=${encodeURIComponent(bulkTagName(5))}`,
    read: true,
    baseline: (db, url) => listFilteredUploads(db, { ...paging(url), tags: url.searchParams.get('tags') ?? undefined, match: 'all' }, viewOf(url)),
  },
  {
    name: 'GET /api/uploads/filtered (one tag, sort=top)',
    method: 'GET',
    path: `/api/uploads/filtered?tags=${encodeURIComponent(bulkTagName(5))}&sort=top`,
    read: true,
    baseline: (db, url) => listFilteredUploads(db, { ...paging(url), tags: url.searchParams.get('tags') ?? undefined, match: 'all' }, viewOf(url)),
  },
  {
    name: 'GET /api/uploads/filtered (2 tags)',
    method: 'GET',
    path: `/api/uploads/filtered?tags=${encodeURIComponent(`${bulkTagName(1)},${bulkTagName(2)}`)}`,
    read: true,
    baseline: (db, url) => listFilteredUploads(db, { ...paging(url), tags: url.searchParams.get('tags') ?? undefined, match: 'all' }),
  },
  {
    // The seed's most common tag and its rarest: the AND starts from the rare one's uploads.
    name: 'GET /api/uploads/filtered (a common and a rare tag)',
    method: 'GET',
    path: `/api/uploads/filtered?tags=${encodeURIComponent(`${bulkTagName(0)},${bulkTagName(1999)}`)}`,
    read: true,
    baseline: (db, url) => listFilteredUploads(db, { ...paging(url), tags: url.searchParams.get('tags') ?? undefined, match: 'all' }),
  },
  {
    // A visitor or account hiding explicit uploads: the list's total is then counted, not kept.
    name: 'GET /api/uploads?rating=safe,suggestive',
    method: 'GET',
    path: '/api/uploads?rating=safe,suggestive',
    read: true,
    baseline: (db, url) => listUploads(db, paging(url), { ...viewOf(url), ratings: ['safe', 'suggestive'] }),
  },
  { name: 'GET /api/items-top-voted', method: 'GET', path: '/api/items-top-voted', read: true, baseline: db => featureList(db, 'top-voted') },
  {
    name: 'GET /api/user/{username}/uploads?sort=votes',
    method: 'GET',
    path: `/api/user/${bulkUsername(0)}/uploads?sort=votes`,
    read: true,
    baseline: (db, url) => listUserUploads(db, bulkUsername(0), { ...paging(url, 12), sort: 'votes' }),
  },
  {
    name: 'POST /api/vote',
    method: 'POST',
    path: '/api/vote',
    auth: true,
    read: false,
    minimal: true,
    bodies: ctx => ctx.uploadIds.slice(0, 50).flatMap(uploadId => [{ uploadId, vote: 'fucks' }, { uploadId, vote: 'does_not_fuck' }]),
    baseline: (db, _url, ctx, body) => castVote(db, ctx.actor, body as { uploadId: string, vote: 'fucks' | 'does_not_fuck' }),
  },
]

/**
 * Requests a run generously sends per second, for requests that work once
 * (scripts/lib/load.ts SingleUseRequests): each run takes this many a
 * second of its own, fresh, before it starts. A run that sends more goes
 * round its share again and the repeats are refused (bad answers).
 */
const SINGLE_USE_PER_SECOND = 8000

/** Requests that each work once, numbered on from the last one any run took (ours, the SQL baseline's, the minimal write's). */
function singleUse(make: (ctx: BenchContext, k: number) => WriteRequest): (ctx: BenchContext) => SingleUseRequests {
  let next = 0
  return ctx => ({ perSecond: SINGLE_USE_PER_SECOND, take: count => Array.from({ length: count }, () => make(ctx, next++)) })
}

const json = (body: unknown) => JSON.stringify(body)

/**
 * Anonymous votes, each by a new visitor on an upload: visitor `v` votes on
 * every upload of the context in turn (as one who goes down a page), from
 * its own address (X-Forwarded-For, believed with NUXT_TRUST_PROXY as
 * behind a proxy: the bench's requests all come from 127.0.0.1, and one
 * address votes once per upload) and with its own fingerprint. The
 * addresses start at a random point of 10.0.0.0/8 and the fingerprints
 * carry a random tag, so a reused database's earlier votes are not met again.
 */
const anonymousVoter = (() => {
  const run = randomBytes(6).toString('hex')
  const start = randomBytes(3).readUIntBE(0, 3)
  return (ctx: BenchContext, k: number): WriteRequest => {
    const visitor = Math.floor(k / ctx.uploadIds.length)
    const address = (start + visitor) % 0x1000000
    return {
      method: 'POST',
      path: '/api/vote/anonymous',
      headers: { 'x-forwarded-for': `10.${address >> 16}.${(address >> 8) & 255}.${address & 255}` },
      body: json({ uploadId: ctx.uploadIds[k % ctx.uploadIds.length], vote: k % 2 ? 'downvote' : 'upvote', clientFingerprint: `bench-${run}-${visitor}` }),
    }
  }
})()

/** The uploads (public, of the context) whose votes a POST and DELETE pair write, and whose comments are voted on: not the vote's own fifty. */
const pairUploads = (ctx: BenchContext) => ctx.uploadIds.slice(50, 100)

/**
 * Public uploads comments are posted to, one after another. A comment's
 * kept count is recounted from the upload's comments on every post, so on
 * fifty uploads a run's throughput fell as their comments grew (on SQLite
 * at 3,000 uploads, 1,244 then 779 then 551 req/s in three rounds, the
 * baseline's as much): spread over a thousand, each gets a few dozen in a
 * whole run, as a busy upload would. Never the first three of the
 * context, whose comments the upload pages' pair counts (scripts/bench.ts).
 */
const COMMENTED_UPLOADS = 1000
let commentedUploads: string[] = []
async function chooseCommentedUploads(db: Database, ctx: BenchContext) {
  const kept = new Set(ctx.uploadIds.slice(0, 3))
  commentedUploads = (await db.all<{ id: string }>(sql`SELECT id FROM uploads WHERE is_private = 0 ORDER BY id LIMIT ${COMMENTED_UPLOADS + 3}`))
    .map(row => row.id).filter(id => !kept.has(id)).slice(0, COMMENTED_UPLOADS)
}

/**
 * Each request of a list once on every id, then the other once on every id:
 * with 50 ids, more than the 32 requests in flight lie between the two on
 * one id, so the second finds the first done and every request changes
 * what is stored (a favourite set then removed, a vote cast then withdrawn).
 */
const inTurns = (ids: string[], first: (id: string) => WriteRequest, second: (id: string) => WriteRequest) => [...ids.map(first), ...ids.map(second)]

/** Public images of the site the judgements pair: each pair is judged once, and these make about two million pairs. */
const DUEL_IMAGES = 2000

/**
 * Judgements of the bench user, each on a duel id minted here (signed with
 * the site's key, as GET /api/duel/next would hand it out) for a pair the
 * user has not judged: the k-th pair is (image p, image p + d) with d
 * growing each time every image has had its turn, and p stepping by about
 * 0.618 of the images, so the 32 requests in flight rarely share an image
 * (as judgements of random pairs from many visitors would not).
 */
function judgements() {
  let images: string[] = []
  let stride = 1
  let key: Buffer | undefined
  const gcd = (a: number, b: number): number => b === 0 ? a : gcd(b, a % b)
  /** The key duel ids are signed with (derived once, as the site does). */
  const keyOf = (ctx: BenchContext) => key ??= duelKey(ctx.secrets!.session)
  return {
    prepare: async (db: Database) => {
      images = (await db.all<{ id: string }>(sql`SELECT id FROM uploads WHERE is_private = 0 AND upload_type = 'image' ORDER BY id LIMIT ${DUEL_IMAGES}`)).map(row => row.id)
      if (images.length < 3) throw new Error('POST /api/duel needs at least three public images in the seeded site')
      stride = Math.round(images.length * 0.618)
      while (gcd(stride, images.length) !== 1) stride++
    },
    key: keyOf,
    request: (ctx: BenchContext, k: number): WriteRequest => {
      const count = images.length
      // Past the last distance the pairs come round again: judged already, refused (bad answers).
      const distance = 1 + Math.floor(k / count) % Math.floor((count - 1) / 2)
      const p = (k % count) * stride % count
      const [left, right] = [images[p]!, images[(p + distance) % count]!]
      // The judge as a duel id names an account (server/services/duels.ts judgeName).
      const duelId = signDuel(keyOf(ctx), { id: randomUUID(), left, right, judge: `u:${ctx.actor.id}`, expires: Date.now() + DUEL_TTL_MS })
      return { method: 'POST', path: '/api/duel', body: json({ duelId, winner: k % 2 ? 'right' : 'left' }) }
    },
  }
}
const duels = judgements()

/** The comments a comment vote is cast on: one on each of fifty uploads, by the bench user. */
async function makeComments(db: Database, ctx: BenchContext) {
  ctx.commentIds = []
  for (const uploadId of pairUploads(ctx)) {
    ctx.commentIds.push((await postComment(db, ctx.actor, uploadId, { body: 'A comment the bench votes on.' })).comment.id)
  }
}

/** Uploads the edits change, and the fewest tags each carries besides the edit's own. */
const EDITED_UPLOADS = 50
const EDITED_TAGS = 5

/**
 * The uploads an edit changes: fifty public ones past those the other
 * writes use, each with at least five tags, made the bench user's (the kept
 * per-account counts follow by their trigger), with their tags as they are
 * now. A run stops wherever its time ends, often between an edit and its
 * undoing, which leaves the edit's tag in place of the upload's last one:
 * that tag is taken off again here, so every edit swaps a tag (an upload
 * that lost its last tag this way keeps one fewer). Read with the edit's tag
 * as the base, an upload went on losing a tag a run, and its edits became a
 * tag only added or only removed.
 */
async function chooseEditedUploads(db: Database, ctx: BenchContext) {
  const others = new Set(ctx.uploadIds)
  const ids = (await db.all<{ id: string }>(sql`SELECT u.id FROM uploads u WHERE u.is_private = 0
    AND (SELECT count(*) FROM upload_tags ut JOIN tags t ON t.id = ut.tag_id WHERE ut.upload_id = u.id AND t.slug NOT LIKE ${`${EDIT_TAG}%`}) >= ${EDITED_TAGS}
    ORDER BY u.id DESC LIMIT ${EDITED_UPLOADS + ctx.uploadIds.length}`))
    .map(row => row.id).filter(id => !others.has(id)).slice(0, EDITED_UPLOADS)
  await db.run(sql`UPDATE uploads SET user_id = ${ctx.actor.id} WHERE id ${inList(ids)}`)
  await db.run(sql`DELETE FROM upload_tags WHERE upload_id ${inList(ids)} AND tag_id IN (SELECT id FROM tags WHERE slug LIKE ${`${EDIT_TAG}%`})`)
  const links = await db.all<{ upload_id: string, name: string }>(sql`SELECT ut.upload_id, t.name FROM upload_tags ut JOIN tags t ON t.id = ut.tag_id
    WHERE ut.upload_id ${inList(ids)} ORDER BY ut.upload_id, ut.position`)
  ctx.edited = ids.map(id => ({ id, tags: links.filter(link => link.upload_id === id).map(link => link.name) }))
}

/**
 * The tag an edit puts in place of the upload's last one, and takes out
 * again: one of its own per upload, as a fixed typo is, so that the edits
 * of fifty uploads do not all queue on one tag's count.
 */
const EDIT_TAG = 'bench-edit-'
const editTag = (index: number) => `${EDIT_TAG}${index}`

/**
 * Every write of the site besides the vote, each held to the minimal write
 * reference (scripts/lib/bench-minimal-writes.ts) as the vote is. Each
 * request changes what is stored, as the vote's alternating bodies do.
 */
export const writeScenarios: Scenario[] = [
  {
    name: 'POST /api/vote/anonymous',
    method: 'POST',
    path: '/api/vote/anonymous',
    read: false,
    minimal: true,
    requests: singleUse(anonymousVoter),
    baseline: (db, _url, ctx, body, call) => castAnonymousVote(db, {
      ip: String(call.headers['x-forwarded-for']),
      userAgent: call.headers['user-agent'],
      secret: ctx.secrets!.ipHash,
    }, body as { uploadId: string, vote: AnonymousVoteValue, clientFingerprint: string }),
  },
  {
    name: 'POST then DELETE /api/vote (in turns)',
    method: 'DELETE',
    path: '/api/vote',
    auth: true,
    read: false,
    minimal: true,
    routes: ['POST /api/vote', 'DELETE /api/vote'],
    requests: ctx => inTurns(pairUploads(ctx),
      uploadId => ({ method: 'POST', path: '/api/vote', body: json({ uploadId, vote: 'fucks' }) }),
      uploadId => ({ method: 'DELETE', path: `/api/vote?uploadId=${uploadId}` })),
    baseline: (db, url, ctx, body, call) => call.method === 'POST'
      ? castVote(db, ctx.actor, body as { uploadId: string, vote: 'fucks' })
      : removeVote(db, ctx.actor, url.searchParams.get('uploadId') ?? ''),
  },
  {
    name: 'PUT then DELETE /api/upload/{id}/favourite (in turns)',
    method: 'PUT',
    path: '/api/upload/{id}/favourite',
    auth: true,
    read: false,
    minimal: true,
    routes: ['PUT /api/upload/:id/favourite', 'DELETE /api/upload/:id/favourite'],
    requests: ctx => inTurns(ctx.uploadIds.slice(0, 50),
      id => ({ method: 'PUT', path: `/api/upload/${id}/favourite` }),
      id => ({ method: 'DELETE', path: `/api/upload/${id}/favourite` })),
    baseline: (db, _url, ctx, _body, call) => setFavourite(db, ctx.actor, call.params.id!, call.method === 'PUT'),
  },
  {
    name: 'POST /api/upload/{id}/comments',
    method: 'POST',
    path: '/api/upload/{id}/comments',
    auth: true,
    read: false,
    minimal: true,
    routes: ['POST /api/upload/:id/comments'],
    prepare: chooseCommentedUploads,
    requests: () => commentedUploads.map(id => ({
      method: 'POST',
      path: `/api/upload/${id}/comments`,
      body: json({ body: 'It does, and this is a plain line of text about as long as most comments are.' }),
    })),
    baseline: (db, _url, ctx, body, call) => postComment(db, ctx.actor, call.params.id!, body as { body: string }),
  },
  {
    name: 'PUT /api/comments/{id}/vote (up, then down)',
    method: 'PUT',
    path: '/api/comments/{id}/vote',
    auth: true,
    read: false,
    minimal: true,
    routes: ['PUT /api/comments/:id/vote'],
    prepare: makeComments,
    requests: ctx => inTurns(ctx.commentIds!,
      id => ({ method: 'PUT', path: `/api/comments/${id}/vote`, body: json({ vote: 'up' }) }),
      id => ({ method: 'PUT', path: `/api/comments/${id}/vote`, body: json({ vote: 'down' }) })),
    baseline: (db, _url, ctx, body, call) => voteComment(db, ctx.actor, call.params.id!, (body as { vote: 'up' | 'down' }).vote),
  },
  {
    // A typo fixed: the description rewritten and the last tag swapped for another, then both put back.
    name: 'PATCH /api/upload/{id} (in turns)',
    method: 'PATCH',
    path: '/api/upload/{id}',
    auth: true,
    read: false,
    minimal: true,
    routes: ['PATCH /api/upload/:id'],
    prepare: chooseEditedUploads,
    requests: ctx => [
      ...ctx.edited!.map(({ id, tags }, i) => ({ method: 'PATCH', path: `/api/upload/${id}`, body: json({ description: 'Edited: it does, on second thought.', tags: [...tags.slice(0, -1), editTag(i)] }) })),
      ...ctx.edited!.map(({ id, tags }) => ({ method: 'PATCH', path: `/api/upload/${id}`, body: json({ description: 'Edited back: it does not, after all.', tags }) })),
    ],
    baseline: (db, _url, ctx, body, call) => editUpload(db, ctx.actor, call.params.id!, body as { description: string, tags: string[] }),
  },
  {
    name: 'POST /api/duel',
    method: 'POST',
    path: '/api/duel',
    auth: true,
    read: false,
    minimal: true,
    prepare: duels.prepare,
    requests: singleUse(duels.request),
    baseline: (db, _url, ctx, body) => {
      const judge = { userId: ctx.actor.id }
      const { duelId, winner } = body as { duelId: string, winner: 'left' | 'right' }
      return judgeDuel(db, judge, openDuel(duels.key(ctx), duelId, judge), winner)
    },
  },
]

/**
 * Page 1 of every ranking over a day, a week, a month and all time: timed as uncached
 * SQL only (their HTTP answers are cached like the others).
 */
export const periodScenarios: Scenario[] = PERIOD_SORTS.flatMap(sort => (['day', 'week', 'month', 'all'] as const).map((period): Scenario => ({
  name: `GET /api/uploads?sort=${sort}&period=${period}`,
  method: 'GET',
  path: `/api/uploads?sort=${sort}&period=${period}`,
  read: true,
  baseline: (db, url) => listUploads(db, paging(url), viewOf(url)),
})))
