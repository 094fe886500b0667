import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { randomImage } from '../support/images'
import { expectMatchesOpenApi } from '../support/openapi'
import { makeAdmin, seedUpload, serverDatabase } from '../support/seed'
import { postUpload } from '../support/uploads'

// docs/behaviour.md, "Curation": tombstones of removed uploads, banned media and search by image.

let admin: TestUser
let owner: TestUser
let other: TestUser
let member: TestUser

beforeAll(async () => {
  [admin, owner, other, member] = await Promise.all([registerUser(), registerUser(), registerUser(), registerUser()])
  await makeAdmin(admin)
})

const png = (data: Buffer) => ({ data, name: 'picture.png', type: 'image/png' })
const upload = async (user: TestUser, data: Buffer, fields: Record<string, string> = {}) => {
  const response = await postUpload(user, { upload_type: 'image', description: 'A picture to remove', ...fields }, png(data))
  expect(response.status, JSON.stringify(response.body)).toBe(201)
  return response.body.upload.id as string
}
const remove = (id: string, user: TestUser, body?: unknown) => api(`/api/upload/${id}`, { method: 'DELETE', token: user.token, body })
/** A smaller, re-encoded copy: a different file whose perceptual hash is within the duplicate distance. */
const nearCopy = (data: Buffer) => sharp(data).resize(300, 225).jpeg({ quality: 70 }).toBuffer()
const tombstoneRow = (id: string) => serverDatabase().db.get(sql`SELECT description, uploader_id, upload_type, removed_by, reason FROM removed_uploads WHERE id = ${id}`)
const logFor = async (targetId: string) => (await api('/api/admin/modlog?limit=100', { token: admin.token })).body.entries
  .filter((entry: { targetId: string }) => entry.targetId === targetId)
  .map((entry: { action: string, targetLabel: string | null, note: string | null }) => [entry.action, entry.targetLabel, entry.note])
const banOf = async (uploadId: string) => (await api('/api/admin/banned-media?limit=100', { token: admin.token })).body.items
  .find((item: { uploadId: string }) => item.uploadId === uploadId)
const notAllowed = { statusCode: 451, statusMessage: 'Unavailable For Legal Reasons', message: 'This image is not allowed here' }
const search = (body: unknown, token?: string) => api('/api/search/image', { method: 'POST', body, token })
const fileForm = (data: Buffer) => {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(data)]), 'probe.png')
  return form
}

describe('removal', () => {
  it('by an admin keeps a tombstone (410), bans the image and logs both, before the row goes', async () => {
    const data = await randomImage('png')
    const id = await upload(owner, data, { description: 'Removed by a moderator' })
    const removed = await remove(id, admin, { reason: 'Not a picture of a thing' })
    expect(removed.status).toBe(200)
    expect(removed.body).toEqual({ success: true })
    for (const token of [undefined, owner.token, admin.token]) {
      const gone = await api(`/api/upload/${id}`, { token })
      expect(gone.status).toBe(410)
      expect(gone.body).toEqual({ statusCode: 410, statusMessage: 'Gone', message: 'Upload removed' })
    }
    expect(await tombstoneRow(id)).toEqual({ description: 'Removed by a moderator', uploader_id: owner.id, upload_type: 'image', removed_by: 'admin', reason: 'Not a picture of a thing' })
    expect(await serverDatabase().db.get(sql`SELECT id FROM uploads WHERE id = ${id}`)).toBeUndefined()
    expect((await logFor(id)).sort()).toEqual([
      ['media_banned', 'Removed by a moderator', 'Not a picture of a thing'],
      ['upload_removed', 'Removed by a moderator', 'Not a picture of a thing'],
    ])
    const list = await api('/api/admin/banned-media?limit=100', { token: admin.token })
    expect(list.status).toBe(200)
    await expectMatchesOpenApi('get', '/api/admin/banned-media', list)
    expect(await banOf(id)).toEqual({ id: expect.any(String), sha256: expect.stringMatching(/^[0-9a-f]{64}$/), uploadId: id,
      reason: 'Not a picture of a thing', createdAt: expect.any(String), createdBy: { id: admin.id, username: admin.username } })

    // Anyone, the same file or a near copy: 451, nothing stored.
    const count = async () => Number((await serverDatabase().db.get<{ n: number }>(sql`SELECT count(*) AS n FROM uploads WHERE user_id = ${other.id}`))!.n)
    const before = await count()
    const same = await postUpload(other, { upload_type: 'image', description: 'the same again' }, png(data))
    expect(same.status).toBe(451)
    expect(same.body).toEqual(notAllowed)
    const near = await postUpload(other, { upload_type: 'image', description: 'a smaller copy' }, { data: await nearCopy(data), name: 'c.jpg', type: 'image/jpeg' })
    expect(near.status).toBe(451)
    expect(near.body).toEqual(notAllowed)
    expect((await postUpload(owner, { upload_type: 'image', description: 'the owner too' }, png(data))).status).toBe(451)
    expect(await count()).toBe(before)
  })

  it('by its owner keeps only the id and when (404), bans nothing, and its reports stay listed', async () => {
    const data = await randomImage('png')
    const id = await upload(owner, data, { description: 'Taken down by its owner' })
    const filed = await api(`/api/upload/${id}/report`, { method: 'POST', body: { reason: 'spam' }, token: member.token })
    expect(filed.status).toBe(201)
    expect((await remove(id, owner, { ban: true, reason: 'ignored' })).status).toBe(200)
    const gone = await api(`/api/upload/${id}`, { token: admin.token })
    expect(gone.status).toBe(404)
    expect(gone.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Upload not found' })
    expect(await tombstoneRow(id)).toEqual({ description: null, uploader_id: null, upload_type: null, removed_by: 'owner', reason: null })
    expect(await banOf(id)).toBeUndefined()
    const queue = await api('/api/admin/reports?status=open&limit=100', { token: admin.token })
    expect(queue.body.reports.find((group: { id: string }) => group.id === filed.body.report.id)).toMatchObject({
      upload: null, removedUpload: { id, removed_at: expect.any(String), removed_by: 'owner' }, reason: 'spam', reportCount: 1,
    })
    await expectMatchesOpenApi('get', '/api/admin/reports', queue)
    // Resolving it still works; there is nothing left to remove or ban.
    const resolved = await api(`/api/admin/reports/${filed.body.report.id}/resolve`, { method: 'POST', body: { action: 'remove_upload' }, token: admin.token })
    expect(resolved.status).toBe(200)
    expect(await tombstoneRow(id)).toMatchObject({ removed_by: 'owner' })
    expect((await postUpload(other, { upload_type: 'image', description: 'allowed' }, png(data))).status).toBe(201)
  })

  it('through a report with ban: false keeps the image allowed', async () => {
    const data = await randomImage('png')
    const id = await upload(owner, data)
    const filed = await api(`/api/upload/${id}/report`, { method: 'POST', body: { reason: 'copyright' }, token: member.token })
    const resolved = await api(`/api/admin/reports/${filed.body.report.id}/resolve`, { method: 'POST', body: { action: 'remove_upload', ban: false }, token: admin.token })
    expect(resolved.status).toBe(200)
    expect(await tombstoneRow(id)).toMatchObject({ removed_by: 'admin', reason: 'copyright' })
    expect(await banOf(id)).toBeUndefined()
    expect((await logFor(id)).map(([action]: [string]) => action)).toEqual(['upload_removed'])
    expect((await postUpload(other, { upload_type: 'image', description: 'allowed' }, png(data))).status).toBe(201)
  })

  it('refuses a bad body with 400 and leaves the upload in place', async () => {
    const id = await seedUpload(owner)
    const bad = await remove(id, admin, { ban: 'no' })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: 'ban must be a boolean' })
    expect((await api(`/api/upload/${id}`)).status).toBe(200)
  })
})

describe('banned media', () => {
  it('lifts a ban (logged): the image may be uploaded again; the list and lift are for admins only', async () => {
    const data = await randomImage('png')
    const id = await upload(owner, data, { description: 'Banned, then allowed' })
    expect((await remove(id, admin)).status).toBe(200)
    const ban = await banOf(id)
    expect(ban).toMatchObject({ uploadId: id, reason: null })
    expect((await api(`/api/admin/banned-media/${ban.id}`, { method: 'DELETE' })).status).toBe(401)
    expect((await api(`/api/admin/banned-media/${ban.id}`, { method: 'DELETE', token: member.token })).status).toBe(403)
    expect((await api('/api/admin/banned-media', { token: member.token })).status).toBe(403)
    const invalid = await api('/api/admin/banned-media/nope', { method: 'DELETE', token: admin.token })
    expect(invalid.status).toBe(400)
    expect(invalid.body.message).toBe('Invalid ID')
    expect((await api('/api/admin/banned-media?limit=0', { token: admin.token })).status).toBe(400)
    const lifted = await api(`/api/admin/banned-media/${ban.id}`, { method: 'DELETE', token: admin.token })
    expect(lifted.status).toBe(200)
    expect(lifted.body).toEqual({ success: true })
    await expectMatchesOpenApi('delete', '/api/admin/banned-media/{id}', lifted)
    const again = await api(`/api/admin/banned-media/${ban.id}`, { method: 'DELETE', token: admin.token })
    expect(again.status).toBe(404)
    expect(again.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Ban not found' })
    expect(await logFor(id)).toContainEqual(['media_unbanned', 'Banned, then allowed', null])
    expect((await postUpload(other, { upload_type: 'image', description: 'allowed again' }, png(data))).status).toBe(201)
  })
})

describe('POST /api/search/image', () => {
  it('finds public uploads and the caller\'s own within the duplicate distance, nearest first, and stores nothing', async () => {
    const data = await randomImage('png')
    // A near copy kept private by another user first (a private upload is no duplicate for others), then the public original.
    const mine = await postUpload(other, { upload_type: 'image', description: 'private copy', is_private: 'true' }, { data: await nearCopy(data), name: 'm.jpg', type: 'image/jpeg' })
    expect(mine.status).toBe(201)
    const privateId = mine.body.upload.id
    const publicId = await upload(owner, data, { description: 'public original' })
    const unrelated = await upload(owner, await randomImage('png'))

    const anonymous = await search(fileForm(data))
    expect(anonymous.status).toBe(200)
    await expectMatchesOpenApi('post', '/api/search/image', anonymous)
    expect(anonymous.body.matches.map((match: { upload: { id: string }, distance: number }) => [match.upload.id, match.distance])).toEqual([[publicId, 0]])
    expect(anonymous.body.matches[0].upload).toMatchObject({ id: publicId, description: 'public original', username: owner.username, upload_type: 'image' })

    const asOwner = await search(fileForm(await nearCopy(data)), other.token)
    expect(asOwner.status).toBe(200)
    const found = asOwner.body.matches.map((match: { upload: { id: string }, distance: number }) => [match.upload.id, match.distance])
    expect(found[0]).toEqual([privateId, 0])
    expect(found).toContainEqual([publicId, expect.any(Number)])
    expect(found.find(([matchId]: [string]) => matchId === publicId)[1]).toBeLessThanOrEqual(6)
    expect(found.map(([matchId]: [string]) => matchId)).not.toContain(unrelated)
    // Another signed-in user does not see the private one.
    const asMember = await search(fileForm(await nearCopy(data)), member.token)
    expect(asMember.body.matches.map((match: { upload: { id: string } }) => match.upload.id)).toEqual([publicId])
    const ownUploads = await serverDatabase().db.get<{ n: number }>(sql`SELECT count(*) AS n FROM uploads WHERE user_id = ${member.id}`)
    expect(Number(ownUploads!.n)).toBe(0)
  })

  it('answers 400 for a missing file, an unsupported type, a bad or refused address', async () => {
    const noFile = new FormData()
    noFile.append('note', 'nothing')
    const cases: [unknown, string][] = [
      [noFile, 'File is required'],
      [fileForm(Buffer.from('not an image at all')), 'Unsupported image type'],
      [{}, 'Invalid image URL'],
      [{ imageUrl: 'ftp://example.com/a.png' }, 'Invalid image URL'],
      [{ imageUrl: 'http://127.0.0.1:9/a.png' }, 'Could not fetch image'],
    ]
    for (const [body, message] of cases) {
      const response = await search(body)
      expect(response.status, message).toBe(400)
      expect(response.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message })
    }
    const text = await api('/api/search/image', { method: 'POST', body: 'imageUrl=https://example.com/a.png', headers: { 'content-type': 'text/plain' } })
    expect(text.body).toEqual({ statusCode: 415, statusMessage: 'Unsupported Media Type', message: 'Content-Type must be multipart/form-data or application/json' })
    await expectMatchesOpenApi('post', '/api/search/image', text)
  })
})
