import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { hotAgeSql, postgresEpochOf, sqliteEpochOf } from '../../server/database/ranking-columns'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { seedUpload, serverDatabase } from '../support/seed'

// One tag's public uploads, newest first, as a tag's page opens them: read from the tag's
// links in upload_tags_tag_newest_idx (uploads with votes) and upload_tags_tag_unvoted_idx
// (the others), merged, which carry their upload's created_at and privacy
// (kept by triggers), with the tag's kept count as the total. Every change of an upload
// that moves it in or out of the list must show at once, and the answer must be the one
// the general way gives (the same tag asked with match=any and another slug no tag has).
const TAG = `page${randomUUID().slice(0, 6)}`
// Long past, so these uploads never come first in another file's list of the newest.
const at = (minute: number) => new Date(Date.UTC(2001, 5, 1, 0, minute)).toISOString()

let owner: TestUser
/** The public uploads carrying TAG, oldest first. */
const tagged: string[] = []

beforeAll(async () => {
  owner = await registerUser()
  for (let i = 0; i < 25; i++) tagged.push(await seedUpload(owner, { tags: i % 2 ? ['other', TAG] : [TAG], createdAt: at(i) }))
  await seedUpload(owner, { tags: [TAG], isPrivate: true, createdAt: at(100) })
  await seedUpload(owner, { tags: ['other'], createdAt: at(101) })
})

const ids = (body: { uploads: { id: string }[] }) => body.uploads.map(entry => entry.id)
const page = (query: string) => api(`/api/uploads/filtered?tags=${TAG}${query}`)
/** The same list the general way: all uploads with any of TAG or a slug no tag has. */
const general = (query: string) => api(`/api/uploads/filtered?tags=${TAG},${TAG}-nowhere&match=any${query}`)

describe('one tag\'s uploads, newest first', () => {
  it('pages the public ones with their total, as the general way does', async () => {
    const newest = [...tagged].reverse()
    const first = await page('&limit=10')
    expect(first.status).toBe(200)
    expect(first.body.total).toBe(25)
    expect(first.body.page).toBe(1)
    expect(first.body.limit).toBe(10)
    expect(ids(first.body)).toEqual(newest.slice(0, 10))
    expect(first.body).toEqual((await general('&limit=10')).body)
    const third = await page('&limit=10&page=3')
    expect(ids(third.body)).toEqual(newest.slice(20, 25))
    expect(third.body).toEqual((await general('&limit=10&page=3')).body)
    expect((await page('&limit=10&page=4')).body).toEqual({ uploads: [], total: 25, page: 4, limit: 10 })
    // Entries carry every tag of their upload, in order.
    expect(first.body.uploads[0].tags.map((tag: { slug: string }) => tag.slug)).toEqual([TAG])
    expect(first.body.uploads[1].tags.map((tag: { slug: string }) => tag.slug)).toEqual(['other', TAG])
  })

  it('is empty for a slug no tag has', async () => {
    expect((await api(`/api/uploads/filtered?tags=${TAG}-nowhere`)).body).toEqual({ uploads: [], total: 0, page: 1, limit: 10 })
  })

  it('follows an upload made private and public again, and a tag added later', async () => {
    const middle = tagged[12]!
    expect((await api(`/api/upload/${middle}/privacy`, { method: 'PATCH', token: owner.token })).status).toBe(200)
    let list = (await page('&limit=100')).body
    expect(list.total).toBe(24)
    expect(ids(list)).not.toContain(middle)
    expect(list).toEqual((await general('&limit=100')).body)
    expect((await api(`/api/upload/${middle}/privacy`, { method: 'PATCH', token: owner.token })).status).toBe(200)
    list = (await page('&limit=100')).body
    expect(list.total).toBe(25)
    expect(ids(list)).toEqual([...tagged].reverse())

    // An older upload tagged now takes its place by its own date, not the tag's.
    const older = await seedUpload(owner, { tags: ['other'], createdAt: at(-5) })
    expect((await api(`/api/uploads/${older}/tags`, { method: 'POST', body: { tags: [TAG] }, token: owner.token })).status).toBe(200)
    list = (await page('&limit=100')).body
    expect(list.total).toBe(26)
    expect(ids(list)).toEqual([...tagged].reverse().concat(older))
    expect(list).toEqual((await general('&limit=100')).body)

    // Deleted, it is gone from the list and the total.
    expect((await api(`/api/upload/${older}`, { method: 'DELETE', token: owner.token })).status).toBe(200)
    expect((await page('&limit=100')).body.total).toBe(25)
  })

  it('keeps each link\'s copy of its upload\'s date and privacy', async () => {
    // What the database keeps, on either engine: no link differs from its upload.
    const { db } = serverDatabase()
    const differing = await db.get<{ n: number | string }>(sql`SELECT count(*) AS n FROM upload_tags ut JOIN uploads u ON u.id = ut.upload_id
      WHERE ut.upload_created_at <> u.created_at OR ut.upload_is_private <> u.is_private`)
    expect(Number(differing!.n)).toBe(0)
  })
})

describe('one tag\'s uploads ranked, over a period, or narrowed by the caller', () => {
  // Read from the tag's links too (the period's links only); each answer must equal the general way's.
  const RANKED = `${TAG}-ranked`
  const HIDDEN = `${TAG}-hidden`
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString()
  /** [days ago, up, down, also hidden-tagged] */
  const ROWS: [number, number, number, boolean][] = [[0.5, 3, 1, false], [2, 9, 0, true], [3, 1, 4, false], [6, 5, 5, false], [9, 12, 2, false], [20, 0, 7, true], [40, 7, 1, false], [400, 20, 0, false]]
  const rankedIds: string[] = []
  let viewer: TestUser

  beforeAll(async () => {
    viewer = await registerUser()
    for (const [days, upvotes, downvotes, hidden] of ROWS) {
      rankedIds.push(await seedUpload(owner, { tags: hidden ? [RANKED, HIDDEN] : [RANKED], createdAt: daysAgo(days), upvotes, downvotes }))
    }
    await seedUpload(owner, { tags: [RANKED], isPrivate: true, createdAt: daysAgo(1), upvotes: 100 })
    expect((await api('/api/profile/filters', { method: 'PUT', body: { hiddenTags: [HIDDEN] }, token: viewer.token })).status).toBe(200)
  })

  const one = (query: string, token?: string) => api(`/api/uploads/filtered?tags=${RANKED}${query}`, { token })
  const both = (query: string, token?: string) => api(`/api/uploads/filtered?tags=${RANKED},${RANKED}-nowhere&match=any${query}`, { token })

  it('ranks all of them, as the general way does', async () => {
    const top = await one('&sort=top&limit=100')
    expect(top.status).toBe(200)
    expect(top.body.total).toBe(8)
    // upvotes, then downvotes, then newest.
    expect(ids(top.body)).toEqual([7, 4, 1, 6, 3, 0, 2, 5].map(i => rankedIds[i]))
    for (const sort of ['top', 'hot', 'best', 'divisive']) {
      expect((await one(`&sort=${sort}&limit=3&page=2`)).body, sort).toEqual((await both(`&sort=${sort}&limit=3&page=2`)).body)
    }
  })

  it('reads only a period\'s uploads', async () => {
    const week = await one('&sort=top&period=week&limit=100')
    expect(week.body.total).toBe(4)
    expect(ids(week.body)).toEqual([1, 3, 0, 2].map(i => rankedIds[i]))
    for (const query of ['&sort=top&period=day', '&sort=best&period=month', '&sort=divisive&period=year', '&sort=hot&period=week']) {
      expect((await one(`${query}&limit=100`)).body, query).toEqual((await both(`${query}&limit=100`)).body)
    }
  })

  it('reads a period\'s uploads with votes and without, in every order', async () => {
    const WEEK = `${TAG}-week`
    // [days ago, up, down]: three without votes among three with.
    const rows: [number, number, number][] = [[0.2, 0, 0], [1, 4, 1], [2, 0, 0], [3, 0, 2], [5, 0, 0], [6, 7, 0], [30, 0, 0], [31, 9, 9]]
    const made: string[] = []
    for (const [days, upvotes, downvotes] of rows) made.push(await seedUpload(owner, { tags: [WEEK], createdAt: daysAgo(days), upvotes, downvotes }))
    const week = (query: string) => api(`/api/uploads/filtered?tags=${WEEK}&period=week&limit=100${query}`)
    // Newest first has no period: all eight, the two ranges merged by date.
    expect(ids((await week('&sort=new')).body)).toEqual(made)
    // Upvotes, then downvotes, then newest: those without votes last, newest first.
    const top = await week('&sort=top')
    expect(ids(top.body)).toEqual([5, 1, 3, 0, 2, 4].map(i => made[i]))
    expect(top.body.total).toBe(6)
    for (const sort of ['new', 'top', 'hot', 'best', 'divisive']) {
      const general = await api(`/api/uploads/filtered?tags=${WEEK},${WEEK}-nowhere&match=any&period=week&limit=100&sort=${sort}`)
      expect((await week(`&sort=${sort}`)).body, sort).toEqual(general.body)
    }
  })

  it('leaves out what the caller hides, newest first or ranked', async () => {
    const hidden = new Set([rankedIds[1], rankedIds[5]])
    for (const query of ['', '&sort=top', '&sort=best&period=month']) {
      const mine = await one(`${query}&limit=100`, viewer.token)
      expect(mine.status).toBe(200)
      expect(ids(mine.body).some(id => hidden.has(id)), query).toBe(false)
      expect(mine.body, query).toEqual((await both(`${query}&limit=100`, viewer.token)).body)
    }
    expect((await one('&limit=100', viewer.token)).body.total).toBe(6)
  })

  it('leaves out what the caller voted on (unvoted=true) and hides, a page at a time', async () => {
    for (const i of [0, 4]) {
      expect((await api('/api/vote', { method: 'POST', body: { uploadId: rankedIds[i], vote: 'fucks' }, token: viewer.token })).status).toBe(200)
    }
    const unvoted = await one('&unvoted=true&limit=100', viewer.token)
    expect(unvoted.status).toBe(200)
    // Newest first, without the two voted on and the two hidden.
    expect(ids(unvoted.body)).toEqual([2, 3, 6, 7].map(i => rankedIds[i]))
    expect(unvoted.body.total).toBe(4)
    const second = await one('&unvoted=true&limit=3&page=2', viewer.token)
    expect(ids(second.body)).toEqual([rankedIds[7]])
    expect(second.body).toMatchObject({ total: 4, page: 2, limit: 3 })
    expect(second.body).toEqual((await both('&unvoted=true&limit=3&page=2', viewer.token)).body)
  })
})

describe('one tag ranked over all time', () => {
  // Read from the tag's links in that ranking's index on upload_tags (each link carries its
  // upload's counts and rankings, kept by triggers), with the tag's kept count as the total;
  // each answer must equal the general way's, and a vote must move the upload at once.
  const COMMON = `${TAG}-common`
  const OFTEN = 150
  const ranked = (query: string) => api(`/api/uploads/filtered?tags=${COMMON}${query}`)
  const general = (query: string) => api(`/api/uploads/filtered?tags=${COMMON},${COMMON}-nowhere&match=any${query}`)
  const seeded: { id: string, upvotes: number, downvotes: number, createdAt: string }[] = []
  const byTop = () => [...seeded].sort((a, b) => b.upvotes - a.upvotes || b.downvotes - a.downvotes || b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))

  beforeAll(async () => {
    for (let i = 0; i < OFTEN; i++) {
      // Every fifth has no votes: a ranked page merges those from their own index.
      const row = i % 5 === 2 ? { upvotes: 0, downvotes: 0, createdAt: at(200 + i) } : { upvotes: (i * 7) % 11, downvotes: (i * 5) % 6, createdAt: at(200 + i) }
      seeded.push({ ...row, id: await seedUpload(owner, { tags: i % 3 ? [COMMON] : ['other', COMMON], ...row }) })
    }
    await seedUpload(owner, { tags: [COMMON], isPrivate: true, createdAt: at(400), upvotes: 500 })
  })

  it('answers every ranking as the general way does, page by page', async () => {
    const top = await ranked('&sort=top&limit=4')
    expect(top.status).toBe(200)
    expect(top.body.total).toBe(OFTEN)
    expect(ids(top.body)).toEqual(byTop().slice(0, 4).map(row => row.id))
    for (const sort of ['new', 'top', 'hot', 'best', 'divisive']) {
      for (const pageNumber of [1, 3, 38]) {
        const query = `&sort=${sort}&limit=4&page=${pageNumber}`
        expect((await ranked(query)).body, query).toEqual((await general(query)).body)
      }
    }
  })

  it('moves an upload as votes come, and ranks an upload tagged later by its own counts', async () => {
    // The last of the top page, voted up by 12 accounts, leads it.
    const last = byTop()[3]!
    const voters = await Promise.all(Array.from({ length: 12 }, () => registerUser()))
    for (const voter of voters) {
      expect((await api('/api/vote', { method: 'POST', body: { uploadId: last.id, vote: 'fucks' }, token: voter.token })).status).toBe(200)
    }
    last.upvotes += 12
    let top = await ranked('&sort=top&limit=4')
    expect(ids(top.body)[0]).toBe(last.id)
    expect(top.body.uploads[0].stats.upvotes).toBe(last.upvotes)
    // Changed minds and a withdrawn vote move it back by as much.
    for (const voter of voters.slice(0, 6)) {
      expect((await api('/api/vote', { method: 'POST', body: { uploadId: last.id, vote: 'does_not_fuck' }, token: voter.token })).status).toBe(200)
    }
    expect((await api(`/api/vote?uploadId=${last.id}`, { method: 'DELETE', token: voters[6]!.token })).status).toBe(200)
    Object.assign(last, { upvotes: last.upvotes - 7, downvotes: last.downvotes + 6 })
    top = await ranked('&sort=top&limit=4')
    expect(ids(top.body)).toEqual(byTop().slice(0, 4).map(row => row.id))

    // An upload with votes already, tagged now, comes in by its counts.
    const strong = await seedUpload(owner, { tags: ['other'], createdAt: at(500), upvotes: 90, downvotes: 1 })
    expect((await api(`/api/uploads/${strong}/tags`, { method: 'POST', body: { tags: [COMMON] }, token: owner.token })).status).toBe(200)
    top = await ranked('&sort=top&limit=4')
    expect(ids(top.body)[0]).toBe(strong)
    expect(top.body.total).toBe(OFTEN + 1)
    for (const sort of ['top', 'hot', 'best', 'divisive']) {
      for (const pageNumber of [1, 2]) {
        const query = `&sort=${sort}&limit=4&page=${pageNumber}`
        expect((await ranked(query)).body, query).toEqual((await general(query)).body)
      }
    }
  })

  it('moves an upload out of the unvoted ones at its first vote and back when it is withdrawn', async () => {
    const quiet = seeded.filter(row => row.upvotes + row.downvotes === 0).at(-1)!
    const voter = await registerUser()
    const same = async (when: string) => {
      // Newest first before the rankings: the vote's copies are not yet on the links, and the
      // upload is read from the unvoted range; a ranked page then moves it to the voted one.
      for (const sort of ['new', 'top', 'hot', 'best', 'divisive', 'new']) {
        for (const pageNumber of [1, 10, 30]) {
          const query = `&sort=${sort}&limit=5&page=${pageNumber}`
          expect((await ranked(query)).body, `${when} ${query}`).toEqual((await general(query)).body)
        }
      }
    }
    expect((await api('/api/vote', { method: 'POST', body: { uploadId: quiet.id, vote: 'does_not_fuck' }, token: voter.token })).status).toBe(200)
    quiet.downvotes = 1
    await same('voted')
    // The seeded uploads in the whole top list (the test before tagged one more).
    const wholeTop = async () => [...ids((await ranked('&sort=top&limit=100')).body), ...ids((await ranked('&sort=top&limit=100&page=2')).body)]
      .filter(id => seeded.some(row => row.id === id))
    expect((await wholeTop()).indexOf(quiet.id)).toBe(byTop().findIndex(row => row.id === quiet.id))
    expect((await api(`/api/vote?uploadId=${quiet.id}`, { method: 'DELETE', token: voter.token })).status).toBe(200)
    quiet.downvotes = 0
    await same('withdrawn')
    expect(await wholeTop()).toEqual(byTop().map(row => row.id))
  })

  it('keeps each link\'s copy of its upload\'s counts and rankings', async () => {
    const { db } = serverDatabase()
    // A ranked page computes the hot score of a link without votes from its copy of the date
    // (lists/tags.ts, UNVOTED_COPIES): it must be the upload's own, to the bit.
    const epoch = (db.dialect === 'postgres' ? postgresEpochOf : sqliteEpochOf)('ut.upload_created_at')
    const unvoted = await db.get<{ n: number | string, differing: number | string }>(sql`SELECT count(*) AS n,
        coalesce(sum(CASE WHEN ${sql.raw(hotAgeSql(epoch))} <> u.hot_score THEN 1 ELSE 0 END), 0) AS differing
      FROM upload_tags ut JOIN uploads u ON u.id = ut.upload_id WHERE u.upvotes + u.downvote_count = 0`)
    expect(Number(unvoted!.n)).toBeGreaterThan(20)
    expect(Number(unvoted!.differing)).toBe(0)
    const differing = await db.get<{ n: number | string }>(sql`SELECT count(*) AS n FROM upload_tags ut JOIN uploads u ON u.id = ut.upload_id
      WHERE ut.upload_upvotes <> u.upvotes OR ut.upload_downvote_count <> u.downvote_count OR ut.upload_hot_score <> u.hot_score
        OR ut.upload_best_score <> u.best_score OR ut.upload_divisive_score <> u.divisive_score`)
    expect(Number(differing!.n)).toBe(0)
  })
})
