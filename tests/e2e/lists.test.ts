import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { seedUpload } from '../support/seed'
import { startServer, type RunningServer } from '../support/server'

// Own server: these lists are global, so their exact contents and order need a database of their own.
let server: RunningServer
let alice: TestUser
let bob: TestUser
let carol: TestUser
/** u[i] is the id of public upload i; a higher i is newer. */
const u: string[] = []
const privateIds: string[] = []

const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute)).toISOString()
const NAMES = ['Mango', 'apple', 'Banana', 'cherry', 'Date', 'elder', 'Fig', 'grape', 'Honeydew', 'kiwi', 'Lemon', 'lime']
const VOTES: Record<number, [number, number]> = { 5: [10, 0], 6: [10, 5], 7: [10, 5], 8: [9, 0], 9: [8, 20], 10: [8, 1], 11: [7, 0], 2: [3, 3] }

const get = (path: string, token?: string) => api(path, { baseURL: server.url, token })
const ids = (entries: { id: string }[]) => entries.map(entry => u.indexOf(entry.id))
const ENTRY_KEYS = ['comments', 'created_at', 'description', 'downvote_count', 'edited_at', 'external_url', 'favourites', 'filename', 'height', 'id', 'is_private', 'rating', 'revision', 'stats', 'tags', 'upload_type', 'upvotes', 'user_id', 'username', 'width']

beforeAll(async () => {
  server = await startServer()
  ;[alice, bob, carol] = await Promise.all([registerUser({}, server.url), registerUser({}, server.url), registerUser({}, server.url)])
  for (let i = 0; i < 24; i++) {
    const tags = [...(i % 3 === 0 ? ['Cats'] : []), ...(i % 4 === 0 ? ['Dogs'] : [])]
    const [upvotes, downvotes] = VOTES[i] ?? [0, 0]
    u.push(await seedUpload(i % 2 === 0 ? alice : bob, {
      createdAt: at(i),
      tags,
      upvotes,
      downvotes,
      uploadType: i === 1 ? 'link' : 'image',
      originalName: i % 2 === 0 ? NAMES[i / 2] : `bob-${i}.png`,
    }, server))
  }
  for (let i = 0; i < 3; i++) {
    privateIds.push(await seedUpload(alice, { createdAt: at(100 + i), isPrivate: true, tags: ['Cats', 'Dogs'], upvotes: 1000 }, server))
  }
})
afterAll(() => server.stop())

describe('GET /api/uploads', () => {
  it('answers { uploads, page, limit }: public uploads newest first, 10 by default', async () => {
    const response = await get('/api/uploads')
    expect(response.status).toBe(200)
    expect(Object.keys(response.body).sort()).toEqual(['limit', 'page', 'uploads'])
    expect(response.body.page).toBe(1)
    expect(response.body.limit).toBe(10)
    expect(ids(response.body.uploads)).toEqual([23, 22, 21, 20, 19, 18, 17, 16, 15, 14])
  })

  it('gives each entry the list fields, external_url, is_private, username and stats', async () => {
    const { body } = await get('/api/uploads?limit=100')
    const byIndex = (i: number) => body.uploads.find((entry: { id: string }) => entry.id === u[i])
    expect(Object.keys(byIndex(0)).sort()).toEqual(ENTRY_KEYS)
    expect(byIndex(0)).toMatchObject({
      user_id: alice.id, username: alice.username, upload_type: 'image', filename: `${u[0]}.png`, external_url: null,
      is_private: 0, created_at: at(0), upvotes: 0, downvote_count: 0,
      stats: { voteCount: 0, upvotes: 0, downvotes: 0, averageRating: null },
    })
    expect(byIndex(0).tags.map((t: { name: string, slug: string }) => [t.name, t.slug])).toEqual([['Cats', 'cats'], ['Dogs', 'dogs']])
    expect(byIndex(1)).toMatchObject({ upload_type: 'link', filename: null, external_url: `https://example.com/${u[1]}`, username: bob.username, width: null, height: null })
    expect(byIndex(9).stats).toEqual({ voteCount: 28, upvotes: 8, downvotes: 20, averageRating: 3.57 })
    expect(byIndex(2).stats).toEqual({ voteCount: 6, upvotes: 3, downvotes: 3, averageRating: 5.5 })
  })

  it('never lists a private upload', async () => {
    const { body } = await get('/api/uploads?limit=100', alice.token)
    expect(body.uploads).toHaveLength(24)
    expect(body.uploads.some((entry: { id: string }) => privateIds.includes(entry.id))).toBe(false)
  })

  it('pages: page 2 continues, a page past the end is empty, a limit above 100 is clamped', async () => {
    expect(ids((await get('/api/uploads?page=2&limit=5')).body.uploads)).toEqual([18, 17, 16, 15, 14])
    expect(ids((await get('/api/uploads?page=5&limit=5')).body.uploads)).toEqual([3, 2, 1, 0])
    const past = await get('/api/uploads?page=6&limit=5')
    expect(past.status).toBe(200)
    expect(past.body).toEqual({ uploads: [], page: 6, limit: 5 })
    const clamped = await get('/api/uploads?limit=1000')
    expect(clamped.body.limit).toBe(100)
    expect(clamped.body.uploads).toHaveLength(24)
    expect((await get('/api/uploads?page=9999999999&limit=100')).body.uploads).toEqual([])
  })

  it.each([
    ['page=0', 'Invalid page'],
    ['page=-1', 'Invalid page'],
    ['page=1.5', 'Invalid page'],
    ['page=abc', 'Invalid page'],
    ['page=', 'Invalid page'],
    ['limit=abc', 'Invalid limit'],
    ['limit=0', 'Invalid limit'],
    ['limit=-5', 'Invalid limit'],
    ['limit=2e3', 'Invalid limit'],
  ])('answers ?%s with 400 %s', async (query, message) => {
    const response = await get(`/api/uploads?${query}`)
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message })
  })

  it('is cacheable for 2 minutes, with an ETag answered by 304', async () => {
    const first = await get('/api/uploads')
    expect(first.headers.get('cache-control')).toBe('public, max-age=120')
    const etag = first.headers.get('etag')!
    const again = await api('/api/uploads', { baseURL: server.url, headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(again.body).toBe('')
  })
})

describe('GET /api/uploads/filtered', () => {
  it('answers { uploads, total, page, limit } with uploads carrying all the tags', async () => {
    const response = await get('/api/uploads/filtered?tags=Cats,Dogs')
    expect(response.status).toBe(200)
    expect(Object.keys(response.body).sort()).toEqual(['limit', 'page', 'total', 'uploads'])
    expect(response.body).toMatchObject({ total: 2, page: 1, limit: 10 })
    expect(ids(response.body.uploads)).toEqual([12, 0])
    expect(Object.keys(response.body.uploads[0]).sort()).toEqual(ENTRY_KEYS)
    expect(response.headers.get('cache-control')).toBe('public, max-age=120')
  })

  it('matches any of the tags with match=any', async () => {
    const response = await get('/api/uploads/filtered?tags=cats,dogs&match=any&limit=100')
    expect(response.body.total).toBe(12)
    expect(ids(response.body.uploads)).toEqual([21, 20, 18, 16, 15, 12, 9, 8, 6, 4, 3, 0])
  })

  it('compares names by slug, case-insensitively, ignoring blanks and repeats', async () => {
    const response = await get(`/api/uploads/filtered?tags=${encodeURIComponent(' CATS , cats,,')}&limit=100`)
    expect(response.body.total).toBe(8)
    expect(ids(response.body.uploads)).toEqual([21, 18, 15, 12, 9, 6, 3, 0])
  })

  it('answers an empty list and total 0 for an unknown tag', async () => {
    expect((await get('/api/uploads/filtered?tags=cats,unicorns')).body).toEqual({ uploads: [], total: 0, page: 1, limit: 10 })
    expect((await get('/api/uploads/filtered?tags=unicorns&match=any')).body.total).toBe(0)
  })

  it('lists every public upload without tags', async () => {
    const response = await get('/api/uploads/filtered?limit=3')
    expect(response.body.total).toBe(24)
    expect(ids(response.body.uploads)).toEqual([23, 22, 21])
  })

  it('pages with the total kept on pages past the end, and clamps the limit', async () => {
    expect(ids((await get('/api/uploads/filtered?tags=cats&page=2&limit=3')).body.uploads)).toEqual([12, 9, 6])
    expect((await get('/api/uploads/filtered?tags=cats&page=4&limit=3')).body).toEqual({ uploads: [], total: 8, page: 4, limit: 3 })
    expect((await get('/api/uploads/filtered?limit=500')).body.limit).toBe(100)
    expect((await get('/api/uploads/filtered?page=0')).body.message).toBe('Invalid page')
    expect((await get('/api/uploads/filtered?limit=x')).body.message).toBe('Invalid limit')
    expect((await get('/api/uploads/filtered?match=some')).status).toBe(400)
  })
})

describe('GET /api/user/{username}/uploads', () => {
  it('answers { user, uploads, total, page, totalPages, limit }: public uploads newest first, 12 by default', async () => {
    const response = await get(`/api/user/${alice.username}/uploads`)
    expect(response.status).toBe(200)
    expect(Object.keys(response.body).sort()).toEqual(['limit', 'page', 'total', 'totalPages', 'uploads', 'user'])
    expect(response.body.user).toEqual({ username: alice.username, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) })
    expect(response.body).toMatchObject({ total: 12, page: 1, totalPages: 1, limit: 12 })
    expect(ids(response.body.uploads)).toEqual([22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0])
    expect(Object.keys(response.body.uploads[0]).sort()).toEqual(ENTRY_KEYS.filter(key => key !== 'username'))
  })

  it('never lists private uploads, not even to their owner', async () => {
    const response = await get(`/api/user/${alice.username}/uploads?limit=50`, alice.token)
    expect(response.body.total).toBe(12)
    expect(response.body.uploads.some((entry: { id: string }) => privateIds.includes(entry.id))).toBe(false)
  })

  it('sorts by votes: upvotes, then newest', async () => {
    const response = await get(`/api/user/${alice.username}/uploads?sort=votes`)
    expect(ids(response.body.uploads)).toEqual([6, 8, 10, 2, 22, 20, 18, 16, 14, 12, 4, 0])
  })

  it('sorts by name: original name, case-insensitive', async () => {
    const response = await get(`/api/user/${alice.username}/uploads?sort=name`)
    const names = response.body.uploads.map((entry: { id: string }) => NAMES[u.indexOf(entry.id) / 2])
    expect(names).toEqual([...NAMES].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())))
  })

  it('filters by tag slugs, all of them', async () => {
    expect(ids((await get(`/api/user/${alice.username}/uploads?tags=cats`)).body.uploads)).toEqual([18, 12, 6, 0])
    const both = await get(`/api/user/${alice.username}/uploads?tags=cats,dogs&sort=date`)
    expect(ids(both.body.uploads)).toEqual([12, 0])
    expect(both.body.total).toBe(2)
    expect((await get(`/api/user/${bob.username}/uploads?tags=cats,dogs`)).body.total).toBe(0)
  })

  it('filters by tag in every order: by votes and by name as unfiltered, narrowed to the tag', async () => {
    const cats = [18, 12, 6, 0]
    const byVotes = await get(`/api/user/${alice.username}/uploads?tags=cats&sort=votes`)
    expect(byVotes.status).toBe(200)
    expect(ids(byVotes.body.uploads)).toEqual([6, 8, 10, 2, 22, 20, 18, 16, 14, 12, 4, 0].filter(n => cats.includes(n)))
    const byName = await get(`/api/user/${alice.username}/uploads?tags=cats&sort=name`)
    expect(byName.status).toBe(200)
    const names = byName.body.uploads.map((entry: { id: string }) => NAMES[u.indexOf(entry.id) / 2])
    expect(names).toEqual(cats.map(n => NAMES[n / 2]!).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())))
    expect(byName.body.total).toBe(4)
  })

  it('pages with totalPages, clamps the limit to 50, and answers a page past the end empty', async () => {
    const page = await get(`/api/user/${alice.username}/uploads?limit=5&page=3`)
    expect(page.body).toMatchObject({ total: 12, page: 3, totalPages: 3, limit: 5 })
    expect(ids(page.body.uploads)).toEqual([2, 0])
    expect((await get(`/api/user/${alice.username}/uploads?limit=1000`)).body.limit).toBe(50)
    const past = await get(`/api/user/${alice.username}/uploads?page=9`)
    expect(past.body).toMatchObject({ uploads: [], total: 12, page: 9, totalPages: 1 })
  })

  it('answers an empty list for a user without uploads, and finds users case-insensitively', async () => {
    expect((await get(`/api/user/${carol.username}/uploads`)).body).toMatchObject({ uploads: [], total: 0, totalPages: 0 })
    expect((await get(`/api/user/${bob.username.toUpperCase()}/uploads`)).body.user.username).toBe(bob.username)
  })

  it('answers 404 for an unknown user and 400 for a bad sort, page or limit', async () => {
    const missing = await get('/api/user/nobody_here/uploads')
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'User not found' })
    // A name longer than any account's, or with odd characters, is just as unknown.
    for (const name of ['x'.repeat(300), encodeURIComponent('ünïcødé 💩')]) {
      expect((await get(`/api/user/${name}/uploads`)).body, name).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'User not found' })
    }
    // A NUL in any text, a path segment too, is refused as such.
    expect((await get('/api/user/%00/uploads')).body).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Text must not contain NUL characters' })
    expect((await get(`/api/user/${alice.username}/uploads?sort=random`)).body.message).toBe('Invalid sort')
    expect((await get(`/api/user/${alice.username}/uploads?page=0`)).body.message).toBe('Invalid page')
    expect((await get(`/api/user/${alice.username}/uploads?limit=abc`)).body.message).toBe('Invalid limit')
  })
})

describe('GET /api/items-recent and /api/items-top-voted', () => {
  it('recent: exactly the 6 newest public uploads, type "recent"', async () => {
    const response = await get('/api/items-recent')
    expect(response.status).toBe(200)
    expect(Object.keys(response.body).sort()).toEqual(['items', 'type'])
    expect(response.body.type).toBe('recent')
    expect(ids(response.body.items)).toEqual([23, 22, 21, 20, 19, 18])
    expect(Object.keys(response.body.items[0]).sort()).toEqual(ENTRY_KEYS)
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
  })

  it('top-voted: exactly 6, by upvotes, then total votes, then newest; type "top-voted"', async () => {
    const response = await get('/api/items-top-voted')
    expect(response.body.type).toBe('top-voted')
    expect(ids(response.body.items)).toEqual([7, 6, 5, 8, 9, 10])
    expect(response.body.items[0].stats).toEqual({ voteCount: 15, upvotes: 10, downvotes: 5, averageRating: 7 })
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    expect(response.headers.get('etag')).toMatch(/^"/)
  })

  it('ignore query parameters', async () => {
    expect((await get('/api/items-recent?limit=2&page=3')).body.items).toHaveLength(6)
  })
})

describe('freshness', () => {
  it('shows an acknowledged vote in every list at once', async () => {
    await get('/api/items-top-voted')
    await get('/api/uploads?limit=100')
    const voter = await registerUser({}, server.url)
    const vote = await api('/api/vote', { baseURL: server.url, method: 'POST', token: voter.token, body: { uploadId: u[8], vote: 'fucks' } })
    expect(vote.status).toBe(200)
    const list = await get('/api/uploads?limit=100')
    expect(list.body.uploads.find((entry: { id: string }) => entry.id === u[8]).upvotes).toBe(10)
    // u8 now ties u5 on upvotes and total votes, and is newer.
    expect(ids((await get('/api/items-top-voted')).body.items)).toEqual([7, 6, 8, 5, 9, 10])
  })

  it('shows a row written by another process at once', async () => {
    await get('/api/items-recent')
    const id = await seedUpload(bob, { createdAt: at(50) }, server)
    u.push(id)
    expect((await get('/api/items-recent')).body.items[0].id).toBe(id)
  })
})

describe('OpenAPI', () => {
  it('describes every endpoint of tags, lists, votes and admin', async () => {
    const { body } = await get('/api/openapi.json')
    const operations = Object.entries(body.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) => Object.keys(methods).map(method => `${method.toUpperCase()} ${path}`))
    expect(operations).toEqual(expect.arrayContaining([
      'GET /api/uploads', 'GET /api/uploads/filtered', 'GET /api/user/{username}/uploads', 'GET /api/items-recent', 'GET /api/items-top-voted',
      'GET /api/uploads/{id}/tags', 'POST /api/uploads/{id}/tags', 'GET /api/tags',
      'POST /api/vote', 'GET /api/vote', 'DELETE /api/vote', 'POST /api/vote/anonymous',
      'GET /api/admin/users', 'POST /api/admin/users/{id}/shadow-ban',
    ]))
  })
})
