import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { carryingTags } from '../../server/services/lists'
import { api, registerUser, type TestUser } from '../support/api'
import { seedUpload, serverDatabase } from '../support/seed'
import { sharedServer } from '../support/shared-server'

// On SQLite an AND of tags starts from the rarest: it looks the rarest tag's uploads up
// in the other tags when they are at least ten times as common, and intersects every
// tag's uploads otherwise; on PostgreSQL every tag filter reads the GIN index over the
// uploads' tag ids (server/services/lists/tags.ts). Every way must give the same
// uploads, newest first, with the same total, private ones left out. These tags are
// this file's own (a random prefix), so the shared server's other uploads never match;
// dated long past, so they never come first in another file's list of the newest.
const prefix = `and${randomUUID().slice(0, 6)}`
const COMMON = `${prefix}-common`
const MIDDLE = `${prefix}-middle`
const RARE = `${prefix}-rare`

/** The public uploads, oldest first, with their tags; and one private upload carrying all three. */
const seeded: { id: string, tags: string[], owner: TestUser }[] = []
let alice: TestUser
let bob: TestUser

beforeAll(async () => {
  ;[alice, bob] = await Promise.all([registerUser(), registerUser()])
  for (let i = 0; i < 40; i++) {
    // 40 common, 30 middle (three in four), 3 rare: two with both others, one with middle only.
    const tags = [COMMON, ...(i % 4 === 3 ? [] : [MIDDLE]), ...([4, 17].includes(i) ? [RARE] : [])]
    const owner = i % 3 === 0 ? bob : alice
    seeded.push({ id: await seedUpload(owner, { tags, createdAt: new Date(Date.UTC(2001, 0, 1, 0, i)).toISOString() }), tags, owner })
  }
  const lone = { id: await seedUpload(alice, { tags: [RARE, MIDDLE], createdAt: new Date(Date.UTC(2001, 0, 2)).toISOString() }), tags: [RARE, MIDDLE], owner: alice }
  seeded.push(lone)
  await seedUpload(alice, { tags: [RARE, COMMON, MIDDLE], isPrivate: true, createdAt: new Date(Date.UTC(2001, 0, 3)).toISOString() })
})

/** The seeded public uploads carrying every tag (of `owner`, when given), newest first. */
const expected = (tags: string[], owner?: TestUser) =>
  seeded.filter(entry => tags.every(tag => entry.tags.includes(tag)) && (!owner || entry.owner === owner)).map(entry => entry.id).reverse()

const ids = (body: { uploads: { id: string }[] }) => body.uploads.map(entry => entry.id)

describe('an AND of tags', () => {
  it('looks a far rarer tag up in a common one', async () => {
    // rare (3) AND common (40).
    const { status, body } = await api(`/api/uploads/filtered?tags=${COMMON},${RARE}&limit=100`)
    expect(status).toBe(200)
    expect(body.total).toBe(2)
    expect(ids(body)).toEqual(expected([COMMON, RARE]))
    expect(ids(body)).toEqual([seeded[17]!.id, seeded[4]!.id])
  })

  it('merges tags of about the same size, and pages the result', async () => {
    // middle (31) AND common (40).
    const all = expected([COMMON, MIDDLE])
    expect(all).toHaveLength(30)
    const first = (await api(`/api/uploads/filtered?tags=${MIDDLE},${COMMON}&limit=7`)).body
    expect(first.total).toBe(30)
    expect(ids(first)).toEqual(all.slice(0, 7))
    const fifth = (await api(`/api/uploads/filtered?tags=${MIDDLE},${COMMON}&limit=7&page=5`)).body
    expect(ids(fifth)).toEqual(all.slice(28, 30))
  })

  it('takes three tags, in any order, starting from the rarest', async () => {
    // rare (3), middle (31), common (40): the rare tag's uploads looked up in both others.
    for (const tags of [[RARE, MIDDLE, COMMON], [COMMON, MIDDLE, RARE], [MIDDLE, RARE, COMMON]]) {
      const { body } = await api(`/api/uploads/filtered?tags=${tags.join(',')}&limit=100`)
      expect(body.total, tags.join()).toBe(2)
      expect(ids(body), tags.join()).toEqual([seeded[17]!.id, seeded[4]!.id])
    }
  })

  it('keeps the rare tag\'s upload without the common one, and leaves the private one out', async () => {
    const { body } = await api(`/api/uploads/filtered?tags=${RARE},${MIDDLE}&limit=100`)
    expect(ids(body)).toEqual(expected([RARE, MIDDLE]))
    expect(ids(body)).toEqual([seeded[40]!.id, seeded[17]!.id, seeded[4]!.id])
    expect(body.total).toBe(3)
  })

  it('is empty when one of the tags is on no upload', async () => {
    expect((await api(`/api/uploads/filtered?tags=${RARE},${prefix}-nowhere`)).body).toEqual({ uploads: [], total: 0, page: 1, limit: 10 })
  })

  it('filters a user\'s uploads the same way', async () => {
    for (const owner of [alice, bob]) {
      for (const tags of [[COMMON, RARE], [COMMON, MIDDLE]]) {
        const { body } = await api(`/api/user/${owner.username}/uploads?tags=${tags.join(',')}&limit=100`)
        expect(ids(body), `${owner.username} ${tags.join()}`).toEqual(expected(tags, owner))
        expect(body.total).toBe(expected(tags, owner).length)
      }
    }
    expect((await api(`/api/user/${bob.username}/uploads?tags=${RARE},${prefix}-nowhere`)).body.total).toBe(0)
  })

  it('matches any of the tags, each upload once', async () => {
    const any = seeded.filter(entry => entry.tags.includes(RARE) || entry.tags.includes(MIDDLE)).map(entry => entry.id).reverse()
    expect(any).toHaveLength(31)
    const { status, body } = await api(`/api/uploads/filtered?tags=${RARE},${MIDDLE},${prefix}-nowhere&match=any&limit=100`)
    expect(status).toBe(200)
    expect(body.total).toBe(31)
    expect(ids(body)).toEqual(any)
    expect((await api(`/api/uploads/filtered?tags=${prefix}-nowhere&match=any`)).body.total).toBe(0)
  })

  it.runIf(sharedServer().databaseUrl)('reads the tags\' GIN index on PostgreSQL', async () => {
    // This file's few rows are cheaper to read whole: the plan is asked for with 5,000
    // more uploads of other tags, counted by ANALYZE, and all of it rolled back.
    class Plan extends Error {}
    const plan = (match: 'all' | 'any') => serverDatabase().db.transaction(async (tx) => {
      await tx.run(sql`INSERT INTO uploads (id, user_id, original_name, description, upload_type, external_url, tag_ids)
        SELECT ${`${prefix}-`} || g, ${alice.id}, 'plan', 'plan', 'link', 'https://example.com/', 'other-' || g % 50 || ',other-' || g % 7
        FROM generate_series(1, 5000) g`)
      await tx.exec('ANALYZE uploads')
      const rows = await tx.all<{ 'QUERY PLAN': string }>(sql`EXPLAIN SELECT u.id FROM uploads u WHERE u.is_private = 0 AND ${carryingTags([MIDDLE, COMMON], match)}`)
      throw new Plan(rows.map(row => row['QUERY PLAN']).join('\n'))
    }).then(() => '', (error: unknown) => {
      if (error instanceof Plan) return error.message
      throw error
    })
    for (const match of ['all', 'any'] as const) {
      expect(await plan(match), match).toMatch(/Bitmap Index Scan on uploads_public_tag_ids_idx .*\n\s*Index Cond: \(string_to_array\(tag_ids, ','::text\) (@>|&&)/)
    }
    expect((await api(`/api/uploads/filtered?tags=${MIDDLE},${COMMON}&limit=1`)).body.total).toBe(30)
  })
})
