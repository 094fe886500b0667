import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bestScore, divisiveScore, hotScore } from '../../shared/utils/ranking'
import { api, registerUser, type TestUser } from '../support/api'
import { seedUpload } from '../support/seed'
import { startServer, type RunningServer } from '../support/server'

// Own server: the rankings are global, so their exact order needs a database of its own.
// The client IP comes from X-Forwarded-For, so one test can be two visitors.
let server: RunningServer
let alice: TestUser
let voter: TestUser

const HOUR = 3600_000
const ago = (ms: number) => new Date(Date.now() - ms).toISOString()

/** name → [upvotes, downvotes, age, tags]; all public. */
const DATA: Record<string, [number, number, number, string[]]> = {
  G: [0, 0, HOUR / 2, ['rk-dogs']],
  A: [0, 0, HOUR, []],
  F: [20, 2, 2 * HOUR, ['rk-cats']],
  B: [10, 0, 3 * 24 * HOUR, []],
  C: [5, 5, 20 * 24 * HOUR, ['rk-cats', 'rk-dogs']],
  D: [3, 7, 200 * 24 * HOUR, ['rk-cats']],
  E: [1, 0, 800 * 24 * HOUR, []],
}
const ids: Record<string, string> = {}
const created: Record<string, string> = {}
const names = (entries: { id: string }[]) => entries.map(entry => Object.keys(ids).find(name => ids[name] === entry.id) ?? entry.id)

const get = (path: string, options: { token?: string, ip?: string } = {}) =>
  api(path, { baseURL: server.url, token: options.token, headers: options.ip ? { 'x-forwarded-for': options.ip } : {} })

/** The names in the reference order: score desc, ties newest first. */
function byScore(score: (up: number, down: number, createdAt: string) => number, names = Object.keys(DATA)) {
  return [...names].sort((a, b) => {
    const [ua, da] = DATA[a]!
    const [ub, db] = DATA[b]!
    return score(ub, db, created[b]!) - score(ua, da, created[a]!) || created[b]!.localeCompare(created[a]!)
  })
}

beforeAll(async () => {
  server = await startServer({ NUXT_TRUST_PROXY: 'true', NUXT_RATE_LIMIT_ENABLED: 'false' })
  ;[alice, voter] = await Promise.all([registerUser({}, server.url), registerUser({}, server.url)])
  for (const [name, [upvotes, downvotes, age, tags]] of Object.entries(DATA)) {
    created[name] = ago(age)
    ids[name] = await seedUpload(alice, { createdAt: created[name], upvotes, downvotes, tags, description: `Ranked ${name}` }, server)
  }
  await seedUpload(alice, { createdAt: ago(HOUR / 4), upvotes: 100, isPrivate: true }, server)
})
afterAll(() => server.stop())

describe('sort and period on /api/uploads and /api/uploads/filtered', () => {
  it('new (the default) is newest first', async () => {
    for (const query of ['', '?sort=new', '?sort=new&period=day']) {
      const response = await get(`/api/uploads${query}`)
      expect(response.status).toBe(200)
      expect(names(response.body.uploads)).toEqual(['G', 'A', 'F', 'B', 'C', 'D', 'E'])
    }
  })

  it('top is upvotes, then total votes, then newest', async () => {
    const response = await get('/api/uploads?sort=top')
    expect(names(response.body.uploads)).toEqual(['F', 'B', 'C', 'D', 'E', 'G', 'A'])
    expect(response.headers.get('cache-control')).toBe('public, max-age=120')
  })

  it('hot, best and divisive follow their formulas, ties newest first', async () => {
    expect(names((await get('/api/uploads?sort=hot')).body.uploads)).toEqual(byScore(hotScore))
    expect(names((await get('/api/uploads?sort=best')).body.uploads)).toEqual(byScore(bestScore))
    // B (10 up, 0 down) 0.7225 edges out F (20 up, 2 down) 0.7218; no votes ranks last.
    expect(names((await get('/api/uploads?sort=best')).body.uploads)).toEqual(['B', 'F', 'C', 'E', 'D', 'G', 'A'])
    // C: 10^1, D: 10^(3/7), F: 22^(2/20); the rest 0, newest first.
    expect(names((await get('/api/uploads?sort=divisive')).body.uploads)).toEqual(['C', 'D', 'F', 'G', 'A', 'B', 'E'])
    expect(byScore(divisiveScore)).toEqual(['C', 'D', 'F', 'G', 'A', 'B', 'E'])
    // Hot: the young uploads first; F's 18 net votes lift it over A and G.
    expect(byScore(hotScore).slice(0, 3)).toEqual(['F', 'G', 'A'])
  })

  it('period keeps uploads created within it, for top, best and divisive', async () => {
    expect(names((await get('/api/uploads?sort=top&period=day')).body.uploads)).toEqual(['F', 'G', 'A'])
    expect(names((await get('/api/uploads?sort=top&period=week')).body.uploads)).toEqual(['F', 'B', 'G', 'A'])
    expect(names((await get('/api/uploads?sort=best&period=month')).body.uploads)).toEqual(['B', 'F', 'C', 'G', 'A'])
    expect(names((await get('/api/uploads?sort=divisive&period=year')).body.uploads)).toEqual(['C', 'D', 'F', 'G', 'A', 'B'])
    expect(names((await get('/api/uploads?sort=top&period=all')).body.uploads)).toHaveLength(7)
    // new and hot ignore it.
    expect(names((await get('/api/uploads?sort=hot&period=day')).body.uploads)).toHaveLength(7)
  })

  it('pages a ranking', async () => {
    const response = await get('/api/uploads?sort=top&limit=2&page=2')
    expect(response.body).toMatchObject({ page: 2, limit: 2 })
    expect(names(response.body.uploads)).toEqual(['C', 'D'])
  })

  it('ranks a tag-filtered list and counts its total within the period', async () => {
    const all = await get('/api/uploads/filtered?tags=rk-cats&sort=best')
    expect(all.status).toBe(200)
    expect(names(all.body.uploads)).toEqual(['F', 'C', 'D'])
    expect(all.body.total).toBe(3)
    const month = await get('/api/uploads/filtered?tags=rk-cats,rk-dogs&match=any&sort=divisive&period=month')
    expect(names(month.body.uploads)).toEqual(['C', 'F', 'G'])
    expect(month.body.total).toBe(3)
    const untagged = await get('/api/uploads/filtered?sort=top&period=week&limit=1')
    expect(names(untagged.body.uploads)).toEqual(['F'])
    expect(untagged.body.total).toBe(4)
  })

  it('answers 400 Invalid sort / Invalid period for other values', async () => {
    for (const path of ['/api/uploads', '/api/uploads/filtered']) {
      for (const sort of ['old', 'TOP', '', 'date']) {
        const response = await get(`${path}?sort=${sort}`)
        expect(response.status).toBe(400)
        expect(response.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid sort' })
      }
      for (const period of ['hour', 'Day', '', '7']) {
        const response = await get(`${path}?sort=top&period=${period}`)
        expect(response.status).toBe(400)
        expect(response.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid period' })
      }
      expect((await get(`${path}?unvoted=yes`)).body).toMatchObject({ statusCode: 400, message: 'Invalid unvoted' })
    }
  })
})

describe('unvoted=true', () => {
  it('answers 401 Authentication required without a session', async () => {
    for (const path of ['/api/uploads?unvoted=true', '/api/uploads/filtered?unvoted=true&sort=top']) {
      const response = await get(path)
      expect(response.status).toBe(401)
      expect(response.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Authentication required' })
    }
  })

  it('leaves out what the signed-in caller voted on, privately', async () => {
    const reader = await registerUser({}, server.url)
    const before = await get('/api/uploads/filtered?unvoted=true', { token: reader.token })
    expect(before.status).toBe(200)
    expect(before.body.total).toBe(7)
    expect(before.headers.get('cache-control')).toBe('private, no-store')
    for (const name of ['G', 'B']) {
      expect((await api('/api/vote', { baseURL: server.url, method: 'POST', token: reader.token, body: { uploadId: ids[name], vote: 'does_not_fuck' } })).status).toBe(200)
    }
    const after = await get('/api/uploads/filtered?unvoted=true', { token: reader.token })
    expect(names(after.body.uploads)).toEqual(['A', 'F', 'C', 'D', 'E'])
    expect(after.body.total).toBe(5)
    expect(names((await get('/api/uploads?unvoted=true&sort=top&limit=2', { token: reader.token })).body.uploads)).toEqual(['F', 'C'])
    // unvoted=false (or none) is the public list, for anyone.
    expect((await get('/api/uploads/filtered?unvoted=false', { token: reader.token })).body.total).toBe(7)
    // Withdrawing a vote brings the upload back.
    await api(`/api/vote?uploadId=${ids.B}`, { baseURL: server.url, method: 'DELETE', token: reader.token })
    expect((await get('/api/uploads/filtered?unvoted=true', { token: reader.token })).body.total).toBe(6)
  })
})

describe('GET /api/vote/next', () => {
  it('gives an account the newest public upload it has not voted on, then null at the end', async () => {
    const first = await get('/api/vote/next', { token: voter.token })
    expect(first.status).toBe(200)
    expect(Object.keys(first.body)).toEqual(['upload'])
    expect(first.body.upload).toMatchObject({ id: ids.G, username: alice.username, description: 'Ranked G', tags: [{ name: 'rk-dogs', slug: 'rk-dogs' }] })
    expect(first.headers.get('cache-control')).toBe('private, no-store')
    const seen = []
    for (;;) {
      const { body } = await get('/api/vote/next', { token: voter.token })
      if (body.upload === null) break
      seen.push(body.upload.id)
      await api('/api/vote', { baseURL: server.url, method: 'POST', token: voter.token, body: { uploadId: body.upload.id, vote: 'fucks' } })
      expect(seen.length).toBeLessThanOrEqual(7)
    }
    expect(names(seen.map(id => ({ id })))).toEqual(['G', 'A', 'F', 'B', 'C', 'D', 'E'])
    expect((await get('/api/vote/next', { token: voter.token })).body).toEqual({ upload: null })
    // Withdrawing a vote makes that upload next again.
    await api(`/api/vote?uploadId=${ids.C}`, { baseURL: server.url, method: 'DELETE', token: voter.token })
    expect((await get('/api/vote/next', { token: voter.token })).body.upload.id).toBe(ids.C)
  })

  it('marks an upload voted for a visitor when either the fingerprint or the IP hash voted on it', async () => {
    const next = (fingerprint: string, ip: string) => get(`/api/vote/next?clientFingerprint=${fingerprint}`, { ip })
    expect((await next('fingerprint-one', '203.0.113.1')).body.upload.id).toBe(ids.G)
    const voted = await api('/api/vote/anonymous', { baseURL: server.url, method: 'POST', headers: { 'x-forwarded-for': '203.0.113.1' },
      body: { uploadId: ids.G, vote: 'upvote', clientFingerprint: 'fingerprint-one' } })
    expect(voted.status).toBe(200)
    // The same fingerprint from another IP, another fingerprint from the same IP: both have voted on G.
    const sameFingerprint = await next('fingerprint-one', '203.0.113.2')
    expect(sameFingerprint.status).toBe(200)
    expect(sameFingerprint.body.upload.id).toBe(ids.A)
    expect(sameFingerprint.headers.get('cache-control')).toBe('private, no-store')
    expect((await next('fingerprint-two', '203.0.113.1')).body.upload.id).toBe(ids.A)
    // Neither: G is still next.
    expect((await next('fingerprint-two', '203.0.113.2')).body.upload.id).toBe(ids.G)
  })

  it('leaves out the ratings the caller hides: an account\'s preferences, and rating= (how a visitor\'s browser asks)', async () => {
    const rate = (rating: string) => api(`/api/upload/${ids.G}`, { baseURL: server.url, method: 'PATCH', token: alice.token, body: { rating } })
    expect((await rate('explicit')).status).toBe(200)
    try {
      const user = await registerUser({}, server.url)
      expect((await get('/api/vote/next', { token: user.token })).body.upload).toMatchObject({ id: ids.G, rating: 'explicit' })
      expect((await api('/api/profile/preferences', { baseURL: server.url, method: 'PUT', token: user.token, body: { explicit: 'hide' } })).status).toBe(200)
      expect((await get('/api/vote/next', { token: user.token })).body.upload).toMatchObject({ id: ids.A, rating: 'safe' })
      const hidden = await get('/api/vote/next?rating=explicit', { token: user.token })
      expect(hidden.status).toBe(200)
      expect(hidden.body).toEqual({ upload: null })
      expect(hidden.headers.get('cache-control')).toBe('private, no-store')

      const visitor = (query: string) => get(`/api/vote/next?clientFingerprint=fingerprint-rated&${query}`, { ip: '203.0.113.9' })
      expect((await visitor('rating=safe,suggestive')).body.upload.id).toBe(ids.A)
      expect((await visitor('rating=explicit')).body.upload).toMatchObject({ id: ids.G, rating: 'explicit' })
      expect((await visitor('rating=suggestive')).body).toEqual({ upload: null })
      for (const query of ['rating=nsfw', 'rating=', 'rating=safe&rating=x']) {
        const refused = await visitor(query)
        expect(refused.status, query).toBe(400)
        expect(refused.body, query).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid rating' })
      }
    }
    finally {
      expect((await rate('safe')).status).toBe(200)
    }
  })

  it('answers 400 Invalid client fingerprint for a visitor without one or with a bad one', async () => {
    for (const query of ['', '?clientFingerprint=short', `?clientFingerprint=${'x'.repeat(257)}`]) {
      const response = await get(`/api/vote/next${query}`)
      expect(response.status).toBe(400)
      expect(response.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid client fingerprint' })
    }
  })
})

describe('GET and PUT /api/profile/filters', () => {
  const put = (body: unknown, token?: string) => api('/api/profile/filters', { baseURL: server.url, method: 'PUT', token, body })

  it('stores the hidden tags (deduplicated, in slug order) and answers them', async () => {
    const user = await registerUser({}, server.url)
    const empty = await get('/api/profile/filters', { token: user.token })
    expect(empty.status).toBe(200)
    expect(empty.body).toEqual({ hiddenTags: [], blindVoting: false })
    expect(empty.headers.get('cache-control')).toBe('private, no-store')
    const saved = await put({ hiddenTags: ['rk-dogs', 'not-yet-a-tag', 'rk-dogs', 'a1'] }, user.token)
    expect(saved.status).toBe(200)
    expect(saved.body).toEqual({ hiddenTags: ['a1', 'not-yet-a-tag', 'rk-dogs'], blindVoting: false })
    expect((await get('/api/profile/filters', { token: user.token })).body).toEqual({ hiddenTags: ['a1', 'not-yet-a-tag', 'rk-dogs'], blindVoting: false })
    expect((await put({ hiddenTags: [] }, user.token)).body).toEqual({ hiddenTags: [], blindVoting: false })
  })

  it('stores blind voting on the account when given, and keeps it when not', async () => {
    const user = await registerUser({}, server.url)
    expect((await put({ hiddenTags: ['rk-dogs'], blindVoting: true }, user.token)).body).toEqual({ hiddenTags: ['rk-dogs'], blindVoting: true })
    expect((await get('/api/profile/filters', { token: user.token })).body).toEqual({ hiddenTags: ['rk-dogs'], blindVoting: true })
    expect((await put({ hiddenTags: [] }, user.token)).body).toEqual({ hiddenTags: [], blindVoting: true })
    expect((await put({ hiddenTags: [], blindVoting: false }, user.token)).body).toEqual({ hiddenTags: [], blindVoting: false })
    const bad = await put({ hiddenTags: [], blindVoting: 'yes' }, user.token)
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid blind voting' })
    expect((await get('/api/profile/filters', { token: user.token })).body.blindVoting).toBe(false)
  })

  it('leaves uploads with a hidden tag out of every list for that caller only, totals included, privately', async () => {
    const user = await registerUser({}, server.url)
    await put({ hiddenTags: ['rk-cats'] }, user.token)
    const mine = await get('/api/uploads/filtered', { token: user.token })
    expect(mine.status).toBe(200)
    expect(mine.body.total).toBe(4)
    expect(names(mine.body.uploads)).toEqual(['G', 'A', 'B', 'E'])
    expect(mine.headers.get('cache-control')).toBe('private, no-store')
    expect((await get('/api/uploads/filtered')).body.total).toBe(7)
    expect((await get('/api/uploads/filtered')).headers.get('cache-control')).toBe('public, max-age=120')
    expect(names((await get('/api/uploads?sort=top', { token: user.token })).body.uploads).sort()).toEqual(['A', 'B', 'E', 'G'])
    expect((await get('/api/uploads/filtered?tags=rk-dogs', { token: user.token })).body.total).toBe(1)
    const perUser = await get(`/api/user/${alice.username}/uploads`, { token: user.token })
    expect(perUser.body.total).toBe(4)
    expect(perUser.headers.get('cache-control')).toBe('private, no-store')
    expect((await get(`/api/user/${alice.username}/uploads`)).body.total).toBe(7)
    for (const path of ['/api/items-recent', '/api/items-top-voted']) {
      const response = await get(path, { token: user.token })
      expect(response.status).toBe(200)
      expect(names(response.body.items).some(name => ['F', 'C', 'D'].includes(name))).toBe(false)
      expect(response.headers.get('cache-control')).toBe('private, no-store')
      expect(names((await get(path)).body.items)).toContain('F')
    }
    expect((await get('/api/vote/next', { token: user.token })).body.upload.id).toBe(ids.G)
    await put({ hiddenTags: ['rk-dogs'] }, user.token)
    expect((await get('/api/vote/next', { token: user.token })).body.upload.id).toBe(ids.A)
    expect((await get('/api/uploads/filtered', { token: user.token })).body.total).toBe(5)
  })

  it('answers 400 for anything but at most 100 valid slugs', async () => {
    const user = await registerUser({}, server.url)
    for (const body of [{}, { hiddenTags: 'rk-cats' }, { hiddenTags: ['Cats'] }, { hiddenTags: ['two words'] }, { hiddenTags: ['x'] }, { hiddenTags: [42] }, { hiddenTags: ['a_b'] }]) {
      const response = await put(body, user.token)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid hidden tags' })
    }
    const tooMany = await put({ hiddenTags: Array.from({ length: 101 }, (_, i) => `tag-${i}`) }, user.token)
    expect(tooMany.status).toBe(400)
    expect(tooMany.body).toMatchObject({ message: 'At most 100 hidden tags' })
    expect((await put({ hiddenTags: Array.from({ length: 100 }, (_, i) => `tag-${i}`) }, user.token)).body.hiddenTags).toHaveLength(100)
  })

  it('answers 401 without a session', async () => {
    expect((await get('/api/profile/filters')).status).toBe(401)
    const response = await put({ hiddenTags: [] })
    expect(response.status).toBe(401)
    expect(response.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Authentication required' })
  })
})
