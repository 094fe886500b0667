import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { seedUpload } from '../support/seed'

let owner: TestUser
let voter: TestUser
let other: TestUser

beforeAll(async () => {
  [owner, voter, other] = await Promise.all([registerUser(), registerUser(), registerUser()])
})

const vote = (uploadId: string, value: string, token: string) => api('/api/vote', { method: 'POST', body: { uploadId, vote: value }, token })
const mine = (ids: string, token?: string) => api(`/api/vote/mine?uploadIds=${ids}`, { token })
const bad = (message: string) => ({ statusCode: 400, statusMessage: 'Bad Request', message })

describe('GET /api/vote/mine', () => {
  it('answers the caller\'s votes on the uploads asked about, by id, leaving out the rest', async () => {
    const [up, down, none, private_] = await Promise.all([seedUpload(owner), seedUpload(owner), seedUpload(owner), seedUpload(voter, { isPrivate: true })])
    expect((await vote(up, 'fucks', voter.token)).status).toBe(200)
    expect((await vote(down, 'does_not_fuck', voter.token)).status).toBe(200)
    expect((await vote(private_, 'fucks', voter.token)).status).toBe(200)
    expect((await vote(none, 'fucks', other.token)).status).toBe(200)

    const response = await mine([up, down, none, private_, up].join(','), voter.token)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ votes: { [up]: 'fucks', [down]: 'does_not_fuck', [private_]: 'fucks' } })
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect((await mine([up, down].join(','), other.token)).body).toEqual({ votes: {} })
    expect((await mine(none, other.token)).body).toEqual({ votes: { [none]: 'fucks' } })
  })

  it('follows a changed or withdrawn vote', async () => {
    const uploadId = await seedUpload(owner)
    await vote(uploadId, 'fucks', voter.token)
    await vote(uploadId, 'does_not_fuck', voter.token)
    expect((await mine(uploadId, voter.token)).body).toEqual({ votes: { [uploadId]: 'does_not_fuck' } })
    expect((await api(`/api/vote?uploadId=${uploadId}`, { method: 'DELETE', token: voter.token })).status).toBe(200)
    expect((await mine(uploadId, voter.token)).body).toEqual({ votes: {} })
  })

  it('takes up to 100 ids', async () => {
    const ids = Array.from({ length: 100 }, () => randomUUID())
    expect((await mine(ids.join(','), voter.token)).body).toEqual({ votes: {} })
    const response = await mine([...ids, randomUUID()].join(','), voter.token)
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject(bad('Too many upload IDs'))
  })

  it('answers 400 for missing or malformed ids and 401 without a session', async () => {
    for (const [query, message] of [
      ['', 'Upload IDs required'],
      ['?uploadIds=', 'Upload IDs required'],
      ['?uploadIds=not-a-uuid', 'Invalid upload ID'],
      [`?uploadIds=${randomUUID()},,${randomUUID()}`, 'Invalid upload ID'],
      // One comma-separated value: repeated, the ids were still sent, so not "required".
      [`?uploadIds=${randomUUID()}&uploadIds=${randomUUID()}`, 'Invalid upload IDs'],
    ] as const) {
      const response = await api(`/api/vote/mine${query}`, { token: voter.token })
      expect(response.status).toBe(400)
      expect(response.body).toMatchObject(bad(message))
    }
    const response = await mine(randomUUID())
    expect(response.status).toBe(401)
    expect(response.body).toMatchObject({ statusCode: 401, message: 'Authentication required' })
  })
})
