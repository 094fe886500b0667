import { describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { seedUpload, serverDatabase } from '../support/seed'

// user_vote_counts is kept by triggers on votes; GET /api/profile answers it as stats.votes.

/** The account's kept vote count (null: no row), and its votes counted from the table. */
async function counts(user: TestUser) {
  const { db } = serverDatabase()
  const row = await db.get<{ kept: number | null, counted: number }>(sql`SELECT
    (SELECT sum(votes) FROM user_vote_counts WHERE user_id = ${user.id}) AS kept,
    (SELECT count(*) FROM votes WHERE user_id = ${user.id}) AS counted`)
  return { kept: row!.kept === null ? null : Number(row!.kept), counted: Number(row!.counted) }
}

async function profileVotes(user: TestUser): Promise<number> {
  const response = await api('/api/profile', { token: user.token })
  expect(response.status).toBe(200)
  return response.body.stats.votes as number
}

const vote = (user: TestUser, uploadId: string, value: 'fucks' | 'does_not_fuck' = 'fucks') =>
  api('/api/vote', { method: 'POST', token: user.token, body: { uploadId, vote: value } })
const takeBack = (user: TestUser, uploadId: string) => api(`/api/vote?uploadId=${uploadId}`, { method: 'DELETE', token: user.token })

describe('an account\'s kept vote count', () => {
  it('follows votes cast, changed, taken back, and uploads deleted', async () => {
    const [owner, voter] = await Promise.all([registerUser(), registerUser()])
    expect(await profileVotes(voter)).toBe(0)
    const uploads = await Promise.all([seedUpload(owner), seedUpload(owner), seedUpload(owner)])
    for (const id of uploads) expect((await vote(voter, id)).status).toBe(200)
    expect(await counts(voter)).toEqual({ kept: 3, counted: 3 })
    expect(await profileVotes(voter)).toBe(3)

    expect((await vote(voter, uploads[0]!, 'does_not_fuck')).status).toBe(200)
    expect(await counts(voter)).toEqual({ kept: 3, counted: 3 })
    expect((await takeBack(voter, uploads[1]!)).status).toBe(200)
    expect(await counts(voter)).toEqual({ kept: 2, counted: 2 })
    // A visitor's vote is not an account's.
    const anonymous = await api('/api/vote/anonymous', { method: 'POST', body: { uploadId: uploads[1], vote: 'upvote', clientFingerprint: `count-${voter.id}` } })
    expect(anonymous.status).toBe(200)
    expect(await counts(voter)).toEqual({ kept: 2, counted: 2 })

    expect((await api(`/api/upload/${uploads[2]}`, { method: 'DELETE', token: owner.token })).status).toBe(200)
    expect(await counts(voter)).toEqual({ kept: 1, counted: 1 })
    expect(await profileVotes(voter)).toBe(1)
    expect(await counts(owner)).toEqual({ kept: null, counted: 0 })
  })

  it('stays exact under votes of one account, and uploads deleted under many voters, side by side', async () => {
    const [owner, ...voters] = await Promise.all(Array.from({ length: 7 }, () => registerUser()))
    const uploads = await Promise.all(Array.from({ length: 14 }, () => seedUpload(owner!)))
    // Every voter votes on every upload at once, the first also taking back four.
    const cast = await Promise.all(voters.flatMap(voter => uploads.map(id => vote(voter, id))))
    expect(cast.map(response => response.status)).toEqual(Array(84).fill(200))
    const first = voters[0]!
    const results = await Promise.all([
      ...uploads.slice(0, 4).map(id => takeBack(first, id)),
      // Six uploads deleted at once, each taking the six voters' votes with it.
      ...uploads.slice(8).map(id => api(`/api/upload/${id}`, { method: 'DELETE', token: owner!.token })),
      ...voters.slice(1).map(voter => vote(voter, uploads[4]!, 'does_not_fuck')),
    ])
    expect(results.map(response => response.status)).toEqual(Array(15).fill(200))
    expect(await counts(first)).toEqual({ kept: 4, counted: 4 })
    for (const voter of voters.slice(1)) expect(await counts(voter)).toEqual({ kept: 8, counted: 8 })
    expect(await Promise.all(voters.map(profileVotes))).toEqual([4, 8, 8, 8, 8, 8])
  })

  it('goes with its account, and leaves other accounts\' counts alone', async () => {
    const [owner, leaving, staying] = await Promise.all([registerUser(), registerUser(), registerUser()])
    const theirs = await seedUpload(leaving)
    const other = await seedUpload(owner)
    for (const voter of [leaving, staying]) {
      for (const id of [theirs, other]) expect((await vote(voter, id)).status).toBe(200)
    }
    const response = await api('/api/profile', { method: 'DELETE', token: leaving.token, body: { password: leaving.password } })
    expect(response.status).toBe(200)
    expect(await counts(leaving)).toEqual({ kept: null, counted: 0 })
    expect(await counts(staying)).toEqual({ kept: 1, counted: 1 })
  })
})
