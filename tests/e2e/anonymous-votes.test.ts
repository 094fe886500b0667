import { createHmac, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { storedSecrets, countedVotes, databaseOf, listEntryOf, seedUpload, storedCounts } from '../support/seed'
import { startServer, type RunningServer } from '../support/server'

// Own server that believes X-Forwarded-For, so each test visitor can have its own IP.
let server: RunningServer
let owner: TestUser

beforeAll(async () => {
  server = await startServer({ NUXT_TRUST_PROXY: 'true' })
  owner = await registerUser({}, server.url)
})
afterAll(() => server.stop())

let nextIp = 1
const freshIp = () => `198.51.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`
const anonymous = (body: Record<string, unknown>, ip = freshIp(), userAgent = 'e2e-browser/1.0') =>
  api('/api/vote/anonymous', { baseURL: server.url, method: 'POST', body, headers: { 'x-forwarded-for': ip, 'user-agent': userAgent } })
const fingerprint = () => `fp-${randomUUID()}`
const upload = (input: { isPrivate?: boolean } = {}) => seedUpload(owner, input, server)
const counts = (uploadId: string) => storedCounts(uploadId, server)

describe('POST /api/vote/anonymous', () => {
  it('counts a vote and answers success', async () => {
    const uploadId = await upload()
    const response = await anonymous({ uploadId, vote: 'upvote', clientFingerprint: fingerprint() })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true, alreadyVoted: false, vote: 'upvote' })
    await anonymous({ uploadId, vote: 'downvote', clientFingerprint: fingerprint() })
    expect(await counts(uploadId)).toEqual({ upvotes: 1, downvote_count: 1 })
    expect((await listEntryOf(owner, uploadId, server.url)).stats).toEqual({ voteCount: 2, upvotes: 1, downvotes: 1, averageRating: 5.5 })
  })

  it('answers 409 with the earlier vote when the IP matches, whatever the fingerprint', async () => {
    const uploadId = await upload()
    const ip = freshIp()
    await anonymous({ uploadId, vote: 'downvote', clientFingerprint: fingerprint() }, ip)
    const again = await anonymous({ uploadId, vote: 'upvote', clientFingerprint: fingerprint() }, ip, 'another-agent/2.0')
    expect(again.status).toBe(409)
    expect(again.body).toEqual({
      statusCode: 409, statusMessage: 'Conflict', message: 'You have already voted on this upload',
      success: false, alreadyVoted: true, existingVote: 'downvote',
    })
    expect(await counts(uploadId)).toEqual({ upvotes: 0, downvote_count: 1 })
  })

  it('answers 409 when the fingerprint matches from another IP', async () => {
    const uploadId = await upload()
    const print = fingerprint()
    await anonymous({ uploadId, vote: 'upvote', clientFingerprint: print })
    const again = await anonymous({ uploadId, vote: 'downvote', clientFingerprint: print })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ success: false, alreadyVoted: true, existingVote: 'upvote' })
    expect(await counts(uploadId)).toEqual({ upvotes: 1, downvote_count: 0 })
  })

  it('lets the same visitor vote on another upload', async () => {
    const ip = freshIp()
    const print = fingerprint()
    expect((await anonymous({ uploadId: await upload(), vote: 'upvote', clientFingerprint: print }, ip)).status).toBe(200)
    expect((await anonymous({ uploadId: await upload(), vote: 'upvote', clientFingerprint: print }, ip)).status).toBe(200)
  })

  it('stores the IP and user agent only as keyed SHA-256 hashes', async () => {
    const uploadId = await upload()
    const ip = '203.0.113.77'
    await anonymous({ uploadId, vote: 'upvote', clientFingerprint: fingerprint() }, ip, 'Agent/9')
    const secret = (await storedSecrets(server)).ipHashSecret
    const row = (await databaseOf(server).db.get<Record<string, string>>(sql`SELECT * FROM anonymous_votes WHERE upload_id = ${uploadId}`))!
    expect(row.ip_hash).toBe(createHmac('sha256', secret).update(ip).digest('hex'))
    expect(row.ip_hash).not.toBe(createHmac('sha256', '').update(ip).digest('hex'))
    expect(row.user_agent_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(row)).not.toContain(ip)
    expect(JSON.stringify(row)).not.toContain('Agent/9')
  })

  it('answers 400 Invalid upload ID for a private, unknown or malformed upload', async () => {
    const privateId = await upload({ isPrivate: true })
    for (const uploadId of [privateId, randomUUID(), 'nope', undefined]) {
      const response = await anonymous({ uploadId, vote: 'upvote', clientFingerprint: fingerprint() })
      expect(response.status).toBe(400)
      expect(response.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid upload ID' })
    }
    expect(await counts(privateId)).toEqual({ upvotes: 0, downvote_count: 0 })
  })

  it('answers 400 for a bad vote value or fingerprint', async () => {
    const uploadId = await upload()
    for (const vote of ['fucks', 'UPVOTE', undefined]) {
      expect((await anonymous({ uploadId, vote, clientFingerprint: fingerprint() })).body.message).toBe('Invalid vote value')
    }
    for (const clientFingerprint of ['short', 'x'.repeat(257), undefined, 12345678]) {
      expect((await anonymous({ uploadId, vote: 'upvote', clientFingerprint })).body.message).toBe('Invalid client fingerprint')
    }
    expect(await counts(uploadId)).toEqual({ upvotes: 0, downvote_count: 0 })
  })
})

describe('counts under concurrency', () => {
  it('stay equal to the vote rows with 50 users and 50 anonymous visitors voting at once', async () => {
    const uploadId = await upload()
    const voters = await Promise.all(Array.from({ length: 50 }, () => registerUser({}, server.url)))
    const userVote = (i: number) => (i % 3 === 0 ? 'does_not_fuck' : 'fucks')
    const anonymousVote = (i: number) => (i % 4 === 0 ? 'downvote' : 'upvote')
    const ips = voters.map(() => freshIp())

    const round1 = await Promise.all([
      ...voters.map((voter, i) => api('/api/vote', { baseURL: server.url, method: 'POST', token: voter.token, body: { uploadId, vote: userVote(i) } })),
      ...ips.map((ip, i) => anonymous({ uploadId, vote: anonymousVote(i), clientFingerprint: `round1-${i}-${uploadId}` }, ip)),
    ])
    expect(round1.map(r => r.status)).toEqual(Array(100).fill(200))
    const userUp = voters.filter((_, i) => userVote(i) === 'fucks').length
    const anonUp = ips.filter((_, i) => anonymousVote(i) === 'upvote').length
    expect(await counts(uploadId)).toEqual({ upvotes: userUp + anonUp, downvote_count: 100 - userUp - anonUp })
    expect(await counts(uploadId)).toEqual(await countedVotes(uploadId, server))

    // Everyone changes their mind at once while every anonymous visitor tries again.
    const round2 = await Promise.all([
      ...voters.map((voter, i) => api('/api/vote', { baseURL: server.url, method: 'POST', token: voter.token, body: { uploadId, vote: userVote(i + 1) } })),
      ...ips.map((ip, i) => anonymous({ uploadId, vote: 'upvote', clientFingerprint: `round2-${i}` }, ip)),
    ])
    expect(round2.slice(0, 50).map(r => r.status)).toEqual(Array(50).fill(200))
    expect(round2.slice(50).map(r => r.status)).toEqual(Array(50).fill(409))
    const userUp2 = voters.filter((_, i) => userVote(i + 1) === 'fucks').length
    const expected = { upvotes: userUp2 + anonUp, downvote_count: 100 - userUp2 - anonUp }
    expect(await counts(uploadId)).toEqual(expected)
    expect(await countedVotes(uploadId, server)).toEqual(expected)
    const entry = await listEntryOf(owner, uploadId, server.url)
    expect(entry.stats).toEqual({
      voteCount: 100,
      upvotes: expected.upvotes,
      downvotes: expected.downvote_count,
      averageRating: Math.round(((10 * expected.upvotes + expected.downvote_count) / 100) * 100) / 100,
    })
  }, 120_000)
})
