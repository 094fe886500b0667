/**
 * What the benchmarks measure: each scenario is an HTTP request to the app
 * and the same work through the service functions (the SQL baseline).
 * Shared by `npm run bench` (scripts/bench.ts) and `npm run bench:scale`
 * (scripts/bench-scale.ts).
 */
import type { Database } from '../../server/database/port'
import { featureList, listFilteredUploads, listUploads, listUserUploads, PUBLIC_VIEW, type ListView } from '../../server/services/lists'
import { castVote } from '../../server/services/votes'
import type { Actor } from '../../server/services/sessions'
import { PERIOD_SORTS, periodStart, type Period, type Sort } from '../../shared/utils/ranking'
import { bulkTagName, bulkUsername } from './seed'

/** What a scenario may use: the seeded data and a signed-in user. */
export interface BenchContext {
  token: string
  actor: Actor
  uploadIds: string[]
}

export interface Scenario {
  name: string
  method: 'GET' | 'POST'
  path: string
  /** Request bodies, cycled per connection (POST). */
  bodies?: (ctx: BenchContext) => unknown[]
  /** Needs the session cookie. */
  auth?: boolean
  /** The same work without a framework, for the baseline server. */
  baseline: (db: Database, url: URL, ctx: BenchContext, body: unknown) => Promise<unknown>
  /** Reads are held to the goal (>= 60% of the baseline, p99 < 50 ms). */
  read: boolean
  /** A write also measured against the minimal vote reference (scripts/lib/bench-minimal-vote.ts), which serves this path. */
  minimal?: boolean
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
