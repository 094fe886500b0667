import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { countedVotes, makeAdmin, seedUpload, storedCounts } from '../support/seed'

let admin: TestUser
let member: TestUser

beforeAll(async () => {
  [admin, member] = await Promise.all([registerUser(), registerUser()])
  await makeAdmin(admin)
})

const ban = (userId: string, shadowBanned: unknown, token?: string) =>
  api(`/api/admin/users/${userId}/shadow-ban`, { method: 'POST', body: { shadowBanned }, token })
const vote = (uploadId: string, value: string, token: string) => api('/api/vote', { method: 'POST', body: { uploadId, vote: value }, token })

describe('GET /api/admin/users', () => {
  it('lists accounts to admins, filtered by q', async () => {
    const response = await api(`/api/admin/users?q=${member.username}`, { token: admin.token })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ total: 1, page: 1, limit: 20 })
    expect(response.body.users).toEqual([{ id: member.id, username: member.username, email: member.email, isAdmin: false, shadowBanned: false, createdAt: expect.any(String) }])
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const self = await api(`/api/admin/users?q=${admin.email}`, { token: admin.token })
    expect(self.body.users[0].isAdmin).toBe(true)
    const paged = await api('/api/admin/users?limit=1&page=2', { token: admin.token })
    expect(paged.body.users).toHaveLength(1)
    expect(paged.body.total).toBeGreaterThanOrEqual(2)
  })

  it('answers 401 signed out, 403 to non-admins, 400 for a bad page', async () => {
    expect((await api('/api/admin/users')).status).toBe(401)
    const forbidden = await api('/api/admin/users', { token: member.token })
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toEqual({ statusCode: 403, statusMessage: 'Forbidden', message: 'Admin access required' })
    expect((await api('/api/admin/users?page=0', { token: admin.token })).body.message).toBe('Invalid page')
  })
})

describe('POST /api/admin/users/{id}/shadow-ban', () => {
  it('answers 401, 403, 404 and 400 where they apply', async () => {
    expect((await ban(member.id, true)).status).toBe(401)
    expect((await ban(member.id, true, member.token)).status).toBe(403)
    const missing = await ban(randomUUID(), true, admin.token)
    expect(missing.status).toBe(404)
    expect(missing.body.message).toBe('User not found')
    expect((await ban(member.id, 'yes', admin.token)).body.message).toBe('shadowBanned must be a boolean')
    expect((await ban('not-a-uuid', true, admin.token)).status).toBe(400)
    const self = await ban(admin.id, true, admin.token)
    expect(self.status).toBe(400)
    expect(self.body).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'You cannot shadow-ban yourself' })
    expect((await api(`/api/admin/users?q=${admin.username}`, { token: admin.token })).body.users[0].shadowBanned).toBe(false)
  })

  it('recounts at once: a banned user\'s votes stop counting, and count again after unbanning', async () => {
    const [owner, target, honest] = await Promise.all([registerUser(), registerUser(), registerUser()])
    const before = await seedUpload(owner)
    const during = await seedUpload(owner)
    expect((await vote(before, 'fucks', target.token)).status).toBe(200)
    await vote(before, 'does_not_fuck', honest.token)
    expect(await storedCounts(before)).toEqual({ upvotes: 1, downvote_count: 1 })

    const banned = await ban(target.id, true, admin.token)
    expect(banned.status).toBe(200)
    expect(banned.body).toEqual({ success: true, user: { id: target.id, username: target.username, shadowBanned: true } })
    expect(await storedCounts(before)).toEqual({ upvotes: 0, downvote_count: 1 })

    // The banned user sees nothing different...
    const response = await vote(during, 'fucks', target.token)
    expect(response.status).toBe(200)
    expect(response.body.vote).toMatchObject({ userId: target.id, uploadId: during, vote: 'fucks' })
    expect((await api(`/api/vote?uploadId=${during}`, { token: target.token })).body).toEqual({ vote: 'fucks' })
    // ...but the counts do not move, neither on a new vote, a change nor a removal.
    expect(await storedCounts(during)).toEqual({ upvotes: 0, downvote_count: 0 })
    await vote(before, 'does_not_fuck', target.token)
    expect(await storedCounts(before)).toEqual({ upvotes: 0, downvote_count: 1 })
    await api(`/api/vote?uploadId=${during}`, { method: 'DELETE', token: target.token })
    expect(await storedCounts(during)).toEqual({ upvotes: 0, downvote_count: 0 })
    await vote(during, 'fucks', target.token)

    const listed = await api(`/api/admin/users?q=${target.username}`, { token: admin.token })
    expect(listed.body.users[0].shadowBanned).toBe(true)

    const unbanned = await ban(target.id, false, admin.token)
    expect(unbanned.body.user.shadowBanned).toBe(false)
    expect(await storedCounts(before)).toEqual({ upvotes: 0, downvote_count: 2 })
    expect(await storedCounts(during)).toEqual({ upvotes: 1, downvote_count: 0 })
    expect(await storedCounts(before)).toEqual(await countedVotes(before))
  })
})
