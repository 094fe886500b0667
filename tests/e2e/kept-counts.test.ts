import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findDrift, KEPT_COUNTS } from '../../server/database/kept-counts'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { databaseOf, makeAdmin } from '../support/seed'
import { ROOT, startServer, type RunningServer } from '../support/server'
import { postUpload } from '../support/uploads'

// Every kept count and copy (server/database/kept-counts.ts) against its recount after
// a mixed workload sent in parallel: uploads with shared tags, votes cast, changed and
// withdrawn, anonymous votes, tags added, edited and removed, descriptions edited, privacy flipped, uploads
// and an account deleted, uploads removed by an admin. Own server, so no other file's writes run in between.
let server: RunningServer
let users: TestUser[]
let moderator: TestUser

/** Searches whose totals read a kept triple (tag_triples). */
const TRIPLES = ['(red OR green) blue', '(black OR white) red', '(green OR black) white']

const call = (path: string, user: TestUser | null, init: { method?: string, body?: unknown } = {}) =>
  api(path, { baseURL: server.url, token: user?.token, ...init })

const link = (user: TestUser, tags: string[], isPrivate = false) => postUpload(user, {
  upload_type: 'link', description: `Kept ${randomUUID().slice(0, 8)}`, external_url: `https://example.com/${randomUUID()}`,
  tags: tags.join(', '), is_private: String(isPrivate),
}, undefined, server.url)

/** `npm run admin -- …` against the server's database. */
const admin = (...args: string[]) => promisify(execFile)(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/admin.ts'), ...args], {
  cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, NUXT_DATA_DIR: server.dataDir, NUXT_DATABASE_URL: server.databaseUrl },
})

beforeAll(async () => {
  server = await startServer({ NUXT_RATE_LIMIT_ENABLED: 'false' })
  users = await Promise.all(Array.from({ length: 4 }, () => registerUser({}, server.url)))
  moderator = await makeAdmin(await registerUser({}, server.url), server)
}, 60_000)
afterAll(() => server.stop())

describe('kept counts', () => {
  it('equal their recounts after a mixed workload in parallel', async () => {
    const tags = ['red', 'green', 'blue', 'black', 'white']
    const made = await Promise.all(Array.from({ length: 16 }, (_, i) =>
      link(users[i % 4]!, tags.filter((_, k) => (i + k) % 3 !== 0), i % 5 === 0)))
    expect(made.map(response => response.status)).toEqual(Array(16).fill(201))
    const ids = made.map(response => (response.body.upload as { id: string }).id)
    const owner = (i: number) => users[i % 4]!

    const first = await Promise.all([
      ...ids.flatMap((id, i) => users.map((user, u) => call('/api/vote', user, { method: 'POST', body: { uploadId: id, vote: (i + u) % 3 ? 'fucks' : 'does_not_fuck' } }))),
      ...ids.map((id, i) => call('/api/vote/anonymous', null, { method: 'POST', body: { uploadId: id, vote: i % 2 ? 'upvote' : 'downvote', clientFingerprint: `kept-${randomUUID()}` } })),
      ...ids.flatMap(id => users.map(user => call(`/api/upload/${id}/favourite`, user, { method: 'PUT' }))),
      // Reports filed before the admin's removals below, which keep them (with their groups) beside the tombstone.
      ...ids.slice(10, 12).map(id => call(`/api/upload/${id}/report`, users[2]!, { method: 'POST', body: { reason: 'spam' } })),
      // A tag AND an OR of two, in pages of one (which walk the tag's links): each keeps its triple.
      ...TRIPLES.map(q => call(`/api/search?limit=1&q=${encodeURIComponent(q)}`, null)),
    ])
    // Private uploads take votes and favourites only from their owners: 400 and 404 for the others.
    expect(first.filter(response => ![200, 201, 400, 404].includes(response.status))).toEqual([])
    expect(first.slice(-TRIPLES.length).map(response => response.status)).toEqual(TRIPLES.map(() => 200))

    const second = await Promise.all([
      ...ids.slice(0, 6).map(id => call('/api/vote', users[1]!, { method: 'POST', body: { uploadId: id, vote: 'does_not_fuck' } })),
      ...ids.slice(6, 10).map(id => call(`/api/vote?uploadId=${id}`, users[2]!, { method: 'DELETE' })),
      ...ids.slice(1, 9).map((id, i) => call(`/api/uploads/${id}/tags`, owner(i + 1), { method: 'POST', body: { tags: ['purple', `only-${i}`] } })),
      ...ids.slice(3, 12).map((id, i) => call(`/api/upload/${id}/privacy`, owner(i + 3), { method: 'PATCH' })),
      ...ids.slice(12, 15).map((id, i) => call(`/api/upload/${id}`, owner(i + 12), { method: 'DELETE' })),
      ...ids.slice(4, 13).map(id => call(`/api/upload/${id}/favourite`, users[3]!, { method: 'DELETE' })),
      // Half the edits rewrite the description too: words shared, repeated, folded (Café, cafe).
      ...ids.slice(0, 12).map((id, i) => call(`/api/upload/${id}`, owner(i), { method: 'PATCH', body: {
        tags: tags.filter((_, k) => (i + k) % 2 === 0).concat('purple'), ...(i % 2 ? { description: i % 4 === 1 ? 'Kept again: Café, cafe' : 'Edited words here' } : {}),
      } })),
      ...ids.slice(4, 10).map((id, i) => call(`/api/uploads/${id}/tags/blue`, owner(i + 4), { method: 'DELETE' })),
      ...ids.slice(10, 16).flatMap((id, i) => [call(`/api/upload/${id}/report`, users[0]!, { method: 'POST', body: { reason: i % 2 ? 'spam' : 'illegal' } }),
        call(`/api/upload/${id}/report`, users[1]!, { method: 'POST', body: { reason: 'other', details: 'kept counts' } })]),
      // An admin's removal (a tombstone; the reports filed meanwhile stay with it).
      ...ids.slice(10, 12).map(id => call(`/api/upload/${id}`, moderator, { method: 'DELETE', body: { reason: 'kept counts' } })),
      call('/api/profile', users[3]!, { method: 'DELETE', body: { password: users[3]!.password } }),
      // Triples kept while the writes run (on PostgreSQL each count holds the link writes back, or is matched this time).
      ...[...TRIPLES, '(purple OR red) green', '(white OR purple) black'].map(q => call(`/api/search?limit=1&sort=top&q=${encodeURIComponent(q)}`, null)),
    ])
    expect(second.filter(response => response.status >= 500)).toEqual([])
    expect(second.at(-1)!.status).toBe(200)

    const drift = await findDrift(databaseOf(server).db)
    expect(drift).toEqual([])
    // The workload reached every kind of count (none is vacuously exact).
    const { db } = databaseOf(server)
    for (const table of ['upload_days', 'upload_months', 'tag_pairs', 'tag_triples', 'user_vote_counts', 'upload_tags', 'report_groups', 'favourites', 'search_words', 'tag_vote_counts']) {
      expect(Number((await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.raw(table)}`))!.n), table).toBeGreaterThan(0)
    }
    expect(Number((await db.get<{ n: number }>(sql`SELECT public_uploads AS n FROM search_words WHERE word = 'cafe'`))?.n)).toBeGreaterThan(0)
    expect(KEPT_COUNTS.length).toBe(16)
  }, 60_000)

  it('keep a triple asked for while uploads carrying it are written, counting each once', async () => {
    const { db } = databaseOf(server)
    const tags = ['tri-a', 'tri-b', 'tri-c']
    // Enough uploads with both pairs that a page of one walks c's links (SQLite: the pairs' counts at 8 or more).
    const seeded = await Promise.all([...Array.from({ length: 10 }, (_, i) => link(users[i % 3]!, tags)), link(users[1]!, ['tri-a', 'tri-c']), link(users[2]!, ['tri-b', 'tri-c'])])
    expect(seeded.map(response => response.status)).toEqual(seeded.map(() => 201))
    const search = () => call(`/api/search?limit=1&q=${encodeURIComponent('(tri-a OR tri-b) tri-c')}`, null)
    const written = await Promise.all(Array.from({ length: 24 }, (_, i) => i % 4 === 0 ? search() : link(users[i % 3]!, i % 5 === 0 ? tags.slice(1) : tags, i % 7 === 0)))
    expect(written.map(response => response.status)).toEqual(written.map((_, i) => i % 4 === 0 ? 200 : 201))
    const answer = await search()
    expect(answer.status).toBe(200)
    const carrying = Number((await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM uploads u WHERE u.is_private = 0
      AND (SELECT count(*) FROM upload_tags ut JOIN tags t ON t.id = ut.tag_id WHERE ut.upload_id = u.id AND t.slug IN ('tri-a', 'tri-b', 'tri-c')) = 3`))!.n)
    expect(await db.all(sql`SELECT public_uploads FROM tag_triples k WHERE k.first_tag_id IN (SELECT id FROM tags WHERE slug LIKE 'tri-_')
      AND k.second_tag_id IN (SELECT id FROM tags WHERE slug LIKE 'tri-_') AND k.third_tag_id IN (SELECT id FROM tags WHERE slug LIKE 'tri-_')`)).toEqual([{ public_uploads: carrying }])
    // Public uploads with c and a or b: those seeded, and the written ones (all carry b and c).
    expect(answer.body.total).toBe(seeded.length + Array.from({ length: 24 }, (_, i) => i).filter(i => i % 4 !== 0 && i % 7 !== 0).length)
    expect(await findDrift(db)).toEqual([])
  }, 60_000)

  it('follow links moved to other tags, several of one upload in one statement (public and private)', async () => {
    const { db } = databaseOf(server)
    const made = await Promise.all([link(users[0]!, ['mv-a', 'mv-b', 'mv-c', 'mv-d']), link(users[0]!, ['mv-a', 'mv-b', 'mv-x'], true), link(users[1]!, ['mv-x', 'mv-y'])])
    const [publicId, privateId] = made.map(response => (response.body.upload as { id: string }).id)
    const idOf = async (slug: string) => (await db.get<{ id: string }>(sql`SELECT id FROM tags WHERE slug = ${slug}`))!.id
    const [a, b, x, y] = await Promise.all(['mv-a', 'mv-b', 'mv-x', 'mv-y'].map(idOf))
    // Kept triples the moves leave and join (tag_triples), counted as they stand.
    const c = await idOf('mv-c')
    for (const triple of [[a!, b!, c], [x!, y!, c], [a!, b!, x!], [b!, y!, c]]) {
      const [first, second, third] = [...triple].sort()
      await db.run(sql`INSERT INTO tag_triples (first_tag_id, second_tag_id, third_tag_id) VALUES (${first!}, ${second!}, ${third!})`)
    }
    await KEPT_COUNTS.find(count => count.name === 'tag_triples.public_uploads')!.repair(db)
    expect(await findDrift(db)).toEqual([])
    // a → x and b → y on the public upload at once, a → y on the private one: the pairs and triples each
    // link leaves and joins are counted once, whichever link of the statement moves first.
    await db.run(sql`UPDATE upload_tags SET tag_id = CASE tag_id WHEN ${a!} THEN ${x!} ELSE ${y!} END WHERE upload_id = ${publicId!} AND tag_id IN (${a!}, ${b!})`)
    await db.run(sql`UPDATE upload_tags SET tag_id = ${y!} WHERE upload_id = ${privateId!} AND tag_id = ${a!}`)
    expect(await findDrift(db)).toEqual([])
    const pair = async (one: string, other: string) => Number((await db.get<{ n: number }>(sql`SELECT public_uploads AS n FROM tag_pairs
      WHERE (first_tag_id = ${one} AND second_tag_id = ${other}) OR (first_tag_id = ${other} AND second_tag_id = ${one})`))?.n ?? 0)
    expect([await pair(x!, y!), await pair(a!, b!)]).toEqual([2, 0])
    const triples = await db.all<{ n: number }>(sql`SELECT public_uploads AS n FROM tag_triples WHERE first_tag_id IN (${a!}, ${b!}, ${c}, ${x!}, ${y!})
      AND second_tag_id IN (${a!}, ${b!}, ${c}, ${x!}, ${y!}) AND third_tag_id IN (${a!}, ${b!}, ${c}, ${x!}, ${y!}) ORDER BY public_uploads`)
    expect(triples.map(row => Number(row.n))).toEqual([0, 0, 0, 1])
  }, 60_000)

  it('follow an upload written, hidden, shown and deleted in one transaction, on a day no other upload has', async () => {
    // On PostgreSQL the day's, month's and owner's counts move at commit, in the order the rows were written.
    const { db } = databaseOf(server)
    const count = async (table: string, key: string, value: string) =>
      Number((await db.get<{ n: number }>(sql`SELECT public_uploads AS n FROM ${sql.raw(table)} WHERE ${sql.raw(key)} = ${value}`))?.n ?? 0)
    const written = async (id: string, steps: (tx: Parameters<Parameters<typeof db.transaction>[0]>[0]) => Promise<void>) => db.transaction(async (tx) => {
      await tx.run(sql`INSERT INTO uploads (id, user_id, filename, original_name, description, upload_type, external_url, is_private, rating, created_at)
        VALUES (${id}, ${users[0]!.id}, NULL, 'https://example.com/day', 'One day', 'link', 'https://example.com/day', 0, 'safe', '2001-02-03T04:05:06.000Z')`)
      await steps(tx)
    })
    const before = await count('users', 'id', users[0]!.id)
    await written(randomUUID(), async (tx) => {
      await tx.run(sql`UPDATE uploads SET is_private = 1 WHERE created_at = '2001-02-03T04:05:06.000Z'`)
      await tx.run(sql`UPDATE uploads SET is_private = 0 WHERE created_at = '2001-02-03T04:05:06.000Z'`)
      await tx.run(sql`DELETE FROM uploads WHERE created_at = '2001-02-03T04:05:06.000Z'`)
    })
    expect([await count('upload_days', 'day', '2001-02-03'), await count('upload_months', 'month', '2001-02'), await count('users', 'id', users[0]!.id)]).toEqual([0, 0, before])
    expect(await count('search_words', 'word', 'one')).toBe(0)
    const kept = randomUUID()
    await written(kept, tx => tx.run(sql`UPDATE uploads SET created_at = '2001-02-04T00:00:00.000Z' WHERE id = ${kept}`).then(() => undefined))
    expect([await count('upload_days', 'day', '2001-02-03'), await count('upload_days', 'day', '2001-02-04'), await count('users', 'id', users[0]!.id)]).toEqual([0, 1, before + 1])
    expect(await count('search_words', 'word', 'one')).toBe(1)
    expect(await findDrift(db)).toEqual([])
    await db.run(sql`DELETE FROM uploads WHERE id = ${kept}`)
  }, 60_000)

  it('are reported by `admin recount --check` when one drifts, and set right by `admin recount`', async () => {
    const { db } = databaseOf(server)
    await db.run(sql`UPDATE tags SET public_uploads = public_uploads + 7 WHERE slug = 'red'`)
    await expect(admin('recount', '--check')).rejects.toMatchObject({ code: 1, stdout: expect.stringMatching(/tags\.public_uploads: drifted\n {2}\S+: kept \d+, recount \d+/) })
    // On PostgreSQL a repair now and then finds a count moved while it was set, exits 1 and asks to be run again (an
    // open question, see the issue notes); a second run must then find everything set right.
    const repaired = await admin('recount').catch(() => admin('recount'))
    expect(repaired.stdout).toContain('Every drifted count was set from its recount')
    expect(await findDrift(db)).toEqual([])
    expect((await admin('recount', '--check')).stdout).toContain('Every kept count equals its recount')
  }, 60_000)

  it('keep the full-text index of descriptions in step through the workload; `admin recount` builds a drifted one again', async () => {
    const { db } = databaseOf(server)
    if (db.dialect === 'postgres') return // a generated column: nothing to drift
    expect((await admin('recount', '--check')).stdout).not.toContain('uploads_fts')
    await db.run(sql`INSERT INTO uploads_fts (uploads_fts, rowid, description) SELECT 'delete', rowid, description FROM uploads LIMIT 1`)
    await expect(admin('recount', '--check')).rejects.toMatchObject({ code: 1, stdout: expect.stringContaining('uploads_fts: drifted\nEvery kept count equals its recount') })
    expect((await admin('recount')).stdout).toContain('uploads_fts: built again from the descriptions')
    expect((await admin('recount', '--check')).stdout).not.toContain('uploads_fts')
  }, 60_000)
})
