import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { expectMatchesOpenApi } from '../support/openapi'
import { makeAdmin, seedUpload, serverDatabase } from '../support/seed'
import { ROOT } from '../support/server'
import { sharedServer } from '../support/shared-server'

const run = promisify(execFile)
const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/admin.ts'), ...args], {
  cwd: ROOT,
  env: { PATH: process.env.PATH, HOME: process.env.HOME, NUXT_DATA_DIR: sharedServer().dataDir, NUXT_DATABASE_URL: sharedServer().databaseUrl },
})

let admin: TestUser
let member: TestUser

beforeAll(async () => {
  [admin, member] = await Promise.all([registerUser(), registerUser()])
  await makeAdmin(admin)
})

interface Entry {
  id: string
  actor: { id: string | null, username: string } | null
  action: string
  targetType: string
  targetId: string
  targetLabel: string | null
  targetExists: boolean
  note: string | null
  createdAt: string
}

const modlog = (query = '', token = admin.token) => api(`/api/admin/modlog${query}`, { token })
/** The log entries about one target, oldest first. */
async function entriesFor(targetId: string): Promise<Entry[]> {
  const { body } = await modlog('?limit=100')
  return (body.entries as Entry[]).filter(entry => entry.targetId === targetId).reverse()
}
const actorOf = (user: TestUser) => ({ id: user.id, username: user.username })

describe('GET /api/admin/modlog', () => {
  it('lists entries newest first, paged, to admins only', async () => {
    const target = await registerUser()
    await api(`/api/admin/users/${target.id}/shadow-ban`, { method: 'POST', body: { shadowBanned: true }, token: admin.token })
    const response = await modlog('?limit=1')
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    await expectMatchesOpenApi('get', '/api/admin/modlog', response)
    expect(response.body).toMatchObject({ page: 1, limit: 1, total: expect.any(Number) })
    expect(response.body.total).toBeGreaterThanOrEqual(1)
    expect(response.body.entries).toEqual([{
      id: expect.any(String), actor: actorOf(admin), action: 'shadow_ban_on', targetType: 'user', targetId: target.id, targetLabel: target.username,
      targetExists: true, note: null, createdAt: expect.any(String),
    }])
    expect((await modlog('?limit=500')).body.limit).toBe(100)
  })

  it('answers 401, 403 and 400 where they apply', async () => {
    expect((await api('/api/admin/modlog')).status).toBe(401)
    const forbidden = await modlog('', member.token)
    expect(forbidden.status).toBe(403)
    expect(forbidden.body.message).toBe('Admin access required')
    expect((await modlog('?page=0')).body).toMatchObject({ statusCode: 400, message: 'Invalid page' })
    expect((await modlog('?limit=x')).body.message).toBe('Invalid limit')
  })
})

describe('every admin action is logged', () => {
  it('shadow-ban on and off', async () => {
    const target = await registerUser()
    const ban = (shadowBanned: boolean) => api(`/api/admin/users/${target.id}/shadow-ban`, { method: 'POST', body: { shadowBanned }, token: admin.token })
    await ban(true)
    await ban(false)
    expect((await entriesFor(target.id)).map(entry => [entry.action, entry.targetType, entry.actor?.id])).toEqual([
      ['shadow_ban_on', 'user', admin.id],
      ['shadow_ban_off', 'user', admin.id],
    ])
  })

  it('an upload removed by an admin, but not by its owner', async () => {
    const owner = await registerUser()
    const description = `${'A long description, '.repeat(5)}ending here`
    const removed = await seedUpload(owner, { description })
    const own = await seedUpload(owner)
    expect((await api(`/api/upload/${removed}`, { method: 'DELETE', token: admin.token })).status).toBe(200)
    expect((await api(`/api/upload/${own}`, { method: 'DELETE', token: owner.token })).status).toBe(200)
    expect(await entriesFor(removed)).toEqual([expect.objectContaining({
      actor: actorOf(admin), action: 'upload_removed', targetType: 'upload', targetLabel: description.slice(0, 80), targetExists: false,
    })])
    expect(await entriesFor(own)).toEqual([])
    // An admin removing their own upload is no moderation.
    const adminsOwn = await seedUpload(admin)
    await api(`/api/upload/${adminsOwn}`, { method: 'DELETE', token: admin.token })
    expect(await entriesFor(adminsOwn)).toEqual([])
  })

  it('tags added by an admin to someone else\'s upload', async () => {
    const owner = await registerUser()
    const uploadId = await seedUpload(owner)
    const tag = `modtag-${randomUUID().slice(0, 8)}`
    expect((await api(`/api/uploads/${uploadId}/tags`, { method: 'POST', body: { tags: [tag] }, token: owner.token })).status).toBe(200)
    expect(await entriesFor(uploadId)).toEqual([])
    const added = await api(`/api/uploads/${uploadId}/tags`, { method: 'POST', body: { tags: [`${tag}-admin`] }, token: admin.token })
    expect(added.status).toBe(200)
    expect(await entriesFor(uploadId)).toEqual([expect.objectContaining({ actor: actorOf(admin), action: 'tag_added', targetType: 'upload', note: `${tag}-admin` })])
    // Nothing added (already there): nothing logged.
    await api(`/api/uploads/${uploadId}/tags`, { method: 'POST', body: { tags: [`${tag}-admin`] }, token: admin.token })
    expect(await entriesFor(uploadId)).toHaveLength(1)
  })

  it('a report claimed and resolved', async () => {
    const uploadId = await seedUpload(member)
    const filed = await api(`/api/upload/${uploadId}/report`, { method: 'POST', body: { reason: 'spam' }, token: admin.token })
    const reportId = filed.body.report.id
    await api(`/api/admin/reports/${reportId}/claim`, { method: 'POST', token: admin.token })
    await api(`/api/admin/reports/${reportId}/resolve`, { method: 'POST', body: { action: 'remove_upload', note: 'Spam link' }, token: admin.token })
    expect((await entriesFor(reportId)).map(entry => [entry.action, entry.targetType, entry.targetLabel, entry.targetExists, entry.note])).toEqual([
      ['report_claimed', 'report', 'spam', true, null],
      ['report_resolved', 'report', 'spam', true, 'remove_upload: Spam link'],
    ])
    expect(await entriesFor(uploadId)).toEqual([expect.objectContaining({ action: 'upload_removed', targetType: 'upload', note: 'Spam link', actor: actorOf(admin) })])
  })

  it('a shadow-ban by a report\'s resolution', async () => {
    const uploader = await registerUser()
    const filed = await api(`/api/upload/${await seedUpload(uploader)}/report`, { method: 'POST', body: { reason: 'harassment' }, token: member.token })
    await api(`/api/admin/reports/${filed.body.report.id}/resolve`, { method: 'POST', body: { action: 'shadow_ban_uploader' }, token: admin.token })
    expect((await entriesFor(uploader.id)).map(entry => entry.action)).toEqual(['shadow_ban_on'])
    expect((await entriesFor(filed.body.report.id)).map(entry => entry.note)).toEqual(['shadow_ban_uploader'])
  })

  it('admin granted and revoked by the command line, with no actor', async () => {
    const user = await registerUser()
    await cli('grant', user.email)
    await cli('revoke', user.email)
    expect((await entriesFor(user.id)).map(entry => [entry.action, entry.actor, entry.targetType, entry.note])).toEqual([
      ['admin_granted', null, 'user', 'command line'],
      ['admin_revoked', null, 'user', 'command line'],
    ])
  })

  it('nothing is logged when the action fails', async () => {
    const target = await registerUser()
    await api(`/api/admin/users/${admin.id}/shadow-ban`, { method: 'POST', body: { shadowBanned: true }, token: admin.token })
    expect(await entriesFor(admin.id)).toEqual([])
    await cli('grant', `nobody_${randomUUID().slice(0, 8)}@e2e.test`).catch(() => undefined)
    await api(`/api/admin/users/${target.id}/shadow-ban`, { method: 'POST', body: { shadowBanned: true }, token: member.token })
    expect(await entriesFor(target.id)).toEqual([])
  })

  it('keeps an acting admin\'s name when the account is deleted, and logs the deletion', async () => {
    const departing = await makeAdmin(await registerUser())
    const target = await registerUser()
    await api(`/api/admin/users/${target.id}/shadow-ban`, { method: 'POST', body: { shadowBanned: true }, token: departing.token })
    const deleted = await api('/api/profile', { method: 'DELETE', body: { password: departing.password }, token: departing.token })
    expect(deleted.status).toBe(200)
    const named = { id: null, username: departing.username }
    expect(await entriesFor(target.id)).toEqual([expect.objectContaining({ action: 'shadow_ban_on', actor: named, targetLabel: target.username, targetExists: true })])
    expect(await entriesFor(departing.id)).toEqual([expect.objectContaining({
      action: 'admin_account_deleted', actor: named, targetType: 'user', targetLabel: departing.username, targetExists: false, note: null,
    })])
    const row = await serverDatabase().db.get<{ actor_id: string | null, actor_username: string }>(sql`SELECT actor_id, actor_username FROM moderation_log WHERE target_id = ${target.id}`)
    expect(row).toEqual({ actor_id: null, actor_username: departing.username })
    // A member's deletion is no moderation.
    const leaving = await registerUser()
    expect((await api('/api/profile', { method: 'DELETE', body: { password: leaving.password }, token: leaving.token })).status).toBe(200)
    expect(await entriesFor(leaving.id)).toEqual([])
  })
})
