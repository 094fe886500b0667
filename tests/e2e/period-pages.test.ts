import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { random } from '../../scripts/lib/seed'
import { sql } from '../../server/database/sql'
import { periodStart, type Period } from '../../shared/utils/ranking'
import { api, registerUser } from '../support/api'
import { databaseOf, seedUpload } from '../support/seed'
import { startServer, type RunningServer } from '../support/server'

// Own server: a period's page is merged from each day's head (uploads_public_day_*_idx),
// and a year's page first looks among the first 1,000 rows of the whole ranking. These
// tests hold every page shape of both ways to one plain query over the period. Older
// uploads that outrank the recent ones send a year's best page through that first look
// (500 of them, so the recent ones are among the first 1,000) and its top and divisive
// pages through the days (1,000 or more outrank every recent one).
let server: RunningServer

const HOUR = 3600_000
const UPLOADS = 320
/** Spread over 40 days, never within ten minutes of a period's start (whose minute the server rounds to). */
const ages = Array.from({ length: UPLOADS }, (_, i) => 10 * 60_000 + Math.floor((i / UPLOADS) * 40 * 24 * HOUR))
const nearBoundary = (age: number) => [24 * HOUR, 7 * 24 * HOUR, 30 * 24 * HOUR].some(edge => Math.abs(age - edge) < 10 * 60_000)

const ORDERS = {
  top: 'upvotes DESC, downvote_count DESC, created_at DESC, id DESC',
  best: 'best_score DESC, created_at DESC, id DESC',
  divisive: 'divisive_score DESC, created_at DESC, id DESC',
  // No upload here has a favourite: every day ties, and the dates alone order them.
  favourites: 'favourites DESC, created_at DESC, id DESC',
} as const

/** The ids of the period's public uploads in the sort's order, as one plain query over the table. */
async function reference(sort: keyof typeof ORDERS, period: Period): Promise<string[]> {
  const since = periodStart(period)
  const rows = await databaseOf(server).db.all<{ id: string }>(sql`SELECT id FROM uploads
    WHERE is_private = 0 AND created_at >= ${since ?? ''} ORDER BY ${sql.raw(ORDERS[sort])}`)
  return rows.map(row => row.id)
}

const ids = async (path: string) => {
  const response = await api(path, { baseURL: server.url })
  expect(response.status).toBe(200)
  return (response.body.uploads as { id: string }[]).map(entry => entry.id)
}

beforeAll(async () => {
  server = await startServer({ NUXT_RATE_LIMIT_ENABLED: 'false' })
  const owner = await registerUser({}, server.url)
  const rand = random(7)
  for (const [i, age] of ages.entries()) {
    if (nearBoundary(age)) continue
    // Many ties (no votes, equal counts) so the order's later columns decide too.
    const votes = rand() < 0.3 ? 0 : Math.floor(rand() * 12)
    const upvotes = Math.floor(rand() * (votes + 1))
    await seedUpload(owner, {
      createdAt: new Date(Date.now() - age).toISOString(),
      upvotes,
      downvotes: votes - upvotes,
      isPrivate: i % 17 === 0,
      description: `Period page ${i}`,
    }, server)
  }
  // One day that holds most of every period's best rows: its page is read on past its first rows.
  for (let i = 0; i < 40; i++) {
    const upvotes = 20 + Math.floor(rand() * 20)
    await seedUpload(owner, { createdAt: new Date(Date.now() - 3 * 24 * HOUR - i * 60_000).toISOString(), upvotes, downvotes: Math.floor(rand() * 4), description: `Busy day ${i}` }, server)
  }
  // One day led by an upload above every one of the busy day's, its others below them: a
  // page that reads on the best days first reads it first, then the busy day, and stops
  // part way through the busy day, whose rows left must still be read.
  await seedUpload(owner, { createdAt: new Date(Date.now() - 10 * 24 * HOUR).toISOString(), upvotes: 60, downvotes: 0, description: 'Best of its day' }, server)
  const old = new Date(Date.now() - 400 * 24 * HOUR).toISOString()
  for (let i = 0; i < 1500; i++) {
    const [upvotes, downvotes] = i < 500 ? [200, 1] : [100, 100]
    await seedUpload(owner, { createdAt: old, upvotes, downvotes, description: `Older than a year ${i}` }, server)
  }
}, 120_000)
afterAll(() => server.stop())

describe('a period\'s pages merged from its days', () => {
  for (const sort of ['top', 'best', 'divisive', 'favourites'] as const) {
    it(`${sort}: every page equals the plain order over the period`, async () => {
      for (const period of ['day', 'week', 'month', 'year'] as const) {
        const expected = await reference(sort, period)
        expect(expected.length).toBeGreaterThan(period === 'day' ? 3 : 20)
        expect(await ids(`/api/uploads?sort=${sort}&period=${period}`)).toEqual(expected.slice(0, 10))
        const byOne = []
        for (let page = 1; page <= 12; page++) byOne.push(...await ids(`/api/uploads?sort=${sort}&period=${period}&limit=1&page=${page}`))
        expect(byOne).toEqual(expected.slice(0, 12))
        expect(await ids(`/api/uploads?sort=${sort}&period=${period}&limit=7&page=3`)).toEqual(expected.slice(14, 21))
        expect(await ids(`/api/uploads?sort=${sort}&period=${period}&limit=30`)).toEqual(expected.slice(0, 30))
        // The deepest page merged from the days (offset + limit = 200), and one past it,
        // which walks the whole period instead.
        expect(await ids(`/api/uploads?sort=${sort}&period=${period}&limit=100&page=2`)).toEqual(expected.slice(100, 200))
        expect(await ids(`/api/uploads?sort=${sort}&period=${period}&limit=100&page=3`)).toEqual(expected.slice(200, 300))
      }
    })
  }

  it('leaves out private uploads and those older than the period', async () => {
    const { db } = databaseOf(server)
    const week = await ids('/api/uploads?sort=top&period=week&limit=100')
    const rows = await db.all<{ id: string, is_private: number, created_at: string }>(sql`SELECT id, is_private, created_at FROM uploads`)
    const byId = new Map(rows.map(row => [row.id, row]))
    const since = periodStart('week')!
    for (const id of week) {
      expect(byId.get(id)!.is_private).toBe(0)
      expect(byId.get(id)!.created_at >= since).toBe(true)
    }
    expect(week).toHaveLength(rows.filter(row => row.is_private === 0 && row.created_at >= since).length)
  })
})
