import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { seedUpload } from '../support/seed'
import { startServer, type RunningServer } from '../support/server'
import { uploadForm } from '../support/images'

// Own server with small VOTE, ANON_VOTE and UPLOAD limits and the default export limit
// (every client here is 127.0.0.1).
let server: RunningServer
let voter: TestUser

beforeAll(async () => {
  server = await startServer({
    NUXT_RATE_LIMIT_ENABLED: 'true',
    NUXT_RATE_LIMIT_AUTH_MAX: '50',
    NUXT_RATE_LIMIT_VOTE_MAX: '3',
    NUXT_RATE_LIMIT_VOTE_WINDOW_SECONDS: '60',
    NUXT_RATE_LIMIT_ANON_VOTE_MAX: '2',
    NUXT_RATE_LIMIT_ANON_VOTE_WINDOW_SECONDS: '60',
    NUXT_RATE_LIMIT_UPLOAD_MAX: '2',
    NUXT_RATE_LIMIT_COMMENT_MAX: '2',
  })
  voter = await registerUser({}, server.url)
})
afterAll(() => server.stop())

describe('rate limits on votes', () => {
  it('counts POST and DELETE /api/vote in VOTE, then answers 429 with Retry-After', async () => {
    const uploadId = await seedUpload(voter, {}, server)
    const cast = () => api('/api/vote', { baseURL: server.url, method: 'POST', token: voter.token, body: { uploadId, vote: 'fucks' } })
    const first = await cast()
    expect(first.status).toBe(200)
    expect(first.headers.get('ratelimit-limit')).toBe('3')
    expect(first.headers.get('ratelimit-remaining')).toBe('2')
    expect((await api(`/api/vote?uploadId=${uploadId}`, { baseURL: server.url, method: 'DELETE', token: voter.token })).status).toBe(200)
    // GET /api/vote is GENERAL, not VOTE.
    expect((await api(`/api/vote?uploadId=${uploadId}`, { baseURL: server.url, token: voter.token })).headers.get('ratelimit-limit')).toBe('100')
    expect((await cast()).status).toBe(200)
    const limited = await cast()
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(limited.body).toEqual({ statusCode: 429, statusMessage: 'Too Many Requests', message: 'Too many requests, please try again later' })
  })

  it('counts anonymous votes in ANON_VOTE, apart from VOTE', async () => {
    const uploadIds = await Promise.all([0, 1, 2].map(() => seedUpload(voter, {}, server)))
    const cast = (uploadId: string) => api('/api/vote/anonymous', { baseURL: server.url, method: 'POST', body: { uploadId, vote: 'upvote', clientFingerprint: `limit-${uploadId}` } })
    const first = await cast(uploadIds[0]!)
    expect(first.status).toBe(200)
    expect(first.headers.get('ratelimit-limit')).toBe('2')
    expect((await cast(uploadIds[1]!)).status).toBe(200)
    const limited = await cast(uploadIds[2]!)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/)
  })
})

describe('rate limit on comments', () => {
  it('counts posting and editing in COMMENT per account, then answers 429; others still comment', async () => {
    const [writer, other] = await Promise.all([registerUser({}, server.url), registerUser({}, server.url)])
    const uploadId = await seedUpload(writer, {}, server)
    const write = (user: TestUser) => api(`/api/upload/${uploadId}/comments`, { baseURL: server.url, method: 'POST', token: user.token, body: { body: 'hi' } })
    const first = await write(writer)
    expect(first.status).toBe(201)
    expect(first.headers.get('ratelimit-limit')).toBe('2')
    expect(first.headers.get('ratelimit-remaining')).toBe('1')
    const edited = await api(`/api/comments/${first.body.comment.id}`, { baseURL: server.url, method: 'PATCH', token: writer.token, body: { body: 'edited' } })
    expect(edited.status).toBe(200)
    expect(edited.headers.get('ratelimit-remaining')).toBe('0')
    const limited = await write(writer)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(limited.body).toEqual({ statusCode: 429, statusMessage: 'Too Many Requests', message: 'Too many requests, please try again later' })
    expect((await write(other)).status).toBe(201)
    // Reading the thread is GENERAL.
    expect((await api(`/api/upload/${uploadId}/comments`, { baseURL: server.url })).headers.get('ratelimit-limit')).toBe('100')
  })

  it('does not count a comment sent again with its Idempotency-Key, which creates nothing', async () => {
    const writer = await registerUser({}, server.url)
    const uploadId = await seedUpload(writer, {}, server)
    const send = () => api(`/api/upload/${uploadId}/comments`, { baseURL: server.url, method: 'POST', token: writer.token, body: { body: 'once' }, headers: { 'idempotency-key': 'lost-answer-1' } })
    const first = await send()
    expect(first.headers.get('ratelimit-remaining')).toBe('1')
    const last = await api(`/api/upload/${uploadId}/comments`, { baseURL: server.url, method: 'POST', token: writer.token, body: { body: 'the last allowed' } })
    expect(last.headers.get('ratelimit-remaining')).toBe('0')
    // At the limit, the lost answer still comes back, as often as it is asked for; a new comment does not go.
    for (let again = 0; again < 3; again++) {
      const replay = await send()
      expect(replay.status).toBe(201)
      expect(replay.body).toEqual(first.body)
    }
    expect((await api(`/api/upload/${uploadId}/comments`, { baseURL: server.url, method: 'POST', token: writer.token, body: { body: 'one too many' } })).status).toBe(429)
    // The same key with other words is no replay: counted, so over the limit it is the 429, not a free 409.
    const other = await api(`/api/upload/${uploadId}/comments`, { baseURL: server.url, method: 'POST', token: writer.token, body: { body: 'not the same' }, headers: { 'idempotency-key': 'lost-answer-1' } })
    expect(other.status).toBe(429)
  })
})

describe('rate limit on uploads with a credential that is not valid', () => {
  it('counts them in UPLOAD by IP, with RateLimit-* headers, then answers 429', async () => {
    const link = () => uploadForm({ upload_type: 'link', external_url: 'https://example.com/junk', description: 'Junk' })
    const junkCookie = await api('/api/upload', { baseURL: server.url, method: 'POST', token: 'junk', body: link() })
    expect(junkCookie.status).toBe(401)
    expect([junkCookie.headers.get('ratelimit-limit'), junkCookie.headers.get('ratelimit-remaining')]).toEqual(['2', '1'])
    const junkBearer = await api('/api/v1/upload', { baseURL: server.url, method: 'POST', bearer: 'junk', body: link() })
    expect(junkBearer.status).toBe(401)
    expect([junkBearer.headers.get('ratelimit-limit'), junkBearer.headers.get('ratelimit-remaining')]).toEqual(['2', '0'])
    const limited = await api('/api/upload', { baseURL: server.url, method: 'POST', token: 'junk', body: link() })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(limited.body).toEqual({ statusCode: 429, statusMessage: 'Too Many Requests', message: 'Too many requests, please try again later' })
    // A signed-in uploader counts on their own account, not on the IP's spent allowance.
    const own = await api('/api/upload', { baseURL: server.url, method: 'POST', token: voter.token, body: link() })
    expect(own.status, JSON.stringify(own.body)).toBe(201)
    expect([own.headers.get('ratelimit-limit'), own.headers.get('ratelimit-remaining')]).toEqual(['2', '1'])
  })
})

describe('rate limit on data exports', () => {
  it('allows 3 exports an hour per account, then answers 429 with Retry-After', async () => {
    const exporter = await registerUser({}, server.url)
    for (let i = 0; i < 3; i++) {
      const response = await api('/api/profile/export', { baseURL: server.url, token: exporter.token })
      expect(response.status).toBe(200)
      expect(response.body.profile.id).toBe(exporter.id)
      // Still counted in GENERAL by IP, as every other request.
      expect(response.headers.get('ratelimit-limit')).toBe('100')
    }
    const limited = await api('/api/profile/export', { baseURL: server.url, token: exporter.token })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3500)
    expect(limited.body).toEqual({ statusCode: 429, statusMessage: 'Too Many Requests', message: 'Too many data exports, please try again later' })
    // Per account: another account exports at once.
    expect((await api('/api/profile/export', { baseURL: server.url, token: voter.token })).status).toBe(200)
  })
})
