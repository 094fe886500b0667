import { describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { enableMfa, requestResetToken, totpCode } from '../support/accounts'
import { randomImage } from '../support/images'
import { sql } from '../../server/database/sql'
import { countedVotes, makeAdmin, seedUpload, serverDatabase, storedCounts } from '../support/seed'
import { postUpload } from '../support/uploads'
import { sharedServer } from '../support/shared-server'

/**
 * The guarantees that SQLite's single writer gave for free, re-proven with
 * requests sent side by side (this file runs on SQLite and on PostgreSQL,
 * where transactions do run concurrently).
 */

const users = (n: number) => Promise.all(Array.from({ length: n }, () => registerUser()))
const statuses = (responses: { status: number }[]) => responses.map(r => r.status).sort((a, b) => a - b)
const count = (list: number[], status: number) => list.filter(s => s === status).length

describe('votes under concurrency', () => {
  it('keeps the counts exact under 100 concurrent votes flipping values, and its tags\' copies of them while tags are added', async () => {
    const [owner, ...voters] = await users(21)
    const uploadId = await seedUpload(owner!, { tags: ['race-one', 'race-two'] })
    const values = ['fucks', 'does_not_fuck'] as const
    const requests = voters.flatMap((voter, v) => Array.from({ length: 5 }, (_, k) =>
      api('/api/vote', { method: 'POST', token: voter.token, body: { uploadId, vote: values[(v + k) % 2] } })))
    // Tags added meanwhile take the upload's lock first too: no deadlock, every copy right.
    const tagging = Array.from({ length: 4 }, (_, i) => api(`/api/uploads/${uploadId}/tags`, { method: 'POST', token: owner!.token, body: { tags: [`race-${i + 3}`] } }))
    const answers = await Promise.all(requests)
    expect(count(statuses(answers), 200)).toBe(100)
    expect(statuses(await Promise.all(tagging))).toEqual([200, 200, 200, 200])
    const stored = await storedCounts(uploadId)
    expect(stored).toEqual(await countedVotes(uploadId))
    expect(stored.upvotes + stored.downvote_count).toBe(20)
    // Each of its 6 tags' links carries the upload's counts once a tag's ranked page is
    // read (votes leave them pending until then: services/rank-copies.ts).
    expect((await api('/api/uploads/filtered?tags=race-one&sort=top')).status).toBe(200)
    const { db } = serverDatabase()
    const links = await db.all<{ upload_upvotes: number, upload_downvote_count: number }>(sql`SELECT upload_upvotes, upload_downvote_count FROM upload_tags WHERE upload_id = ${uploadId}`)
    expect(links).toEqual(Array.from({ length: 6 }, () => ({ upload_upvotes: stored.upvotes, upload_downvote_count: stored.downvote_count })))
  })

  it('keeps the counts exact under votes cast and taken back side by side, and on its tags\' links', async () => {
    const [owner, ...voters] = await users(16)
    const uploadId = await seedUpload(owner!, { tags: ['take-back-one', 'take-back-two'] })
    // Each voter casts, takes back and casts again in parallel with everyone else;
    // the requests of one voter race each other too, so any of them may land last.
    const requests = voters.flatMap((voter, v) => [
      api('/api/vote', { method: 'POST', token: voter.token, body: { uploadId, vote: v % 2 ? 'fucks' : 'does_not_fuck' } }),
      api(`/api/vote?uploadId=${uploadId}`, { method: 'DELETE', token: voter.token }),
      api('/api/vote', { method: 'POST', token: voter.token, body: { uploadId, vote: v % 3 ? 'fucks' : 'does_not_fuck' } }),
      api(`/api/vote?uploadId=${uploadId}`, { method: 'DELETE', token: voter.token }),
    ])
    expect(statuses(await Promise.all(requests))).toEqual(Array.from({ length: 60 }, () => 200))
    const stored = await storedCounts(uploadId)
    expect(stored).toEqual(await countedVotes(uploadId))
    const { db } = serverDatabase()
    const rows = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM votes WHERE upload_id = ${uploadId}`)
    expect(stored.upvotes + stored.downvote_count).toBe(rows!.n)
    expect((await api('/api/uploads/filtered?tags=take-back-one&sort=hot')).status).toBe(200)
    const links = await db.all<{ upload_upvotes: number, upload_downvote_count: number }>(sql`SELECT upload_upvotes, upload_downvote_count FROM upload_tags WHERE upload_id = ${uploadId}`)
    expect(links).toEqual([stored, stored].map(({ upvotes, downvote_count }) => ({ upload_upvotes: upvotes, upload_downvote_count: downvote_count })))
    // Taking back what is not there changes nothing; a last vote each leaves 15 counted.
    for (const voter of voters) {
      expect((await api(`/api/vote?uploadId=${uploadId}`, { method: 'DELETE', token: voter.token })).status).toBe(200)
      expect((await api('/api/vote', { method: 'POST', token: voter.token, body: { uploadId, vote: 'fucks' } })).status).toBe(200)
    }
    expect(await storedCounts(uploadId)).toEqual({ upvotes: 15, downvote_count: 0 })
  })

  it('counts one anonymous vote per fingerprint under 20 parallel tries', async () => {
    const [owner] = await users(1)
    const uploadId = await seedUpload(owner!)
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => api('/api/vote/anonymous', {
      method: 'POST',
      body: { uploadId, vote: i % 2 ? 'upvote' : 'downvote', clientFingerprint: 'one-visitor-fingerprint' },
    })))
    const codes = statuses(answers)
    expect(count(codes, 200)).toBe(1)
    expect(count(codes, 409)).toBe(19)
    const winner = answers.find(a => a.status === 200)!.body.vote as 'upvote' | 'downvote'
    for (const loser of answers.filter(a => a.status === 409)) {
      expect(loser.body).toMatchObject({ success: false, alreadyVoted: true, existingVote: winner })
    }
    expect(await storedCounts(uploadId)).toEqual(winner === 'upvote' ? { upvotes: 1, downvote_count: 0 } : { upvotes: 0, downvote_count: 1 })
  })

  it('keeps the counts exact while a voter is shadow-banned and unbanned mid-flight', async () => {
    const [owner, admin, banned, ...others] = await users(18)
    await makeAdmin(admin!)
    const uploadId = await seedUpload(owner!)
    const voteOf = (voter: TestUser, k: number) => api('/api/vote', { method: 'POST', token: voter.token, body: { uploadId, vote: k % 2 ? 'fucks' : 'does_not_fuck' } })
    const ban = (shadowBanned: boolean) => api(`/api/admin/users/${banned!.id}/shadow-ban`, { method: 'POST', token: admin!.token, body: { shadowBanned } })
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, (_, k) => voteOf(banned!, k)),
      ...others.flatMap((voter, v) => [voteOf(voter, v), voteOf(voter, v + 1)]),
      ban(true),
      ban(false),
      ban(true),
    ])
    expect(answers.every(a => a.status === 200)).toBe(true)
    const stored = await storedCounts(uploadId)
    expect(stored).toEqual(await countedVotes(uploadId))
    expect(stored.upvotes + stored.downvote_count).toBeGreaterThanOrEqual(15)
  })

  it('counts exactly the votes answered 200 when their session signs out mid-flight', async () => {
    const [owner, voter] = await users(2)
    const uploadIds = await Promise.all(Array.from({ length: 20 }, () => seedUpload(owner!)))
    const voteOn = (uploadId: string) => api('/api/vote', { method: 'POST', token: voter!.token, body: { uploadId, vote: 'fucks' } })
    const [logout, ...answers] = await Promise.all([
      new Promise<void>(resolve => setTimeout(resolve, 5)).then(() => api('/api/auth/logout', { method: 'POST', token: voter!.token })),
      ...uploadIds.map(voteOn),
    ])
    expect(logout!.status).toBe(200)
    const codes = statuses(answers)
    expect(count(codes, 200) + count(codes, 401)).toBe(20)
    const counted = await Promise.all(uploadIds.map(uploadId => storedCounts(uploadId)))
    answers.forEach((answer, i) => {
      expect(counted[i]).toEqual(answer.status === 200 ? { upvotes: 1, downvote_count: 0 } : { upvotes: 0, downvote_count: 0 })
    })
    expect((await voteOn(uploadIds[0]!)).status).toBe(401)
  })
})

describe('limits under concurrency', () => {
  it('never lets parallel tag adds pass the 10-tag cap', async () => {
    const [owner] = await users(1)
    const uploadId = await seedUpload(owner!, { tags: [] })
    const answers = await Promise.all(Array.from({ length: 14 }, (_, i) =>
      api(`/api/uploads/${uploadId}/tags`, { method: 'POST', token: owner!.token, body: { tags: [`parallel tag ${i}`] } })))
    const codes = statuses(answers)
    expect(count(codes, 200)).toBe(10)
    expect(count(codes, 400)).toBe(4)
    const tags = await api(`/api/uploads/${uploadId}/tags`, { token: owner!.token })
    expect(tags.body.tags).toHaveLength(10)
  })

  it('answers one 201 and 409s when the same image is uploaded in parallel', async () => {
    const [owner] = await users(1)
    const image = await randomImage('png', { width: 96, height: 64 })
    const answers = await Promise.all(Array.from({ length: 4 }, () =>
      postUpload(owner!, { upload_type: 'image', description: 'the same picture' }, { data: image, name: 'same.png', type: 'image/png' })))
    const codes = statuses(answers)
    expect(codes).toEqual([201, 409, 409, 409])
    const created = answers.find(a => a.status === 201)!.body.upload.id
    for (const duplicate of answers.filter(a => a.status === 409)) {
      expect(duplicate.body).toMatchObject({ duplicate: true, existingUploadId: created })
    }
  })
})

describe('single-use secrets under concurrency', () => {
  it('accepts one TOTP code once when ten logins race with it', async () => {
    const user = await enableMfa(await registerUser())
    // The setup used the current step's code; the next step's is accepted (±1 step) exactly once.
    const code = totpCode(user.secret, user.verifiedAt + 30_000)
    const login = () => api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: user.password, mfaCode: code } })
    const answers = await Promise.all(Array.from({ length: 10 }, login))
    const codes = statuses(answers)
    expect(count(codes, 200)).toBe(1)
    expect(count(codes, 401)).toBe(9)
  })

  it('accepts one backup code once when ten logins race with it', async () => {
    const user = await enableMfa(await registerUser())
    const login = () => api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: user.password, mfaCode: user.backupCodes[0] } })
    const codes = statuses(await Promise.all(Array.from({ length: 10 }, login)))
    expect(count(codes, 200)).toBe(1)
    expect(count(codes, 401)).toBe(9)
  })

  it('resets a password once when ten resets race with one token', async () => {
    const user = await registerUser()
    const token = await requestResetToken(sharedServer().dataDir, user.email)
    const reset = (i: number) => api('/api/auth/reset-password', { method: 'POST', body: { token, password: `new password ${i}` } })
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => reset(i)))
    const codes = statuses(answers)
    expect(count(codes, 200)).toBe(1)
    expect(count(codes, 400)).toBe(9)
    const winner = answers.findIndex(a => a.status === 200)
    const login = await api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: `new password ${winner}` } })
    expect(login.status).toBe(200)
  })
  it('uses up only the winner\'s backup code when resets with one token race, each with its own code', async () => {
    const user = await enableMfa(await registerUser())
    const token = await requestResetToken(sharedServer().dataDir, user.email)
    const racing = user.backupCodes.slice(0, 5)
    const answers = await Promise.all(racing.map((mfaCode, i) => api('/api/auth/reset-password', { method: 'POST', body: { token, password: `new password ${i}`, mfaCode } })))
    const codes = statuses(answers)
    expect(count(codes, 200)).toBe(1)
    expect(count(codes, 400)).toBe(4)
    const winner = answers.findIndex(a => a.status === 200)
    const login = (mfaCode: string) => api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: `new password ${winner}`, mfaCode } })
    expect((await login(racing[winner]!)).status).toBe(401)
    for (const [i, code] of racing.entries()) {
      if (i !== winner) expect((await login(code)).status, `backup code ${i}`).toBe(200)
    }
  })
})

describe('account changes racing each other', () => {
  it('never lets a change-password in flight override a reset that completed meanwhile', async () => {
    // Each user starts a change-password and, at the same moment, completes a
    // reset (one argon2 hash against the change's verify + hash, so the reset
    // usually commits while the change is still hashing).
    const trials = await Promise.all(Array.from({ length: 8 }, async (_, i) => {
      const user = await registerUser()
      const token = await requestResetToken(sharedServer().dataDir, user.email)
      const changed = `changed password ${i}`
      const reset = `reset password ${i}`
      const [change, done] = await Promise.all([
        api('/api/auth/change-password', { method: 'POST', token: user.token, body: { currentPassword: user.password, newPassword: changed, confirmPassword: changed } }),
        api('/api/auth/reset-password', { method: 'POST', body: { token, password: reset } }),
      ])
      return { user, change, done, changed, reset }
    }))
    const login = (email: string, password: string) => api('/api/auth', { method: 'POST', body: { action: 'login', email, password } })
    for (const { user, change, done, changed, reset } of trials) {
      expect(done.status).toBe(200)
      expect([200, 401]).toContain(change.status)
      if (change.status === 401) expect(change.body.message).toBe('Invalid or expired token')
      // Whichever committed first, the completed reset's password is the one that stays.
      expect((await login(user.email, reset)).status).toBe(200)
      expect((await login(user.email, changed)).status).toBe(401)
      expect((await api('/api/profile', { token: user.token })).status).toBe(401)
    }
    // The race was really run: some changes found their session revoked by the reset.
    expect(trials.filter(t => t.change.status === 401).length).toBeGreaterThan(0)
  })

  it('never leaves MFA on with a secret nobody verified when set-ups race a verify', async () => {
    const trials = await Promise.all(Array.from({ length: 8 }, async () => {
      const user = await registerUser()
      const first = await api('/api/auth/mfa/setup', { method: 'POST', token: user.token })
      const verifiedAt = Date.now()
      const [verify, ...setups] = await Promise.all([
        api('/api/auth/mfa/verify', { method: 'POST', token: user.token, body: { mfaCode: totpCode(first.body.secret, verifiedAt) } }),
        ...Array.from({ length: 3 }, () => api('/api/auth/mfa/setup', { method: 'POST', token: user.token })),
      ])
      return { user, secret: first.body.secret as string, verify: verify!, setups, verifiedAt }
    }))
    for (const { user, secret, verify, setups, verifiedAt } of trials) {
      expect([200, 400]).toContain(verify.status)
      const profile = await api('/api/profile', { token: user.token })
      expect(profile.body.user.mfaEnabled).toBe(verify.status === 200)
      for (const setup of setups) expect([200, 409]).toContain(setup.status)
      if (verify.status === 200) {
        // A setup that answers a new secret after the verify would have replaced the verified one.
        expect(setups.map(s => s.status)).toEqual([409, 409, 409])
        // On, with the secret that was verified: its next code signs in.
        const next = totpCode(secret, verifiedAt + 30_000)
        const login = await api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: user.password, mfaCode: next } })
        expect(login.status).toBe(200)
        expect(login.body.token).toEqual(expect.any(String))
      }
      else {
        expect(verify.body.message).toBe('Invalid MFA code')
        expect(setups.some(s => s.status === 200)).toBe(true)
      }
    }
  })
})
