import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { expectMatchesOpenApi } from '../support/openapi'
import { seedUpload } from '../support/seed'

// In the past, so these never become the shared server's newest uploads for other tests.
const at = (minute: number) => new Date(Date.UTC(2019, 0, 1, 0, minute)).toISOString()
const ENTRY_KEYS = ['comments', 'created_at', 'description', 'downvote_count', 'edited_at', 'external_url', 'favourited', 'favourites', 'filename', 'height', 'id', 'is_private', 'rating', 'revision', 'stats', 'tags', 'upload_type', 'upvotes', 'user_id', 'width']
const mine = (token: string | undefined, query = '') => api(`/api/profile/uploads${query}`, { token })

let owner: TestUser
let other: TestUser
let stranger: TestUser
/** owner's uploads, oldest first: 0 public, 1 private, 2 public, 3 private, 4 public. */
const ids: string[] = []
let othersId: string
// A tag row is shared by the whole run, and its first name wins: a name of this file's own.
const tagSuffix = randomUUID().slice(0, 8)

beforeAll(async () => {
  ;[owner, other, stranger] = await Promise.all([registerUser(), registerUser(), registerUser()])
  const names = ['cherry.png', 'Apple.png', 'banana.png', 'date.png', 'Elder.png']
  const votes = [3, 9, 0, 1, 5]
  for (let i = 0; i < 5; i++) {
    ids.push(await seedUpload(owner, {
      createdAt: at(i), isPrivate: i % 2 === 1, originalName: names[i], upvotes: votes[i], tags: i === 1 ? [`Secret ${tagSuffix}`] : [],
    }))
  }
  othersId = await seedUpload(other, { createdAt: at(10), isPrivate: true })
})

describe('GET /api/profile/uploads', () => {
  it('answers 401 when signed out, before looking at the query', async () => {
    for (const query of ['', '?page=0', '?sort=nope']) {
      const response = await mine(undefined, query)
      expect(response.status).toBe(401)
      expect(response.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Authentication required' })
    }
    const revoked = await mine('not-a-jwt')
    expect(revoked.status).toBe(401)
  })

  it('lists every upload of the owner, private ones included and marked, newest first, with the total', async () => {
    const response = await mine(owner.token)
    expect(response.status).toBe(200)
    expect(Object.keys(response.body).sort()).toEqual(['limit', 'page', 'total', 'uploads'])
    expect(response.body.total).toBe(5)
    expect(response.body.page).toBe(1)
    expect(response.body.limit).toBe(12)
    expect(response.body.uploads.map((entry: { id: string }) => entry.id)).toEqual([ids[4], ids[3], ids[2], ids[1], ids[0]])
    expect(response.body.uploads.map((entry: { is_private: number }) => entry.is_private)).toEqual([0, 1, 0, 1, 0])
    const secret = response.body.uploads[3]
    expect(Object.keys(secret).sort()).toEqual(ENTRY_KEYS)
    expect(secret).toMatchObject({ id: ids[1], user_id: owner.id, is_private: 1, upvotes: 9, created_at: at(1) })
    expect(secret.tags.map((tag: { name: string, slug: string }) => [tag.name, tag.slug])).toEqual([[`Secret ${tagSuffix}`, `secret-${tagSuffix}`]])
    expect(secret.stats).toEqual({ voteCount: 9, upvotes: 9, downvotes: 0, averageRating: 10 })
    await expectMatchesOpenApi('GET', '/api/profile/uploads', response)
  })

  it('is personal: Cache-Control private, no-store, with an ETag', async () => {
    const response = await mine(owner.token)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(response.headers.get('etag')).toMatch(/^"[\w-]+"$/)
  })

  it('never shows anyone else\'s uploads, private or public', async () => {
    const others = await mine(other.token)
    expect(others.status).toBe(200)
    expect(others.body).toMatchObject({ total: 1, page: 1, limit: 12 })
    expect(others.body.uploads.map((entry: { id: string }) => entry.id)).toEqual([othersId])

    const empty = await mine(stranger.token)
    expect(empty.status).toBe(200)
    expect(empty.body).toEqual({ uploads: [], total: 0, page: 1, limit: 12 })
    await expectMatchesOpenApi('GET', '/api/profile/uploads', empty)
  })

  it('leaves the public lists as they were: the owner\'s private uploads stay out of them', async () => {
    const publicList = await api(`/api/user/${owner.username}/uploads`, { token: owner.token })
    expect(publicList.body.total).toBe(3)
    expect(publicList.body.uploads.map((entry: { id: string }) => entry.id)).toEqual([ids[4], ids[2], ids[0]])
    const privateOnes = [ids[1], ids[3], othersId]
    const { body } = await api('/api/uploads/filtered?limit=100&tags=secret', { token: owner.token })
    expect(body.uploads.filter((entry: { id: string }) => privateOnes.includes(entry.id))).toEqual([])
  })

  it('pages with the total, clamps the limit to 50 and gives an empty page past the end', async () => {
    const second = await mine(owner.token, '?page=2&limit=2')
    expect(second.status).toBe(200)
    expect(second.body.total).toBe(5)
    expect(second.body.uploads.map((entry: { id: string }) => entry.id)).toEqual([ids[2], ids[1]])
    expect((await mine(owner.token, '?page=3&limit=2')).body.uploads.map((entry: { id: string }) => entry.id)).toEqual([ids[0]])
    expect((await mine(owner.token, '?page=4&limit=2')).body).toEqual({ uploads: [], total: 5, page: 4, limit: 2 })
    expect((await mine(owner.token, '?limit=500')).body.limit).toBe(50)
  })

  it('sorts by votes and by name', async () => {
    const byVotes = await mine(owner.token, '?sort=votes')
    expect(byVotes.body.uploads.map((entry: { id: string }) => entry.id)).toEqual([ids[1], ids[4], ids[0], ids[3], ids[2]])
    const byName = await mine(owner.token, '?sort=name')
    expect(byName.body.uploads.map((entry: { id: string }) => entry.id)).toEqual([ids[1], ids[2], ids[0], ids[3], ids[4]])
  })

  it.each([
    ['?page=0', 'Invalid page'],
    ['?page=abc', 'Invalid page'],
    ['?page=-1', 'Invalid page'],
    ['?limit=0', 'Invalid limit'],
    ['?limit=1.5', 'Invalid limit'],
    ['?sort=newest', 'Invalid sort'],
    ['?sort=', 'Invalid sort'],
  ])('answers 400 for %s', async (query, message) => {
    const response = await mine(owner.token, query)
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message })
    await expectMatchesOpenApi('GET', '/api/profile/uploads', response)
  })
})
