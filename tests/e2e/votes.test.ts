import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { countedVotes, listEntryOf, makeAdmin, seedUpload, storedCounts } from '../support/seed'

let owner: TestUser
let voter: TestUser
let admin: TestUser

beforeAll(async () => {
  [owner, voter, admin] = await Promise.all([registerUser(), registerUser(), registerUser()])
  await makeAdmin(admin)
})

const vote = (uploadId: unknown, value: unknown, token?: string) => api('/api/vote', { method: 'POST', body: { uploadId, vote: value }, token })
const bad = (message: string) => ({ statusCode: 400, statusMessage: 'Bad Request', message })

describe('POST /api/vote', () => {
  it('records a vote and answers the vote record', async () => {
    const uploadId = await seedUpload(owner)
    const response = await vote(uploadId, 'fucks', voter.token)
    expect(response.status).toBe(200)
    expect(Object.keys(response.body)).toEqual(['vote'])
    expect(response.body.vote).toEqual({ voteId: expect.stringMatching(/^[0-9a-f-]{36}$/), userId: voter.id, uploadId, vote: 'fucks' })
    expect(await storedCounts(uploadId)).toEqual({ upvotes: 1, downvote_count: 0 })
    const entry = await listEntryOf(owner, uploadId)
    expect(entry).toMatchObject({ upvotes: 1, downvote_count: 0, stats: { voteCount: 1, upvotes: 1, downvotes: 0, averageRating: 10 } })
  })

  it('replaces an earlier vote, moving the counts, and keeps the vote id', async () => {
    const uploadId = await seedUpload(owner)
    const first = await vote(uploadId, 'fucks', voter.token)
    const second = await vote(uploadId, 'does_not_fuck', voter.token)
    expect(second.status).toBe(200)
    expect(second.body.vote).toEqual({ ...first.body.vote, vote: 'does_not_fuck' })
    expect(await storedCounts(uploadId)).toEqual({ upvotes: 0, downvote_count: 1 })
    expect((await listEntryOf(owner, uploadId)).stats).toEqual({ voteCount: 1, upvotes: 0, downvotes: 1, averageRating: 1 })
  })

  it('is idempotent for the same value', async () => {
    const uploadId = await seedUpload(owner)
    const first = await vote(uploadId, 'does_not_fuck', voter.token)
    const again = await vote(uploadId, 'does_not_fuck', voter.token)
    expect(again.body).toEqual(first.body)
    expect(await storedCounts(uploadId)).toEqual({ upvotes: 0, downvote_count: 1 })
  })

  it('computes the rating from every voter', async () => {
    const uploadId = await seedUpload(owner)
    const others = await Promise.all([registerUser(), registerUser()])
    await vote(uploadId, 'fucks', voter.token)
    await vote(uploadId, 'fucks', others[0]!.token)
    await vote(uploadId, 'does_not_fuck', others[1]!.token)
    expect((await listEntryOf(owner, uploadId)).stats).toEqual({ voteCount: 3, upvotes: 2, downvotes: 1, averageRating: 7 })
  })

  it('lets users vote on their own uploads, private ones included, and admins on any', async () => {
    const privateId = await seedUpload(owner, { isPrivate: true })
    expect((await vote(privateId, 'fucks', owner.token)).status).toBe(200)
    expect((await vote(privateId, 'fucks', admin.token)).status).toBe(200)
    expect(await storedCounts(privateId)).toEqual({ upvotes: 2, downvote_count: 0 })
  })

  it('answers 400 Invalid upload ID for an unknown, malformed, missing or private-and-not-yours upload', async () => {
    const privateId = await seedUpload(owner, { isPrivate: true })
    for (const uploadId of [randomUUID(), 'not-a-uuid', undefined, 42, privateId]) {
      const response = await vote(uploadId, 'fucks', voter.token)
      expect(response.status).toBe(400)
      expect(response.body).toMatchObject(bad('Invalid upload ID'))
    }
    expect(await storedCounts(privateId)).toEqual({ upvotes: 0, downvote_count: 0 })
  })

  it('answers 400 Invalid vote value for anything but fucks or does_not_fuck', async () => {
    const uploadId = await seedUpload(owner)
    for (const value of ['upvote', 'FUCKS', '', undefined, 1]) {
      const response = await vote(uploadId, value, voter.token)
      expect(response.status).toBe(400)
      expect(response.body).toMatchObject(bad('Invalid vote value'))
    }
    expect(await storedCounts(uploadId)).toEqual({ upvotes: 0, downvote_count: 0 })
  })

  it('answers 401 without a session, before validating', async () => {
    const response = await vote('nope', 'nope')
    expect(response.status).toBe(401)
    expect(response.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Authentication required' })
    expect((await vote(await seedUpload(owner), 'fucks', 'not-a-jwt')).status).toBe(401)
  })

  it('answers 401 for a signed-out session, before validating, and counts nothing', async () => {
    const uploadId = await seedUpload(owner)
    const gone = await registerUser()
    expect((await api('/api/auth/logout', { method: 'POST', token: gone.token })).status).toBe(200)
    const expired = { statusCode: 401, statusMessage: 'Unauthorized', message: 'Invalid or expired token' }
    for (const [id, value] of [[uploadId, 'fucks'], [uploadId, 'nope'], ['nope', 'fucks'], [randomUUID(), 'fucks']]) {
      const response = await vote(id, value, gone.token)
      expect(response.status).toBe(401)
      expect(response.body).toEqual(expired)
    }
    expect(await storedCounts(uploadId)).toEqual({ upvotes: 0, downvote_count: 0 })
    expect(await countedVotes(uploadId)).toEqual({ upvotes: 0, downvote_count: 0 })
  })
})

describe('GET /api/vote', () => {
  it('answers the caller\'s vote, or null', async () => {
    const uploadId = await seedUpload(owner)
    expect((await api(`/api/vote?uploadId=${uploadId}`, { token: voter.token })).body).toEqual({ vote: null })
    await vote(uploadId, 'does_not_fuck', voter.token)
    const response = await api(`/api/vote?uploadId=${uploadId}`, { token: voter.token })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ vote: 'does_not_fuck' })
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect((await api(`/api/vote?uploadId=${uploadId}`, { token: owner.token })).body).toEqual({ vote: null })
  })

  it('answers null for an unknown upload', async () => {
    expect((await api(`/api/vote?uploadId=${randomUUID()}`, { token: voter.token })).body).toEqual({ vote: null })
  })

  it('answers 400 Upload ID required without uploadId, 400 for a malformed one, 401 signed out', async () => {
    for (const query of ['', '?uploadId=']) {
      const response = await api(`/api/vote${query}`, { token: voter.token })
      expect(response.status).toBe(400)
      expect(response.body).toMatchObject(bad('Upload ID required'))
    }
    expect((await api('/api/vote?uploadId=abc', { token: voter.token })).body).toMatchObject(bad('Invalid upload ID'))
    expect((await api(`/api/vote?uploadId=${randomUUID()}`)).status).toBe(401)
  })
})

describe('DELETE /api/vote', () => {
  it('removes the caller\'s vote and its share of the counts', async () => {
    const uploadId = await seedUpload(owner)
    await vote(uploadId, 'fucks', voter.token)
    await vote(uploadId, 'fucks', owner.token)
    const response = await api(`/api/vote?uploadId=${uploadId}`, { method: 'DELETE', token: voter.token })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true, vote: null })
    expect(await storedCounts(uploadId)).toEqual({ upvotes: 1, downvote_count: 0 })
    expect((await api(`/api/vote?uploadId=${uploadId}`, { token: voter.token })).body).toEqual({ vote: null })
    const again = await api(`/api/vote?uploadId=${uploadId}`, { method: 'DELETE', token: voter.token })
    expect(again.body).toEqual({ success: true, vote: null })
    expect(await storedCounts(uploadId)).toEqual(await countedVotes(uploadId))
  })

  it('answers 400 without uploadId and 401 signed out', async () => {
    expect((await api('/api/vote', { method: 'DELETE', token: voter.token })).body).toMatchObject(bad('Upload ID required'))
    expect((await api(`/api/vote?uploadId=${randomUUID()}`, { method: 'DELETE' })).status).toBe(401)
  })

  it('answers 401 for a signed-out session, before validating, and keeps the vote', async () => {
    const uploadId = await seedUpload(owner)
    const gone = await registerUser()
    await vote(uploadId, 'fucks', gone.token)
    await api('/api/auth/logout', { method: 'POST', token: gone.token })
    for (const query of [`?uploadId=${uploadId}`, '']) {
      const response = await api(`/api/vote${query}`, { method: 'DELETE', token: gone.token })
      expect(response.status).toBe(401)
      expect(response.body).toMatchObject({ statusCode: 401, message: 'Invalid or expired token' })
    }
    expect(await storedCounts(uploadId)).toEqual({ upvotes: 1, downvote_count: 0 })
  })
})
