import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { seedUpload, serverDatabase } from '../support/seed'
import { SEARCH_FIELDS } from '../../shared/utils/search-query'

// GET /api/search and /feeds/search.*: the query language over this file's own uploads
// (a random tag and description word, so the shared server's other uploads never match),
// dated long past so they never come first in another file's list of the newest.
const id = randomUUID().replace(/-/g, '').slice(0, 8)
const TAG = `q${id}`
const RED = `${TAG}-red`
const BLUE = `${TAG}-blue`
const WORD = `w${id}`

let alice: TestUser
let bob: TestUser
/** A: alice, red; B: bob, blue, a link; C: alice, red and blue, no votes; hidden: bob's private one. */
const up = { a: '', b: '', c: '', hidden: '' }

beforeAll(async () => {
  ;[alice, bob] = await Promise.all([registerUser(), registerUser()])
  up.a = await seedUpload(alice, { tags: [TAG, RED], description: `Crème BRÛLÉE ${WORD}`, upvotes: 10, downvotes: 2, createdAt: '2001-03-10T12:00:00.000Z' })
  up.b = await seedUpload(bob, { tags: [TAG, BLUE], description: `Quick brown fox ${WORD}`, upvotes: 1, downvotes: 5, uploadType: 'link', filename: null, externalUrl: 'https://example.com/fox', createdAt: '2001-04-02T12:00:00.000Z' })
  up.c = await seedUpload(alice, { tags: [TAG, RED, BLUE], description: `the brown quick fox ${WORD}`, createdAt: '2002-01-15T12:00:00.000Z' })
  up.hidden = await seedUpload(bob, { tags: [TAG, RED], description: `brown fox ${WORD}`, isPrivate: true, createdAt: '2002-02-01T12:00:00.000Z' })
})

const search = (q: string, extra = '', token?: string) => api(`/api/search?q=${encodeURIComponent(q)}${extra}`, { token })

/** The ids found for `q` (expecting 200), by name, in order. */
async function found(q: string, extra = '', token?: string) {
  const { status, body } = await search(q, extra, token)
  expect(status, q).toBe(200)
  const names = Object.fromEntries(Object.entries(up).map(([name, uploadId]) => [uploadId, name]))
  const ids = body.uploads.map((entry: { id: string }) => names[entry.id] ?? entry.id)
  if (!extra.includes('limit')) expect(body.total, q).toBe(ids.length)
  return ids
}

describe('GET /api/search', () => {
  it('answers as the filtered list: entries, total, page and limit; never another\'s private upload', async () => {
    const { status, body, headers } = await search(TAG, '&limit=2&page=1&sort=top')
    expect(status).toBe(200)
    expect(headers.get('cache-control')).toBe('public, max-age=120')
    expect(body.total).toBe(3)
    expect([body.page, body.limit]).toEqual([1, 2])
    const filtered = await api(`/api/uploads/filtered?tags=${TAG}&limit=2&page=1&sort=top`)
    expect(body.uploads).toEqual(filtered.body.uploads)
    expect(body.total).toBe(filtered.body.total)
    expect(await found(`nosuch-${id}`)).toEqual([])
    expect(await found(TAG)).toEqual(['c', 'b', 'a'])
    expect(await found(TAG, '&sort=top&limit=1&page=2')).toEqual(['b'])
    expect(await found(`text:${WORD}`)).toEqual(['c', 'b', 'a'])
  })

  it('combines terms with AND, OR, NOT and parentheses; an unknown tag ends an AND and drops out of an OR', async () => {
    expect(await found(`${TAG} -${BLUE}`)).toEqual(['a'])
    expect(await found(`${TAG} NOT ${BLUE}`)).toEqual(['a'])
    expect(await found(`${RED}, ${BLUE}`)).toEqual(['c'])
    expect(await found(`${RED} OR ${BLUE}`)).toEqual(['c', 'b', 'a'])
    expect(await found(`(${RED} || nosuch-${id}) -(${BLUE} ${TAG})`)).toEqual(['a'])
    expect(await found(`${TAG} nosuch-${id}`)).toEqual([])
    expect(await found(`${TAG} -nosuch-${id}`)).toEqual(['c', 'b', 'a'])
  })

  it('compares every field', async () => {
    const cases: [string, string[]][] = [
      ['fucks:>=10', ['a']], ['nope:5', ['b']], ['votes:1..6', ['b']], ['score:<0', ['b']],
      ['ratio:>0.5', ['a']], ['-ratio:>0.5', ['c', 'b']], ['tags:3', ['c']], ['tags:<3', ['b', 'a']],
      ['date:2001', ['b', 'a']], ['date:>=2001-04', ['c', 'b']], ['date:<2001-04-02', ['a']], ['age:>1y', ['c', 'b', 'a']], ['age:<7d', []],
      [`user:${bob.username.toUpperCase()}`, ['b']], ['type:link', ['b']], ['type:image', ['c', 'a']],
    ]
    for (const [q, ids] of cases) expect(await found(`${TAG} ${q}`), q).toEqual(ids)
  })

  it('ranks one tag narrowed by counts, with the uploads nobody voted on where they pass', async () => {
    // C has no votes: it passes votes:<=6 and score:<=0, ranked last of these; votes:>=1 never reads it.
    expect(await found(`${TAG} votes:<=6`, '&sort=top')).toEqual(['b', 'c'])
    expect(await found(`${TAG} score:<=0`, '&sort=best')).toEqual(['b', 'c'])
    expect(await found(`${TAG} votes:0`, '&sort=divisive')).toEqual(['c'])
    expect(await found(`${TAG} votes:>=1`, '&sort=hot')).toEqual(['b', 'a'])
    expect(await found(`${TAG} fucks:0..1`, '&sort=hot')).toEqual(['c', 'b'])
  })

  it('matches whole words of descriptions, without case or diacritics, by prefix and by phrase', async () => {
    expect(await found(`${TAG} text:creme`)).toEqual(['a'])
    expect(await found(`${TAG} "crème brulee"`)).toEqual(['a'])
    expect(await found(`${TAG} text:CRE`)).toEqual([])
    expect(await found(`${TAG} text:cre*`)).toEqual(['a'])
    expect(await found(`${TAG} "quick brown"`)).toEqual(['b'])
    expect(await found(`${TAG} text:quick text:brown`)).toEqual(['c', 'b'])
    expect(await found(`${TAG} -text:fox`)).toEqual(['a'])
  })

  it('answers is: for the caller only, as fresh as the votes', async () => {
    const anonymous = await search(`${TAG} is:mine`)
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Authentication required' })
    const mine = await search(`${TAG} is:mine`, '', alice.token)
    expect(mine.headers.get('cache-control')).toBe('private, no-store')
    expect(await found(`${TAG} is:mine`, '', alice.token)).toEqual(['c', 'a'])
    expect(await found(`${TAG} is:mine`, '', bob.token)).toEqual(['b'])
    expect(await found(`${TAG} is:voted`, '', alice.token)).toEqual([])
    expect(await found(`${TAG} fucks:2`)).toEqual([])
    expect((await api('/api/vote', { method: 'POST', body: { uploadId: up.b, vote: 'fucks' }, token: alice.token })).status).toBe(200)
    expect(await found(`${TAG} fucks:2`)).toEqual(['b'])
    expect(await found(`${TAG} is:voted`, '', alice.token)).toEqual(['b'])
    expect(await found(`${TAG} is:unvoted`, '', alice.token)).toEqual(['c', 'a'])
    expect(await found(`${TAG} is:voted`, '', bob.token)).toEqual([])
    expect(await found(`${TAG} is:fav`, '', alice.token)).toEqual([])
    expect((await api(`/api/upload/${up.c}/favourite`, { method: 'PUT', token: alice.token })).status).toBe(200)
    expect(await found(`${TAG} is:fav`, '', alice.token)).toEqual(['c'])
    expect(await found(`${TAG} -is:fav`, '', alice.token)).toEqual(['b', 'a'])
    expect(await found(`${TAG} is:fav`, '', bob.token)).toEqual([])
    // Any signed-in search says which entries are the caller's favourites, as every list does, and is kept private.
    const signedIn = await search(TAG, '', alice.token)
    expect(signedIn.headers.get('cache-control')).toBe('private, no-store')
    expect(signedIn.body.uploads.map((entry: { id: string, favourited: boolean }) => [entry.id, entry.favourited])).toEqual([[up.c, true], [up.b, false], [up.a, false]])
    expect(signedIn.body.uploads).toEqual((await api(`/api/uploads/filtered?tags=${TAG}`, { token: alice.token })).body.uploads)
    expect((await search(TAG)).body.uploads.some((entry: object) => 'favourited' in entry)).toBe(false)
  })

  it('finds a description as it was just changed', async () => {
    expect(await found(`${TAG} text:pate`)).toEqual([])
    await serverDatabase().db.run(sql`UPDATE uploads SET description = ${`Pâté ${WORD}`} WHERE id = ${up.a}`)
    expect(await found(`${TAG} text:pate`)).toEqual(['a'])
    expect(await found(`${TAG} text:creme`)).toEqual([])
    await serverDatabase().db.run(sql`UPDATE uploads SET description = ${`Crème BRÛLÉE ${WORD}`} WHERE id = ${up.a}`)
  })

  it('reads a common word\'s total from its kept count and its page (and feed) by walking the list, as matching every upload would', async () => {
    // Common enough that the page is walked: found² ≥ reach × all public uploads (lists/words.ts), with reach ≤ 3, and 50 for the feed.
    const COMMON = `v${id}`
    const { db } = serverDatabase()
    const all = Number((await db.get<{ n: number | string }>(sql`SELECT coalesce(sum(public_uploads), 0) AS n FROM upload_months`))!.n)
    const count = Math.ceil(Math.sqrt(70 * (all + 100)))
    const made = Array.from({ length: count }, (_, i) => ({ isPrivate: i % 10 === 0, upvotes: i % 3,
      description: i % 3 ? `Common ${COMMON}` : `${COMMON}, ${COMMON.toUpperCase()} again`, createdAt: new Date(Date.UTC(2001, 4, 1) + i * 60_000).toISOString() }))
    for (let i = 0; i < count; i += 25) await Promise.all(made.slice(i, i + 25).map((upload, k) => seedUpload((i + k) % 2 ? alice : bob, upload)))
    const publicCount = made.filter(upload => !upload.isPrivate).length
    for (const [sort, page] of [['new', 1], ['new', 3], ['top', 2], ['hot', 1]] as const) {
      const extra = `&limit=1&page=${page}&sort=${sort}`
      const kept = await search(`text:${COMMON}`, extra)
      // Two text terms are matched and counted one by one.
      const matched = await search(`text:${COMMON} text:${COMMON}`, extra)
      expect([kept.status, matched.status]).toEqual([200, 200])
      expect(kept.body.total, `${sort} ${page}`).toBe(publicCount)
      expect(kept.body, `${sort} ${page}`).toEqual(matched.body)
    }
    const feed = await api(`/feeds/search.json?q=text:${COMMON}`)
    const newest = await search(`text:${COMMON} text:${COMMON}`, '&limit=50')
    expect(feed.body.items).toHaveLength(50)
    expect(feed.body.items.map((item: { id: string }) => item.id)).toEqual(newest.body.uploads.map((entry: { id: string }) => entry.id))
    // The total is the kept count's: one set wrong shows in the answer (and is set right again).
    await db.run(sql`UPDATE search_words SET public_uploads = public_uploads + 1000 WHERE word = ${COMMON}`)
    try {
      expect((await search(`text:${COMMON}`, '&limit=1')).body.total).toBe(publicCount + 1000)
    }
    finally {
      await db.run(sql`UPDATE search_words SET public_uploads = public_uploads - 1000 WHERE word = ${COMMON}`)
    }
  })

  it('refuses an invalid or too complex query with where and what was expected', async () => {
    const cases: [string, number, string, { position: number, expected: string }][] = [
      [`${TAG} (`, 400, 'Invalid query', { position: TAG.length + 2, expected: 'a term' }],
      ['fucks:>=x', 400, 'Invalid query', { position: 8, expected: 'a whole number of 0 or more' }],
      // The counts are 32-bit: PostgreSQL would refuse the parameter, SQLite would read it.
      ['fucks:2147483648', 400, 'Invalid query', { position: 6, expected: 'a whole number up to 2147483647' }],
      ['rating:lewd', 400, 'Invalid query', { position: 7, expected: 'safe, suggestive or explicit' }],
      ['colour:red', 400, 'Invalid query', { position: 0, expected: 'a field (fucks, nope, votes, score, ratio, tags, age, date, user, type, rating, is, text)' }],
      ['is:nothing', 400, 'Invalid query', { position: 3, expected: 'voted, unvoted, mine or fav' }],
      [Array.from({ length: 31 }, (_, i) => `t${i}x`).join(' '), 400, 'Query too complex', { position: 140, expected: 'at most 30 terms' }],
      ['text:a text:b text:c text:d text:e text:f', 400, 'Query too complex', { position: 35, expected: 'at most 5 text terms' }],
    ]
    for (const [q, status, message, data] of cases) {
      const response = await search(q)
      expect(response.status, q).toBe(status)
      expect(response.body, q).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message, data })
    }
  })

  it('answers a blank query with every public upload', async () => {
    const [blank, missing, all] = await Promise.all([search('  '), api('/api/search?limit=3'), api('/api/uploads/filtered?limit=3')])
    expect(blank.status).toBe(200)
    expect(blank.body.total).toBe(all.body.total)
    expect(missing.body).toEqual(all.body)
  })

  it('reads an age from before 1970, and before any date JavaScript holds, as since 1970', async () => {
    const [older, all] = await Promise.all([search('age:<999999y', '&limit=3'), api('/api/uploads/filtered?limit=3')])
    expect(older.status).toBe(200)
    expect(older.body.total).toBe(all.body.total)
    expect((await search('age:>999999y')).body.total).toBe(0)
  })
})

describe('the search help page', () => {
  it('explains every field the search language reads, and every is: value', async () => {
    const html = (await api('/search/help')).body as string
    expect([...html.matchAll(/<dt[^>]*><code[^>]*>([a-z]+):<\/code><\/dt>/g)].map(match => match[1])).toEqual([...SEARCH_FIELDS])
    expect(html).toMatch(/voted, unvoted, mine or fav/)
  })
})

describe('GET /api/search/suggest', () => {
  it('completes the last term with tags by public uploads and with field names', async () => {
    const tags = await api(`/api/search/suggest?q=${encodeURIComponent(`${TAG}`)}`)
    expect(tags.status).toBe(200)
    expect(tags.body).toEqual({ tags: [{ name: TAG, slug: TAG, count: 3 }, { name: BLUE, slug: BLUE, count: 2 }, { name: RED, slug: RED, count: 2 }], fields: [] })
    const last = await api(`/api/search/suggest?q=${encodeURIComponent(`votes:>2 (x OR -${TAG}-R`)}`)
    expect(last.body).toEqual({ tags: [{ name: RED, slug: RED, count: 2 }], fields: [] })
    expect((await api(`/api/search/suggest?q=${encodeURIComponent(`${TAG} t`)}`)).body.fields).toEqual(['tags', 'type', 'text'])
    expect((await api('/api/search/suggest?q=ra')).body.fields).toEqual(['ratio', 'rating'])
    for (const q of ['', 'red ', 'votes:', '"bro']) expect((await api(`/api/search/suggest?q=${encodeURIComponent(q)}`)).body, q).toEqual({ tags: [], fields: [] })
  })
})

describe('/feeds/search', () => {
  it('serves the newest matches as JSON Feed and Atom, and refuses an invalid query', async () => {
    const q = encodeURIComponent(`${TAG} -${BLUE}`)
    const json = await api(`/feeds/search.json?q=${q}`)
    expect(json.status).toBe(200)
    expect(json.headers.get('content-type')).toBe('application/feed+json; charset=utf-8')
    expect(json.body.items.map((item: { id: string }) => item.id)).toEqual([up.a])
    expect(json.body.feed_url).toMatch(new RegExp(`/feeds/search\\.json\\?q=${q}$`))
    const atom = await api(`/feeds/search.atom?q=${encodeURIComponent(TAG)}`)
    expect(atom.status).toBe(200)
    expect([...atom.body.matchAll(/<id>urn:uuid:([^<]+)<\/id>/g)].map(match => match[1])).toEqual([up.c, up.b, up.a])
    const invalid = await api('/feeds/search.atom?q=(')
    expect(invalid.status).toBe(400)
    expect(invalid.body).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid query', data: { position: 1, expected: 'a term' } })
    const personal = await api('/feeds/search.json?q=is:voted')
    expect(personal.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Authentication required' })
  })
})
