import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { findDrift } from '../../server/database/kept-counts'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { expectMatchesOpenApi } from '../support/openapi'
import { makeAdmin, seedUpload, serverDatabase } from '../support/seed'
import { postUpload } from '../support/uploads'

// Edits, history, revert and lock on the shared server (docs/behaviour.md, Curation).
let owner: TestUser
let other: TestUser
let admin: TestUser

beforeAll(async () => {
  [owner, other, admin] = await Promise.all([registerUser(), registerUser(), registerUser()])
  await makeAdmin(admin)
})

/** Kept counts an edit never moves (server/database/kept-counts.ts names). */
const VOTE_COUNTS = ['uploads.upvotes, uploads.downvote_count', 'user_vote_counts.votes']
const bad = (message: string) => expect.objectContaining({ statusCode: 400, statusMessage: 'Bad Request', message })

/** A link uploaded through the API, so its creation is revision 1. */
async function link(tags: string[], user = owner, isPrivate = false): Promise<string> {
  const response = await postUpload(user, {
    upload_type: 'link', description: `Edit me ${randomUUID().slice(0, 8)}`, external_url: `https://example.com/${randomUUID()}`,
    tags: tags.join(', '), is_private: String(isPrivate),
  })
  expect(response.status).toBe(201)
  return response.body.upload.id as string
}

const patch = (id: string, body: unknown, user: TestUser | null = owner, headers?: Record<string, string>) =>
  api(`/api/upload/${id}`, { method: 'PATCH', body, token: user?.token, headers })
const history = (id: string, user: TestUser | null = null, query = '') => api(`/api/upload/${id}/history${query}`, { token: user?.token })
const slugs = (tags: { slug: string }[]) => tags.map(tag => tag.slug)
const modlogOf = (id: string) => serverDatabase().db.all<{ action: string, target_label: string | null, note: string | null }>(sql`SELECT action, target_label, note
  FROM moderation_log WHERE target_id = ${id} ORDER BY created_at, id`)

describe('PATCH /api/upload/{id}', () => {
  it('changes description and tags as one revision, shown at once in the upload, lists, tag pages and feeds', async () => {
    const [tag, oldTag] = [`edit-${randomUUID().slice(0, 6)}`, `old-${randomUUID().slice(0, 6)}`]
    const id = await link([oldTag, 'kept'])
    // Read as the owner: a signed-in caller's upload carries `favourited`, and its ETag is the one an edit checks.
    const asOwner = () => api(`/api/upload/${id}`, { token: owner.token })
    const before = await asOwner()
    expect(before.body).toMatchObject({ revision: 1, edited_at: null, locked: 0 })
    const filtered = (slug: string) => api(`/api/uploads/filtered?tags=${slug}`).then(r => r.body.uploads.map((u: { id: string }) => u.id))
    expect(await filtered(oldTag)).toEqual([id]) // a cached answer the edit must not leave behind
    await api(`/feeds/tag/${oldTag}.json`)
    const response = await patch(id, { description: '  Fixed typo  ', tags: ['Kept', tag], reason: 'typo' })
    expect(response.status).toBe(200)
    expect(response.body.revision).toBe(2)
    expect(response.body.upload).toMatchObject({ id, description: 'Fixed typo', revision: 2, locked: 0, upvotes: 0, upload_type: 'link' })
    expect(response.body.upload.rating).toBe('safe')
    expect(slugs(response.body.upload.tags)).toEqual(['kept', tag])
    expect(response.body.upload.edited_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/)
    await expectMatchesOpenApi('patch', '/api/upload/{id}', response)

    const after = await asOwner()
    expect(after.body).toEqual(response.body.upload)
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
    const listed = await api(`/api/uploads/filtered?tags=${tag}`)
    expect(listed.body.uploads.map((u: { id: string }) => u.id)).toEqual([id])
    expect(listed.body.uploads[0]).toMatchObject({ description: 'Fixed typo', revision: 2, edited_at: response.body.upload.edited_at })
    expect(await filtered(oldTag)).toEqual([])
    expect((await api(`/feeds/tag/${oldTag}.json`)).status).toBe(404) // a tag with no public upload has no feed
    const feed = await api(`/feeds/tag/${tag}.json`)
    expect(feed.body.items[0]).toMatchObject({ id, title: 'Fixed typo', date_modified: response.body.upload.edited_at })
  })

  it('answers the current revision and writes nothing for a body equal to the current state', async () => {
    const id = await link(['same'])
    const { body: upload } = await api(`/api/upload/${id}`, { token: owner.token })
    const response = await patch(id, { description: upload.description, tags: ['SAME'], externalUrl: upload.external_url })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ upload, revision: 1 })
    expect((await history(id)).body.total).toBe(1)
  })

  it('refuses bad bodies with the field named, and an empty change', async () => {
    const id = await link([])
    const image = await seedUpload(owner)
    expect((await patch(id, {})).body).toEqual(bad('Nothing to change'))
    expect((await patch(id, { reason: 'x' })).body).toEqual(bad('Nothing to change'))
    expect((await patch(id, { rating: 'lewd' })).body).toEqual(bad('Invalid rating'))
    expect((await patch(id, { description: '   ' })).body).toEqual(bad('Description is required'))
    expect((await patch(id, { tags: 'a,b' })).body).toEqual(bad('Tags must be an array'))
    expect((await patch(id, { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) })).body).toEqual(bad('At most 10 tags per upload'))
    expect((await patch(id, { externalUrl: 'ftp://example.com/' })).body).toEqual(bad('Invalid external URL'))
    expect((await patch(id, { description: 'ok', reason: 'r'.repeat(201) })).body).toEqual(bad('Reason must be at most 200 characters'))
    expect((await patch(image, { externalUrl: 'https://example.com/' })).body).toEqual(bad('Not a link'))
    expect((await history(id)).body.total).toBe(1)
  })

  it('answers 401, 404 and 403 as the caller is', async () => {
    const id = await link(['mine'])
    const hidden = await link([], owner, true)
    expect((await patch(id, { description: 'x' }, null)).status).toBe(401)
    const missing = await patch(randomUUID(), { description: 'x' })
    expect(missing.status).toBe(404)
    expect(missing.body.message).toBe('Upload not found')
    expect((await patch(hidden, { description: 'x' }, other)).status).toBe(404)
    expect((await patch(id, { description: 'x' }, other)).body).toEqual({ statusCode: 403, statusMessage: 'Forbidden', message: 'Not your upload' })
  })

  it('answers 401 for a signed-out session, before validating, and changes nothing', async () => {
    const gone = await registerUser()
    const id = await link(['kept'], gone)
    expect((await api('/api/auth/logout', { method: 'POST', token: gone.token })).status).toBe(200)
    const expired = { statusCode: 401, statusMessage: 'Unauthorized', message: 'Invalid or expired token' }
    for (const body of [{ description: 'changed' }, { tags: 'not a list' }, { description: 'x'.repeat(5000) }]) {
      const response = await patch(id, body, gone)
      expect(response.status).toBe(401)
      expect(response.body).toEqual(expired)
    }
    expect((await patch('not-an-id', { description: 'changed' }, gone)).body).toEqual(expired)
    expect((await history(id)).body.total).toBe(1)
  })

  it('takes If-Match: the current ETag goes through, a stale one is 412', async () => {
    const id = await link(['etag'])
    const etag = (await api(`/api/upload/${id}`, { token: owner.token })).headers.get('etag')!
    expect((await patch(id, { description: 'first' }, owner, { 'if-match': etag })).status).toBe(200)
    const stale = await patch(id, { description: 'second' }, owner, { 'if-match': etag })
    expect(stale.status).toBe(412)
    expect(stale.body).toEqual({ statusCode: 412, statusMessage: 'Precondition Failed', message: 'Upload changed' })
    const fresh = (await api(`/api/upload/${id}`, { token: owner.token })).headers.get('etag')!
    expect((await patch(id, { description: 'second' }, owner, { 'if-match': fresh })).body.revision).toBe(3)
  })

  it('serialises parallel edits: at most 10 tags, a linear history, the last revision\'s tags, every kept count exact', async () => {
    const pool = Array.from({ length: 14 }, (_, i) => `race-${i}`)
    const id = await link(pool.slice(0, 3))
    const lists = Array.from({ length: 10 }, (_, i) => pool.slice(i, i + 3 + (i % 8)))
    const answers = await Promise.all(lists.map((tags, i) => patch(id, { tags, reason: `race ${i}` })))
    expect(answers.map(answer => answer.status)).toEqual(Array(10).fill(200))
    const { body } = await history(id, null, '?limit=100')
    const revisions = (body.revisions as { revision: number, changes: { tagsAdded: string[], tagsRemoved: string[] } }[]).toReversed()
    expect(revisions.map(r => r.revision)).toEqual(Array.from({ length: body.total }, (_, i) => i + 1))
    expect(body.total).toBe(1 + new Set(answers.map(answer => answer.body.revision).filter(revision => revision > 1)).size)
    let replayed: string[] = []
    for (const { changes } of revisions) replayed = [...replayed.filter(slug => !changes.tagsRemoved.includes(slug)), ...changes.tagsAdded]
    const { body: upload } = await api(`/api/upload/${id}`)
    expect(upload.tags.length).toBeLessThanOrEqual(10)
    expect(slugs(upload.tags).sort()).toEqual(replayed.sort())
    expect(upload.revision).toBe(body.total)
    // Vote counters are left out: other files on this shared server seed them without vote rows.
    const drift = (await findDrift(serverDatabase().db)).filter(count => !VOTE_COUNTS.includes(count.name))
    expect(drift).toEqual([])
  })
})

describe('DELETE /api/uploads/{id}/tags/{slug}', () => {
  it('removes one tag as a revision, then answers removed 0', async () => {
    const id = await link(['Drop Me', 'stay'])
    const removed = await api(`/api/uploads/${id}/tags/drop-me`, { method: 'DELETE', token: owner.token })
    expect(removed.status).toBe(200)
    expect(removed.body).toMatchObject({ success: true, removed: 1 })
    expect(slugs(removed.body.tags)).toEqual(['stay'])
    await expectMatchesOpenApi('delete', '/api/uploads/{id}/tags/{slug}', removed)
    const again = await api(`/api/uploads/${id}/tags/drop-me`, { method: 'DELETE', token: owner.token })
    expect(again.body).toMatchObject({ success: true, removed: 0 })
    expect((await api(`/api/upload/${id}`)).body.revision).toBe(2)
    expect((await api(`/api/uploads/${id}/tags/stay`, { method: 'DELETE', token: other.token })).status).toBe(403)
    expect((await api(`/api/uploads/${id}/tags/stay`, { method: 'DELETE' })).status).toBe(401)
    expect((await api(`/api/uploads/${randomUUID()}/tags/stay`, { method: 'DELETE', token: owner.token })).status).toBe(404)
  })
})

describe('POST /api/uploads/{id}/tags', () => {
  it('adds tags as a revision, which a revert to an earlier one undoes', async () => {
    const id = await link(['kept'])
    const added = await api(`/api/uploads/${id}/tags`, { method: 'POST', token: owner.token, body: { tags: ['Added Later', 'kept'] } })
    expect(added.body).toMatchObject({ success: true, added: 1 })
    expect(slugs(added.body.tags)).toEqual(['kept', 'added-later'])
    const [latest] = (await history(id)).body.revisions
    expect(latest).toMatchObject({ revision: 2, actor: { id: owner.id }, reason: null, changes: { tagsAdded: ['added-later'], tagsRemoved: [] } })
    const again = await api(`/api/uploads/${id}/tags`, { method: 'POST', token: owner.token, body: { tags: ['added-later'] } })
    expect(again.body).toMatchObject({ success: true, added: 0 })
    expect((await api(`/api/upload/${id}`)).body.revision).toBe(2)

    const reverted = await api(`/api/admin/uploads/${id}/revert`, { method: 'POST', token: admin.token, body: { revision: 1 } })
    expect(reverted.body.revision).toBe(3)
    expect(slugs(reverted.body.upload.tags)).toEqual(['kept'])
  })
})

describe('GET /api/upload/{id}/history', () => {
  it('lists revisions newest first with actor, changes and reason; revision 1 is the creation', async () => {
    const id = await link(['first'])
    const { body: created } = await api(`/api/upload/${id}`)
    await patch(id, { description: 'Second words', tags: ['first', 'second'], externalUrl: 'https://example.org/new', reason: 'better link' })
    const response = await history(id)
    expect(response.status).toBe(200)
    await expectMatchesOpenApi('get', '/api/upload/{id}/history', response)
    expect(response.body).toMatchObject({ total: 2, page: 1, limit: 20 })
    const [second, first] = response.body.revisions
    expect(second).toMatchObject({
      revision: 2, actor: { id: owner.id, username: owner.username }, reason: 'better link',
      changes: { description: { from: created.description, to: 'Second words' }, externalUrl: { from: created.external_url, to: 'https://example.org/new' }, tagsAdded: ['second'], tagsRemoved: [] },
    })
    expect(first).toEqual({
      revision: 1, actor: { id: owner.id, username: owner.username }, reason: null, createdAt: created.created_at,
      changes: { description: { from: null, to: created.description }, externalUrl: { from: null, to: created.external_url }, tagsAdded: ['first'], tagsRemoved: [] },
    })
    expect((await history(id, null, '?limit=1&page=2')).body.revisions.map((r: { revision: number }) => r.revision)).toEqual([1])
  })

  it('is readable only by whoever can see the upload', async () => {
    const hidden = await link([], owner, true)
    expect((await history(hidden)).status).toBe(404)
    expect((await history(hidden, other)).status).toBe(404)
    expect((await history(hidden, owner)).body.total).toBe(1)
    expect((await history(hidden, admin)).body.total).toBe(1)
    expect((await history(randomUUID())).status).toBe(404)
    expect((await history(hidden, owner, '?limit=0')).body).toEqual(bad('Invalid limit'))
  })
})

describe('admin revert and lock', () => {
  it('reverts to a revision, locks and unlocks, and logs each with the upload\'s label', async () => {
    const id = await link(['one', 'two'])
    const { body: created } = await api(`/api/upload/${id}`)
    await patch(id, { description: 'Vandalised', tags: ['spam'] })

    const edited = await patch(id, { tags: ['spam', 'more-spam'], reason: 'admin fix' }, admin)
    expect(edited.body.revision).toBe(3)
    const reverted = await api(`/api/admin/uploads/${id}/revert`, { method: 'POST', token: admin.token, body: { revision: 1, note: 'restore' } })
    expect(reverted.status).toBe(200)
    await expectMatchesOpenApi('post', '/api/admin/uploads/{id}/revert', reverted)
    expect(reverted.body.revision).toBe(4)
    expect(reverted.body.upload).toMatchObject({ description: created.description, external_url: created.external_url, revision: 4 })
    expect(slugs(reverted.body.upload.tags).sort()).toEqual(['one', 'two'])
    const [latest] = (await history(id)).body.revisions
    expect(latest).toMatchObject({ revision: 4, actor: { id: admin.id }, reason: 'restore', changes: { description: { from: 'Vandalised', to: created.description } } })

    const locked = await api(`/api/admin/uploads/${id}/lock`, { method: 'POST', token: admin.token, body: { locked: true, note: 'edit war' } })
    expect(locked.status).toBe(200)
    await expectMatchesOpenApi('post', '/api/admin/uploads/{id}/lock', locked)
    expect(locked.body.upload.locked).toBe(1)
    expect((await patch(id, { description: 'mine again' })).body).toEqual({ statusCode: 403, statusMessage: 'Forbidden', message: 'Upload is locked' })
    expect((await api(`/api/uploads/${id}/tags/one`, { method: 'DELETE', token: owner.token })).body.message).toBe('Upload is locked')
    expect((await api(`/api/uploads/${id}/tags`, { method: 'POST', token: owner.token, body: { tags: ['sneaked-in'] } })).body.message).toBe('Upload is locked')
    expect(slugs((await api(`/api/upload/${id}`)).body.tags).sort()).toEqual(['one', 'two'])
    expect((await patch(id, { description: 'admins still may' }, admin)).status).toBe(200)
    await api(`/api/admin/uploads/${id}/lock`, { method: 'POST', token: admin.token, body: { locked: false } })
    expect((await patch(id, { description: 'mine again' })).status).toBe(200)

    expect(await modlogOf(id)).toEqual([
      { action: 'upload_edited', target_label: 'Vandalised', note: 'admin fix' },
      { action: 'upload_reverted', target_label: 'Vandalised', note: 'restore' },
      { action: 'upload_locked', target_label: created.description, note: 'edit war' },
      { action: 'upload_edited', target_label: created.description, note: null },
      { action: 'upload_unlocked', target_label: 'admins still may', note: null },
    ])
  })

  it('refuses non-admins, unknown uploads and revisions, and bad bodies', async () => {
    const id = await link([])
    const revert = (body: unknown, user = admin, target = id) => api(`/api/admin/uploads/${target}/revert`, { method: 'POST', token: user.token, body })
    expect((await revert({ revision: 1 }, owner)).status).toBe(403)
    expect((await api(`/api/admin/uploads/${id}/lock`, { method: 'POST', token: owner.token, body: { locked: true } })).status).toBe(403)
    expect((await revert({ revision: 1 }, admin, randomUUID())).status).toBe(404)
    expect((await revert({ revision: 5 })).body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Revision not found' })
    expect((await revert({ revision: 'one' })).body).toEqual(bad('Revision must be a whole number'))
    expect((await api(`/api/admin/uploads/${id}/lock`, { method: 'POST', token: admin.token, body: { locked: 'yes' } })).body).toEqual(bad('locked must be a boolean'))
    expect((await revert({ revision: 1 })).body.revision).toBe(1)
  })
})
