import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { expectMatchesOpenApi } from '../support/openapi'
import { enableMfa } from '../support/accounts'
import { makeAdmin, seedUpload, serverDatabase, storedCounts } from '../support/seed'
import { createApiToken, uploadImage } from '../support/uploads'
import { registerPasskey } from '../support/webauthn'
import { sharedServer } from '../support/shared-server'

const mediaPath = (...parts: string[]) => join(sharedServer().dataDir, 'media', ...parts)
const db = () => serverDatabase().db
const vote = (uploadId: string, value: string, token: string) => api('/api/vote', { method: 'POST', body: { uploadId, vote: value }, token })
const addPasskey = async (user: Pick<TestUser, 'token'>) => (await registerPasskey(user, sharedServer().baseURL)).passkey
const deleteAccount = (user: Pick<TestUser, 'token'>, body: unknown) => api('/api/profile', { method: 'DELETE', body, token: user.token })

/** Rows anywhere in the database that still name the user. */
async function rowsOf(userId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const [table, column] of [['users', 'id'], ['sessions', 'user_id'], ['api_tokens', 'user_id'], ['mfa_backup_codes', 'user_id'],
    ['password_reset_tokens', 'user_id'], ['oauth_accounts', 'user_id'], ['uploads', 'user_id'], ['votes', 'user_id'], ['reports', 'reporter_id'],
    ['passkeys', 'user_id'], ['webauthn_challenges', 'user_id'], ['user_hidden_tags', 'user_id']]) {
    const row = await db().get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.raw(table!)} WHERE ${sql.raw(column!)} = ${userId}`)
    counts[table!] = row!.n
  }
  return counts
}

describe('GET /api/profile/export', () => {
  it('answers the account\'s data as a download, without secrets', async () => {
    const user = await registerUser()
    const image = await uploadImage(user, { tags: `export-${user.id.slice(0, 8)}` })
    const other = await seedUpload(await registerUser())
    await vote(other, 'fucks', user.token)
    await createApiToken(user.id)
    await api(`/api/upload/${other}/report`, { method: 'POST', body: { reason: 'spam', details: 'Mine' }, token: user.token })
    const passkey = await addPasskey(user)
    expect((await api(`/api/upload/${other}/favourite`, { method: 'PUT', token: user.token })).status).toBe(200)
    const [low, high] = [other, image.id].sort()
    await db().run(sql`INSERT INTO duel_judgements (id, low_id, high_id, user_id, winner, counted)
      VALUES (${crypto.randomUUID()}, ${low}, ${high}, ${user.id}, 'high', 0)`)
    const response = await api('/api/profile/export', { token: user.token })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="does-it-fuck-${user.username}.json"`)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    // Each export is a document of its own (its exportedAt): its ETag names it, and an earlier one's never matches.
    const etag = response.headers.get('etag')
    expect(etag).toMatch(/^"export-[0-9a-f-]{36}"$/)
    const again = await api('/api/profile/export', { token: user.token, headers: { 'if-none-match': etag! } })
    expect(again.status).toBe(200)
    expect(again.headers.get('etag')).toMatch(/^"export-[0-9a-f-]{36}"$/)
    expect(again.headers.get('etag')).not.toBe(etag)
    expect((await api('/api/profile/export', { token: user.token, headers: { 'if-none-match': '*' } })).status).toBe(304)
    await expectMatchesOpenApi('get', '/api/profile/export', response)
    const data = response.body
    expect(data.profile).toEqual({ id: user.id, username: user.username, email: user.email, createdAt: expect.any(String), isAdmin: false, mfaEnabled: false, hasPassword: true })
    expect(data.uploads).toEqual([expect.objectContaining({
      id: image.id, uploadType: 'image', originalName: 'picture.png', tags: [`export-${user.id.slice(0, 8)}`],
      media: expect.objectContaining({ url: expect.stringMatching(new RegExp(`/api/image/${image.id}$`)), thumbnailUrl: expect.stringContaining(`/api/image/${image.id}?size=thumb`), mimeType: 'image/png' }),
    })])
    expect(data.votes).toEqual([{ uploadId: other, vote: 'fucks', createdAt: expect.any(String), updatedAt: expect.any(String) }])
    expect(data.favourites).toEqual([{ uploadId: other, createdAt: expect.any(String) }])
    expect(data.duelJudgements).toEqual([{ uploadIds: [low, high], winnerId: high, createdAt: expect.any(String) }])
    expect(data.apiTokens).toEqual([{ id: expect.any(String), name: 'test', createdAt: expect.any(String), expiresAt: expect.any(String), lastUsedAt: null }])
    expect(data.sessions.length).toBeGreaterThanOrEqual(1)
    expect(data.reports).toEqual([expect.objectContaining({ uploadId: other, reason: 'spam', details: 'Mine', status: 'open' })])
    expect(data.linkedAccounts).toEqual([])
    expect(data.passkeys).toEqual([{ id: passkey.id, name: 'Laptop', createdAt: expect.any(String), lastUsedAt: null }])
    const text = JSON.stringify(data)
    for (const secret of ['password', 'hash', 'secret', 'token_hash', 'ip_hash', 'public_key', 'publicKey', 'credential']) expect(text.toLowerCase()).not.toContain(`"${secret}`)
  })

  it('answers 401 signed out', async () => {
    expect((await api('/api/profile/export')).status).toBe(401)
  })
})

describe('DELETE /api/profile', () => {
  it('removes the account and every row, file and count it leaves behind', async () => {
    const [user, owner, voter] = await Promise.all([registerUser(), registerUser(), registerUser()])
    const image = await uploadImage(user)
    const link = await seedUpload(user)
    const others = [await seedUpload(owner), await seedUpload(owner)]
    await vote(image.id, 'fucks', voter.token)
    await vote(others[0]!, 'fucks', user.token)
    await vote(others[1]!, 'does_not_fuck', user.token)
    await vote(others[1]!, 'fucks', voter.token)
    await api(`/api/upload/${others[0]}/report`, { method: 'POST', body: { reason: 'spam' }, token: user.token })
    await createApiToken(user.id)
    await api('/api/auth/forgot-password', { method: 'POST', body: { email: user.email } })
    await db().run(sql`INSERT INTO oauth_accounts (id, user_id, provider, provider_user_id) VALUES (${crypto.randomUUID()}, ${user.id}, 'github', ${user.id})`)
    await addPasskey(user)
    expect((await api('/api/auth/passkeys/register/options', { method: 'POST', token: user.token })).status).toBe(200)
    expect((await api('/api/profile/filters', { method: 'PUT', token: user.token, body: { hiddenTags: ['gone-with-me'] } })).status).toBe(200)
    expect(await rowsOf(user.id)).toMatchObject({ passkeys: 1, webauthn_challenges: 1, user_hidden_tags: 1 })
    expect(existsSync(mediaPath(image.filename))).toBe(true)
    expect(await storedCounts(others[1]!)).toEqual({ upvotes: 1, downvote_count: 1 })

    const response = await deleteAccount(user, { password: user.password })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true })
    await expectMatchesOpenApi('delete', '/api/profile', response)
    expect(response.headers.getSetCookie().some(line => /^auth-token=;/.test(line) && /Max-Age=0/i.test(line))).toBe(true)

    expect(await rowsOf(user.id)).toEqual({ users: 0, sessions: 0, api_tokens: 0, mfa_backup_codes: 0, password_reset_tokens: 0, oauth_accounts: 0, uploads: 0, votes: 0, reports: 0, passkeys: 0, webauthn_challenges: 0, user_hidden_tags: 0 })
    for (const id of [image.id, link]) expect((await db().get<{ n: number }>(sql`SELECT count(*) AS n FROM votes WHERE upload_id = ${id}`))!.n).toBe(0)
    expect(existsSync(mediaPath(image.filename))).toBe(false)
    expect(existsSync(mediaPath('thumbs', `${image.id}.webp`))).toBe(false)
    expect(await storedCounts(others[0]!)).toEqual({ upvotes: 0, downvote_count: 0 })
    expect(await storedCounts(others[1]!)).toEqual({ upvotes: 1, downvote_count: 0 })
    expect((await api(`/api/upload/${image.id}`)).status).toBe(404)
    expect((await api('/api/profile', { token: user.token })).status).toBe(401)
    const login = await api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: user.password } })
    expect(login.status).toBe(401)
    // The e-mail and username are free again.
    expect((await api('/api/auth', { method: 'POST', body: { action: 'register', email: user.email, username: user.username, password: user.password } })).status).toBe(201)
  })

  it('answers 400 for a missing or wrong password, and keeps the account', async () => {
    const user = await registerUser()
    const missing = await deleteAccount(user, {})
    expect(missing.status).toBe(400)
    expect(missing.body).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Password is required' })
    const wrong = await deleteAccount(user, { password: 'not the password' })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid password or code' })
    expect((await rowsOf(user.id)).users).toBe(1)
    expect((await api('/api/profile', { token: user.token })).status).toBe(200)
  })

  it('asks for the MFA code when MFA is on, with one answer whichever factor is wrong', async () => {
    const user = await enableMfa(await registerUser())
    const refused = { statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid password or code' }
    // Right password and no code, right password and a wrong code, wrong password and no code: nothing tells them apart.
    for (const body of [{ password: user.password }, { password: user.password, mfaCode: '000000' }, { password: 'not the password' }, { password: 'not the password', mfaCode: '000000' }]) {
      const response = await deleteAccount(user, body)
      expect(response.status).toBe(400)
      expect(response.body).toEqual(refused)
    }
    expect((await rowsOf(user.id)).users).toBe(1)
    const deleted = await deleteAccount(user, { password: user.password, mfaCode: user.backupCodes[0] })
    expect(deleted.status).toBe(200)
    expect(await rowsOf(user.id)).toMatchObject({ users: 0, mfa_backup_codes: 0 })
  })

  it('lets an account without a password go after a fresh sign-in, else answers 403', async () => {
    const user = await registerUser()
    await db().run(sql`UPDATE users SET password_hash = NULL WHERE id = ${user.id}`)
    await db().run(sql`UPDATE sessions SET created_at = ${new Date(Date.now() - 11 * 60_000).toISOString()} WHERE user_id = ${user.id}`)
    const stale = await deleteAccount(user, {})
    expect(stale.status).toBe(403)
    expect(stale.body).toEqual({ statusCode: 403, statusMessage: 'Forbidden', message: 'Sign in again to delete your account' })
    await db().run(sql`UPDATE sessions SET created_at = ${new Date(Date.now() - 60_000).toISOString()} WHERE user_id = ${user.id}`)
    expect((await deleteAccount(user, {})).status).toBe(200)
    expect((await rowsOf(user.id)).users).toBe(0)
  })

  it('lets an account without a password but with MFA go with its code', async () => {
    const user = await enableMfa(await registerUser())
    await db().run(sql`UPDATE users SET password_hash = NULL WHERE id = ${user.id}`)
    await db().run(sql`UPDATE sessions SET created_at = ${new Date(Date.now() - 11 * 60_000).toISOString()} WHERE user_id = ${user.id}`)
    expect((await deleteAccount(user, {})).body).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid password or code' })
    expect((await deleteAccount(user, { mfaCode: '123456' })).body.message).toBe('Invalid password or code')
    const deleted = await deleteAccount(user, { mfaCode: user.backupCodes[0] })
    expect(deleted.status).toBe(200)
  })

  it('finishes while its uploads are deleted by its other session and an admin at the same time', async () => {
    const [user, owner, admin] = await Promise.all([registerUser(), registerUser(), registerUser().then(made => makeAdmin(made))])
    const mine = await Promise.all(Array.from({ length: 60 }, () => seedUpload(user)))
    const theirs = [await seedUpload(owner), await seedUpload(owner)]
    await vote(theirs[0]!, 'fucks', user.token)
    await vote(theirs[1]!, 'does_not_fuck', user.token)
    await vote(mine[0]!, 'fucks', owner.token)
    const other = await api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: user.password } })
    const uploadsLeft = async () => Number((await db().get<{ n: number }>(sql`SELECT count(*) AS n FROM uploads WHERE user_id = ${user.id}`))!.n)

    // The others start once the account's deletion is under way, from the other end of its order, so they meet it.
    const deletion = deleteAccount(user, { password: user.password })
    const others = (async () => {
      const deadline = Date.now() + 10_000
      while (await uploadsLeft() === mine.length && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 2))
      const ids = [...mine].sort().reverse()
      return Promise.all([
        (async () => {
          const statuses = []
          for (const id of ids.filter((_, i) => i % 2 === 0)) statuses.push((await api(`/api/upload/${id}`, { method: 'DELETE', token: other.body.token })).status)
          return statuses
        })(),
        (async () => {
          const statuses = []
          for (const id of ids.filter((_, i) => i % 2 === 1)) statuses.push((await api(`/api/upload/${id}`, { method: 'DELETE', token: admin.token })).status)
          return statuses
        })(),
      ])
    })()
    const [response, [ownerStatuses, adminStatuses]] = await Promise.all([deletion, others])
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true })
    // The other session may have been ended by the deletion; the admin's deletes found each upload or not.
    for (const status of ownerStatuses!) expect([200, 401, 404]).toContain(status)
    for (const status of adminStatuses!) expect([200, 404]).toContain(status)
    expect(await rowsOf(user.id)).toEqual({ users: 0, sessions: 0, api_tokens: 0, mfa_backup_codes: 0, password_reset_tokens: 0, oauth_accounts: 0, uploads: 0, votes: 0, reports: 0, passkeys: 0, webauthn_challenges: 0, user_hidden_tags: 0 })
    expect(await storedCounts(theirs[0]!)).toEqual({ upvotes: 0, downvote_count: 0 })
    expect(await storedCounts(theirs[1]!)).toEqual({ upvotes: 0, downvote_count: 0 })
    expect(Number((await db().get<{ n: number }>(sql`SELECT count(*) AS n FROM votes WHERE upload_id = ${mine[0]!}`))!.n)).toBe(0)
  })

  it('deletes an account once when two of its sessions delete it at the same time', async () => {
    const [user, owner] = await Promise.all([registerUser(), registerUser()])
    await Promise.all(Array.from({ length: 20 }, () => seedUpload(user)))
    const theirs = await seedUpload(owner)
    await vote(theirs, 'fucks', user.token)
    const other = await api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: user.password } })
    const answers = await Promise.all([deleteAccount(user, { password: user.password }), deleteAccount({ token: other.body.token }, { password: user.password })])
    // One finishes; the other finds its account (and so its session) gone.
    expect(answers.map(answer => answer.status).sort()).toEqual([200, 401])
    expect(answers.find(answer => answer.status === 401)!.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Invalid or expired token' })
    expect(await rowsOf(user.id)).toMatchObject({ users: 0, sessions: 0, uploads: 0, votes: 0 })
    expect(await storedCounts(theirs)).toEqual({ upvotes: 0, downvote_count: 0 })
  })

  it('answers 401 signed out', async () => {
    expect((await api('/api/profile', { method: 'DELETE', body: { password: 'x' } })).status).toBe(401)
  })

  it('keeps an admin\'s moderation log entries', async () => {
    const admin = await makeAdmin(await registerUser())
    const target = await registerUser()
    await api(`/api/admin/users/${target.id}/shadow-ban`, { method: 'POST', body: { shadowBanned: true }, token: admin.token })
    expect((await deleteAccount(admin, { password: admin.password })).status).toBe(200)
    expect(await db().all(sql`SELECT actor_id, action FROM moderation_log WHERE target_id = ${target.id}`)).toEqual([{ actor_id: null, action: 'shadow_ban_on' }])
  })
})
