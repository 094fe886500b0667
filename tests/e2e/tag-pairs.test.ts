import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { inList, sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { seedUpload, serverDatabase } from '../support/seed'
import { testEngine } from '../support/server'
import { postUpload } from '../support/uploads'

// tag_pairs keeps, for each pair of tags, how many public uploads carry both, by triggers
// on upload_tags and uploads; an AND of two tags answers it as its total when it walks the
// rarer tag's links (server/services/lists/tags.ts, pairPage). These tags are this
// file's own (a random prefix), so the shared server's other uploads never touch them.
const prefix = `pair${randomUUID().slice(0, 6)}`
const tagOf = (name: string) => `${prefix}-${name}`

/** Each pair among the tags: its kept count (0 when no row) and its public uploads counted from the links. */
async function pairCounts(names: string[]) {
  const { db } = serverDatabase()
  const slugs = names.map(tagOf)
  const rows = await db.all<{ first: string, second: string, kept: number, counted: number }>(sql`SELECT a.slug AS first, b.slug AS second,
      coalesce((SELECT p.public_uploads FROM tag_pairs p WHERE p.first_tag_id = a.id AND p.second_tag_id = b.id), 0) AS kept,
      (SELECT count(*) FROM upload_tags x JOIN upload_tags y ON y.upload_id = x.upload_id AND y.tag_id = b.id
        JOIN uploads u ON u.id = x.upload_id AND u.is_private = 0 WHERE x.tag_id = a.id) AS counted
    FROM tags a JOIN tags b ON b.id > a.id WHERE a.slug ${inList(slugs)} AND b.slug ${inList(slugs)}`)
  return rows.map(row => ({ pair: [row.first, row.second].sort().join(' & '), kept: Number(row.kept), counted: Number(row.counted) }))
    .sort((x, y) => (x.pair < y.pair ? -1 : 1))
}

/** Every pair's kept count equals its count from the links; the kept counts by pair. */
async function expectExact(names: string[]) {
  const counts = await pairCounts(names)
  expect(counts.filter(count => count.kept !== count.counted)).toEqual([])
  return Object.fromEntries(counts.map(count => [count.pair.replaceAll(`${prefix}-`, ''), count.kept]))
}

const linkUpload = (user: TestUser, tags: string[], isPrivate = false) => postUpload(user, {
  upload_type: 'link', description: 'Paired link', external_url: `https://example.com/${randomUUID()}`,
  tags: tags.map(tagOf).join(', '), is_private: String(isPrivate),
})

const ids = (body: { uploads: { id: string }[] }) => body.uploads.map(entry => entry.id)

describe('kept pair counts', () => {
  it('follow tags added, privacy changed, uploads and accounts deleted', async () => {
    const names = ['a1', 'b1', 'c1']
    const [alice, bob] = await Promise.all([registerUser(), registerUser()])
    const first = await linkUpload(alice, ['a1', 'b1', 'c1'])
    expect(first.status).toBe(201)
    const second = await linkUpload(alice, ['b1', 'a1'])
    expect((await linkUpload(alice, ['a1', 'c1'], true)).status).toBe(201)
    expect((await linkUpload(bob, ['c1', 'a1'])).status).toBe(201)
    expect(await expectExact(names)).toEqual({ 'a1 & b1': 2, 'a1 & c1': 2, 'b1 & c1': 1 })

    const id = second.body.upload.id as string
    const added = await api(`/api/uploads/${id}/tags`, { method: 'POST', token: alice.token, body: { tags: [tagOf('c1')] } })
    expect(added.status).toBe(200)
    expect(await expectExact(names)).toEqual({ 'a1 & b1': 2, 'a1 & c1': 3, 'b1 & c1': 2 })

    expect((await api(`/api/upload/${id}/privacy`, { method: 'PATCH', token: alice.token })).body.upload.is_private).toBe(1)
    expect(await expectExact(names)).toEqual({ 'a1 & b1': 1, 'a1 & c1': 2, 'b1 & c1': 1 })
    expect((await api(`/api/upload/${id}/privacy`, { method: 'PATCH', token: alice.token })).body.upload.is_private).toBe(0)
    expect(await expectExact(names)).toEqual({ 'a1 & b1': 2, 'a1 & c1': 3, 'b1 & c1': 2 })

    expect((await api(`/api/upload/${first.body.upload.id}`, { method: 'DELETE', token: alice.token })).status).toBe(200)
    expect(await expectExact(names)).toEqual({ 'a1 & b1': 1, 'a1 & c1': 2, 'b1 & c1': 1 })
    expect((await api('/api/profile', { method: 'DELETE', token: bob.token, body: { password: bob.password } })).status).toBe(200)
    expect(await expectExact(names)).toEqual({ 'a1 & b1': 1, 'a1 & c1': 1, 'b1 & c1': 1 })
  })

  it('stay exact under uploads, tags, privacy changes and deletions side by side', async () => {
    const names = ['a2', 'b2', 'c2', 'd2']
    const users = await Promise.all([registerUser(), registerUser(), registerUser()])
    // 18 uploads at once, each with three or four of the tags in its own order.
    const made = await Promise.all(Array.from({ length: 18 }, (_, i) => {
      const tags = [names[i % 4]!, names[(i + 1) % 4]!, names[(i + 2) % 4]!, ...(i % 3 === 0 ? [names[(i + 3) % 4]!] : [])]
      return linkUpload(users[i % 3]!, i % 2 === 0 ? tags : tags.reverse(), i % 5 === 4)
    }))
    expect(made.map(response => response.status)).toEqual(Array(18).fill(201))
    const made18 = await expectExact(names)
    expect(Object.values(made18).reduce((sum, count) => sum + count, 0)).toBeGreaterThan(40)

    // Then tags added, privacy flipped and uploads deleted, all at once.
    const owner = (i: number) => users[i % 3]!
    const idOf = (i: number) => made[i]!.body.upload.id as string
    const results = await Promise.all([
      ...[0, 1, 2, 3, 4, 5].map(i => api(`/api/uploads/${idOf(i)}/tags`, { method: 'POST', token: owner(i).token, body: { tags: names.map(tagOf) } })),
      ...[6, 7, 8, 9].map(i => api(`/api/upload/${idOf(i)}/privacy`, { method: 'PATCH', token: owner(i).token })),
      ...[10, 11, 12, 13, 14].map(i => api(`/api/upload/${idOf(i)}`, { method: 'DELETE', token: owner(i).token })),
    ])
    expect(results.map(response => response.status)).toEqual(Array(15).fill(200))
    await expectExact(names)
  })

  it('count each pair once when one statement links or unlinks several tags', async () => {
    // The way a copy of the data (move-data) writes links: many rows a statement.
    const names = ['a3', 'b3', 'c3']
    const user = await registerUser()
    const { db, seeder } = serverDatabase()
    const uploads = [await seedUpload(user), await seedUpload(user), await seedUpload(user, { isPrivate: true })]
    const tagIds = await Promise.all(names.map(name => seeder.tag(tagOf(name))))
    const links = uploads.flatMap(upload => tagIds.map((tag, position) => sql`(${upload}, ${tag}, ${position})`))
    await db.run(sql`INSERT INTO upload_tags (upload_id, tag_id, position) VALUES ${sql.join(links)}`)
    expect(await expectExact(names)).toEqual({ 'a3 & b3': 2, 'a3 & c3': 2, 'b3 & c3': 2 })
    await db.run(sql`DELETE FROM upload_tags WHERE upload_id ${inList(uploads)} AND tag_id ${inList(tagIds.slice(0, 2))}`)
    expect(await expectExact(names)).toEqual({ 'a3 & b3': 0, 'a3 & c3': 0, 'b3 & c3': 0 })
  })
})

describe('an AND of two tags', () => {
  it('lists a voted upload as soon as an edit gives it the second tag, before any ranked page', async () => {
    // A vote leaves its upload's links' copies of the counts waiting (services/rank-copies.ts);
    // the link the edit adds copies the counts at once. Walked on both engines: "w2" is on
    // more than three times as many uploads as "w1" (tags.ts, walkPays).
    const [alice, bob] = await Promise.all([registerUser(), registerUser()])
    for (let i = 0; i < 4; i++) expect((await linkUpload(alice, ['w2'])).status).toBe(201)
    const id = (await linkUpload(alice, ['w1'])).body.upload.id as string
    expect((await api('/api/vote', { method: 'POST', token: bob.token, body: { uploadId: id, vote: 'fucks' } })).status).toBe(200)
    expect((await api(`/api/upload/${id}`, { method: 'PATCH', token: alice.token, body: { tags: [tagOf('w1'), tagOf('w2')] } })).status).toBe(200)
    const [pair, search] = await Promise.all([
      api(`/api/uploads/filtered?tags=${tagOf('w1')},${tagOf('w2')}`),
      api(`/api/search?q=${encodeURIComponent(`${tagOf('w1')} ${tagOf('w2')}`)}`),
    ])
    expect({ total: pair.body.total, ids: ids(pair.body) }).toEqual({ total: 1, ids: [id] })
    expect({ total: search.body.total, ids: ids(search.body) }).toEqual({ total: 1, ids: [id] })
  })

  it('gives the same pages and total walked down the rarer tag as matched whole', async () => {
    // 30 uploads carry "many", 8 of them "few" too, 3 more "few" alone, and one of them
    // "one". A page that reaches few enough of the rarer tag's uploads walks them;
    // others match both tags whole (server/services/lists/tags.ts, walkPays).
    const user = await registerUser()
    const seeded: { id: string, tags: string[] }[] = []
    for (let i = 0; i < 33; i++) {
      const tags = [...(i < 30 ? [tagOf('many')] : []), ...((i % 3 === 0 && i < 24) || i >= 30 ? [tagOf('few')] : []), ...(i === 5 ? [tagOf('one')] : [])]
      seeded.push({ id: await seedUpload(user, { tags, createdAt: new Date(Date.UTC(2002, 0, 1, 0, i)).toISOString(), upvotes: i % 4 }), tags })
    }
    await seedUpload(user, { tags: [tagOf('many'), tagOf('few')], isPrivate: true, createdAt: new Date(Date.UTC(2002, 0, 2)).toISOString() })
    const both = seeded.filter(entry => entry.tags.includes(tagOf('many')) && entry.tags.includes(tagOf('few')))
    expect(both).toHaveLength(8)
    const newest = both.map(entry => entry.id).reverse()
    const top = [...both].sort((x, y) => (seeded.indexOf(y) % 4) - (seeded.indexOf(x) % 4) || seeded.indexOf(y) - seeded.indexOf(x)).map(entry => entry.id)

    // Votes are up only (i % 4 of them), so best ranks as top does and divisive is all ties
    // (newest first); hot adds log10 of the votes to the age. Those without votes come from
    // their own index, merged (tags.ts, linkRanges).
    const hotOf = (entry: { id: string }) => Math.log10(Math.max(seeded.findIndex(row => row.id === entry.id) % 4, 1)) + seeded.findIndex(row => row.id === entry.id) * 60 / 45000
    const hot = [...both].sort((x, y) => hotOf(y) - hotOf(x)).map(entry => entry.id)
    for (const [sort, expected] of [['new', newest], ['top', top], ['best', top], ['divisive', newest], ['hot', hot]] as const) {
      for (const limit of [1, 2, 3, 10]) {
        for (let page = 1; page <= Math.ceil(8 / limit) + 1; page++) {
          const { status, body } = await api(`/api/uploads/filtered?tags=${tagOf('many')},${tagOf('few')}&sort=${sort}&limit=${limit}&page=${page}`)
          expect(status).toBe(200)
          expect(body.total, `${sort} ${limit} ${page}`).toBe(8)
          expect(ids(body), `${sort} ${limit} ${page}`).toEqual(expected.slice((page - 1) * limit, page * limit))
        }
      }
    }
    const one = await api(`/api/uploads/filtered?tags=${tagOf('one')},${tagOf('many')}`)
    expect({ total: one.body.total, ids: ids(one.body) }).toEqual({ total: 1, ids: [seeded[5]!.id] })
    expect(await expectExact(['many', 'few', 'one'])).toEqual({ 'few & many': 8, 'few & one': 0, 'many & one': 1 })

    // A walked page answers the kept count, a page matched whole counts: with the kept
    // counts made wrong for a moment, pages not asked for before (none kept) tell them
    // apart. SQLite walks "few" for one entry and "one" (each link looked up), and
    // matches ten entries whole; PostgreSQL walks "few" either way (merging both
    // ranges) but matches "one" and "many" by its GIN index.
    const { db } = serverDatabase()
    const shift = (by: number) => db.run(sql`UPDATE tag_pairs SET public_uploads = public_uploads + ${by}
      WHERE first_tag_id IN (SELECT id FROM tags WHERE slug ${inList([tagOf('many'), tagOf('few'), tagOf('one')])})
        AND second_tag_id IN (SELECT id FROM tags WHERE slug ${inList([tagOf('many'), tagOf('few'), tagOf('one')])})`)
    await shift(91)
    try {
      const asked = await Promise.all([
        api(`/api/uploads/filtered?tags=${tagOf('few')},${tagOf('many')}&sort=hot&limit=1`),
        api(`/api/uploads/filtered?tags=${tagOf('few')},${tagOf('many')}&sort=hot&limit=10`),
        api(`/api/uploads/filtered?tags=${tagOf('one')},${tagOf('many')}&sort=hot&limit=1`),
      ])
      expect(asked.map(answer => answer.body.total)).toEqual(testEngine() === 'postgres' ? [99, 99, 1] : [99, 8, 92])
      expect(ids(asked[0]!.body)).toEqual(ids(asked[1]!.body).slice(0, 1))
      expect(ids(asked[1]!.body).sort()).toEqual([...newest].sort())
      expect(ids(asked[2]!.body)).toEqual([seeded[5]!.id])
    }
    finally {
      await shift(-91)
    }
    expect(await expectExact(['many', 'few', 'one'])).toEqual({ 'few & many': 8, 'few & one': 0, 'many & one': 1 })

    // Votes reach the walked ranked page at once: it finds their counts pending for the
    // links' copies, copies them and reads again (server/services/rank-copies.ts).
    const last = top.at(-1)!
    for (const voter of await Promise.all(Array.from({ length: 4 }, () => registerUser()))) {
      expect((await api('/api/vote', { method: 'POST', body: { uploadId: last, vote: 'fucks' }, token: voter.token })).status).toBe(200)
    }
    const voted = await api(`/api/uploads/filtered?tags=${tagOf('many')},${tagOf('few')}&sort=top&limit=1`)
    expect({ ids: ids(voted.body), total: voted.body.total }).toEqual({ ids: [last], total: 8 })
  })
})
