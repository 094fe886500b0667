import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { random } from '../../scripts/lib/seed'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { databaseOf, seedUpload } from '../support/seed'
import { startServer, type RunningServer } from '../support/server'
import { postUpload } from '../support/uploads'

// Own server: on PostgreSQL a page past the first of the newest uploads starts at the day
// its first row is in, found by summing upload_days (public uploads per day, kept by
// triggers) over the newest 32 days, or else upload_months and then one month's days.
// These tests hold every page shape to one plain query over the table, and the kept counts
// to a recount, through uploads made, hidden, shown and deleted, an account deleted with
// its uploads, also in parallel.
let server: RunningServer
let owner: TestUser
let leaving: TestUser

const DAY = 24 * 3600_000

/** The ids of all public uploads (or one account's), newest first, as one plain query. */
async function reference(user?: TestUser): Promise<string[]> {
  const rows = await databaseOf(server).db.all<{ id: string }>(sql`SELECT id FROM uploads
    WHERE is_private = 0${user ? sql` AND user_id = ${user.id}` : sql``} ORDER BY created_at DESC, id DESC`)
  return rows.map(row => row.id)
}

const ids = async (query: string): Promise<string[]> => {
  const response = await api(`/api/uploads?${query}`, { baseURL: server.url })
  expect(response.status).toBe(200)
  return (response.body.uploads as { id: string }[]).map(entry => entry.id)
}

/** Every page past the first, at several page sizes, and the first page past the end. */
async function expectEveryPage() {
  const expected = await reference()
  for (const limit of [1, 7, 20, 100]) {
    const last = Math.ceil(expected.length / limit) + 1
    const pages = limit === 1 ? [...Array.from({ length: 30 }, (_, i) => i + 2), last - 2, last - 1, last] : Array.from({ length: last - 1 }, (_, i) => i + 2)
    for (const page of pages) {
      expect(await ids(`limit=${limit}&page=${page}`), `limit ${limit}, page ${page}`).toEqual(expected.slice((page - 1) * limit, page * limit))
    }
  }
}

/** upload_days and upload_months hold exactly a recount of the public uploads per day and per month. */
async function expectDayCounts() {
  const { db } = databaseOf(server)
  const kept = await db.all<{ day: string, n: number }>(sql`SELECT day, public_uploads AS n FROM upload_days WHERE public_uploads <> 0 ORDER BY day`)
  const counted = await db.all<{ day: string, n: number }>(sql`SELECT substr(created_at, 1, 10) AS day, count(*) AS n FROM uploads
    WHERE is_private = 0 GROUP BY substr(created_at, 1, 10) ORDER BY day`)
  expect(kept).toEqual(counted)
  expect(counted.length).toBeGreaterThan(40)
  const keptMonths = await db.all<{ month: string, n: number }>(sql`SELECT month, public_uploads AS n FROM upload_months WHERE public_uploads <> 0 ORDER BY month`)
  const countedMonths = await db.all<{ month: string, n: number }>(sql`SELECT substr(created_at, 1, 7) AS month, count(*) AS n FROM uploads
    WHERE is_private = 0 GROUP BY substr(created_at, 1, 7) ORDER BY month`)
  expect(keptMonths).toEqual(countedMonths)
  expect(countedMonths.length).toBeGreaterThan(3)
}

const postLink = (description: string) =>
  postUpload(owner, { upload_type: 'link', description, external_url: `https://example.com/${encodeURIComponent(description)}` }, undefined, server.url)

beforeAll(async () => {
  server = await startServer({ NUXT_RATE_LIMIT_ENABLED: 'false' })
  owner = await registerUser({}, server.url)
  leaving = await registerUser({}, server.url)
  const rand = random(11)
  // Days of one to twelve uploads over five months, some days empty, a few uploads private,
  // some by an account deleted later; ties on created_at so id decides.
  for (let day = 0; day < 60; day++) {
    const count = rand() < 0.2 ? 0 : 1 + Math.floor(rand() * 12)
    const at = new Date(Date.parse('2026-01-01T00:00:00.000Z') - day * 2.5 * DAY)
    for (let i = 0; i < count; i++) {
      const createdAt = new Date(at.getTime() + Math.floor(rand() * 4) * 3600_000).toISOString()
      await seedUpload(rand() < 0.1 ? leaving : owner, { createdAt, isPrivate: rand() < 0.15, description: `Day ${day} upload ${i}` }, server)
    }
  }
}, 120_000)
afterAll(() => server.stop())

describe('pages past the first of the newest uploads', () => {
  it('equal the plain order at every page size, up to the first page past the end', async () => {
    await expectDayCounts()
    await expectEveryPage()
    expect(await ids('limit=20&page=1000')).toEqual([])
  })

  it('stay exact as uploads are made, hidden, shown and deleted through the API', async () => {
    const made = []
    for (let i = 0; i < 3; i++) {
      const response = await postLink(`newest page ${i}`)
      expect(response.status).toBe(201)
      made.push((response.body.upload as { id: string }).id)
    }
    const older = (await reference(owner))[25]!
    expect((await api(`/api/upload/${older}/privacy`, { baseURL: server.url, method: 'PATCH', token: owner.token })).body.is_private).toBe(1)
    expect((await api(`/api/upload/${made[0]}/privacy`, { baseURL: server.url, method: 'PATCH', token: owner.token })).body.is_private).toBe(1)
    expect((await api(`/api/upload/${made[0]}/privacy`, { baseURL: server.url, method: 'PATCH', token: owner.token })).body.is_private).toBe(0)
    const deleted = (await reference(owner))[40]!
    expect((await api(`/api/upload/${deleted}`, { baseURL: server.url, method: 'DELETE', token: owner.token })).status).toBe(200)
    await expectDayCounts()
    await expectEveryPage()
  })

  it('keep exact counts through uploads, privacy changes and deletions in parallel', async () => {
    const before = await reference()
    const mine = await reference(owner)
    const toggled = mine.slice(5, 25)
    const removed = mine.slice(30, 40)
    const leavingPublic = (await reference(leaving)).length
    expect(leavingPublic).toBeGreaterThan(5)
    const results = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => postLink(`parallel ${i}`)),
      ...toggled.map(id => api(`/api/upload/${id}/privacy`, { baseURL: server.url, method: 'PATCH', token: owner.token })),
      ...removed.map(id => api(`/api/upload/${id}`, { baseURL: server.url, method: 'DELETE', token: owner.token })),
      api('/api/profile', { baseURL: server.url, method: 'DELETE', token: leaving.token, body: { password: leaving.password } }),
    ])
    expect(results.map(response => response.status)).toEqual([...Array(12).fill(201), ...Array(20).fill(200), ...Array(10).fill(200), 200])
    const after = await reference()
    expect(after.length).toBe(before.length + 12 - 20 - 10 - leavingPublic)
    await expectDayCounts()
    await expectEveryPage()
  })
})
