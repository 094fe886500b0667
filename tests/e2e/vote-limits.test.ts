import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { seedUpload } from '../support/seed'
import { startServer, type RunningServer } from '../support/server'

// Own server with small VOTE and ANON_VOTE limits (every client here is 127.0.0.1).
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
