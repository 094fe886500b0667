import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, errorBody, registerUser, type TestUser } from '../support/api'
import { randomImage, uploadForm } from '../support/images'
import { seedUpload, serverDatabase } from '../support/seed'
import { createApiToken } from '../support/uploads'

// Creates sent with an Idempotency-Key (docs/behaviour.md, Sending again): the same request
// again, one after the other or at the same time, answers the first answer and creates nothing.

const link = (url: string) => ({ upload_type: 'link', description: 'Kept once', external_url: url, tags: 'once' })
const postLink = (user: TestUser, key: string | undefined, fields: Record<string, string>) =>
  api('/api/upload', { method: 'POST', token: user.token, body: uploadForm(fields), headers: key === undefined ? {} : { 'idempotency-key': key } })
const postComment = (user: TestUser, key: string, uploadId: string, body: unknown) =>
  api(`/api/upload/${uploadId}/comments`, { method: 'POST', token: user.token, body, headers: { 'idempotency-key': key } })

async function uploadsAt(url: string) {
  const rows = await serverDatabase().db.all<{ id: string }>(sql`SELECT id FROM uploads WHERE external_url = ${url}`)
  return rows.map(row => row.id)
}

describe('Idempotency-Key', () => {
  it('answers a link upload sent again with the first answer, and creates it once', async () => {
    const user = await registerUser()
    const url = `https://example.com/${randomUUID()}`
    const key = randomUUID()
    const first = await postLink(user, key, link(url))
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const again = await postLink(user, key, link(url))
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.body).toEqual(first.body)
    expect(await uploadsAt(url)).toEqual([first.body.upload.id])
    // The key is the account's: another account's same key is its own request.
    const other = await postLink(await registerUser(), key, link(url))
    expect(other.status).toBe(201)
    expect(other.body.upload.id).not.toBe(first.body.upload.id)
    // Without a key every request creates.
    expect((await postLink(user, undefined, link(url))).status).toBe(201)
    expect(await uploadsAt(url)).toHaveLength(3)
  })

  it('creates one upload when the same request arrives many times at once', async () => {
    const user = await registerUser()
    const url = `https://example.com/${randomUUID()}`
    const key = randomUUID()
    const answers = await Promise.all(Array.from({ length: 8 }, () => postLink(user, key, link(url))))
    expect(answers.map(answer => answer.status)).toEqual(Array(8).fill(201))
    const ids = new Set(answers.map(answer => answer.body.upload.id))
    expect(ids.size).toBe(1)
    expect(await uploadsAt(url)).toEqual([...ids])
    expect(answers.filter(answer => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(7)
  })

  it('refuses with 409 what arrives at once with the same key but other fields, and creates one upload', async () => {
    const user = await registerUser()
    const url = `https://example.com/${randomUUID()}`
    const key = randomUUID()
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => postLink(user, key, { ...link(url), description: `Variant ${i % 2}` })))
    const created = answers.filter(answer => answer.status === 201)
    const refused = answers.filter(answer => answer.status !== 201)
    expect(new Set(created.map(answer => answer.body.upload.description)).size).toBe(1)
    expect(created).toHaveLength(3)
    expect(refused.map(answer => [answer.status, answer.body.message])).toEqual(Array(3).fill([409, 'This Idempotency-Key was sent with a different request']))
    expect(await uploadsAt(url)).toHaveLength(1)
  })

  it('creates one image upload when the same file arrives many times at once', async () => {
    const user = await registerUser()
    const image = await randomImage('png')
    const key = randomUUID()
    const send = () => api('/api/upload', { method: 'POST', token: user.token, headers: { 'idempotency-key': key },
      body: uploadForm({ upload_type: 'image', description: 'Sent three times' }, { data: image, name: 'same.png', type: 'image/png' }) })
    const answers = await Promise.all([send(), send(), send()])
    expect(answers.map(answer => answer.status)).toEqual([201, 201, 201])
    expect(new Set(answers.map(answer => answer.body.upload.id)).size).toBe(1)
    const rows = await serverDatabase().db.all(sql`SELECT id FROM uploads WHERE user_id = ${user.id}`)
    expect(rows).toEqual([{ id: answers[0]!.body.upload.id }])
    // Later, the same key and file still answer the upload (not 409 Duplicate).
    const later = await send()
    expect(later.status).toBe(201)
    expect(later.body).toEqual(answers[0]!.body)
  })

  it('refuses the same key with another request (409), a key that is not one (400), and keeps nothing of a failure', async () => {
    const user = await registerUser()
    const key = randomUUID()
    const url = `https://example.com/${randomUUID()}`
    expect((await postLink(user, key, link(url))).status).toBe(201)
    const changed = await postLink(user, key, { ...link(url), description: 'Changed meanwhile' })
    expect(changed.status).toBe(409)
    expect(errorBody(changed)).toEqual({ statusCode: 409, statusMessage: 'Conflict', message: 'This Idempotency-Key was sent with a different request' })
    const elsewhere = await postComment(user, key, await seedUpload(user), { body: 'Same key, another path' })
    expect(elsewhere.status).toBe(409)
    for (const bad of ['', 'has space', 'x'.repeat(256), 'naïve', '"unclosed']) {
      const refused = await postLink(user, bad, link(`https://example.com/${randomUUID()}`))
      expect(refused.status, bad).toBe(400)
      expect(refused.body.message).toBe('Idempotency-Key must be 1 to 255 visible ASCII characters')
    }
    expect(await uploadsAt(url)).toHaveLength(1)
    // A request that failed keeps no answer: its key then serves another request.
    const failedKey = randomUUID()
    expect((await postComment(user, failedKey, randomUUID(), { body: 'Nowhere' })).status).toBe(404)
    expect((await postLink(user, `"${failedKey}"`, link(`https://example.com/${randomUUID()}`))).status).toBe(201)
  })

  it('answers a comment sent again once, a reply too, and forgets a key after a day', async () => {
    const [owner, user] = await Promise.all([registerUser(), registerUser()])
    const uploadId = await seedUpload(owner)
    const key = randomUUID()
    const answers = await Promise.all([0, 1, 2].map(() => postComment(user, key, uploadId, { body: 'Posted once' })))
    expect(answers.map(answer => answer.status)).toEqual([201, 201, 201])
    expect(answers[1]!.body).toEqual(answers[0]!.body)
    expect(answers[2]!.body).toEqual(answers[0]!.body)
    const parentId = answers[0]!.body.comment.id
    const replyKey = randomUUID()
    const reply = await postComment(user, replyKey, uploadId, { body: 'A reply', parentId })
    expect((await postComment(user, replyKey, uploadId, { body: 'A reply', parentId })).body).toEqual(reply.body)
    const { db } = serverDatabase()
    const comments = async () => Number((await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM comments WHERE upload_id = ${uploadId}`))!.n)
    expect(await comments()).toBe(2)
    expect(Number((await db.get<{ n: number }>(sql`SELECT comments AS n FROM uploads WHERE id = ${uploadId}`))!.n)).toBe(2)
    // A day later the key is free again: the same request posts anew, and the old row goes.
    await db.run(sql`UPDATE request_keys SET created_at = ${new Date(Date.now() - 25 * 3600_000).toISOString()} WHERE user_id = ${user.id}`)
    const later = await postComment(user, key, uploadId, { body: 'Posted once' })
    expect(later.status).toBe(201)
    expect(later.headers.get('idempotent-replayed')).toBeNull()
    expect(await comments()).toBe(3)
    expect(await db.all(sql`SELECT key FROM request_keys WHERE user_id = ${user.id}`)).toEqual([{ key }])
  })

  it('serves POST /api/v1/upload with an API token', async () => {
    const user = await registerUser()
    const { token } = await createApiToken(user.id)
    const url = `https://example.com/${randomUUID()}`
    const key = randomUUID()
    const send = () => api('/api/v1/upload', { method: 'POST', bearer: token, body: uploadForm(link(url)), headers: { 'idempotency-key': key } })
    const first = await send()
    expect(first.status).toBe(201)
    expect((await send()).body).toEqual(first.body)
    expect(await uploadsAt(url)).toEqual([first.body.upload.id])
  })
})
