import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { sql } from '../../server/database/sql'
import { makeAdmin, seedUpload, serverDatabase } from '../support/seed'

let owner: TestUser
let other: TestUser
let admin: TestUser

beforeAll(async () => {
  [owner, other, admin] = await Promise.all([registerUser(), registerUser(), registerUser()])
  await makeAdmin(admin)
})

const addTags = (uploadId: string, tags: unknown, token?: string) =>
  api(`/api/uploads/${uploadId}/tags`, { method: 'POST', body: { tags }, token })

const bad = (message: string) => ({ statusCode: 400, statusMessage: 'Bad Request', message })

describe('GET /api/uploads/{id}/tags', () => {
  it('lists the tags of a public upload to anyone, in the order they were added', async () => {
    const id = await seedUpload(owner, { tags: ['Zebra', 'apple'] })
    const response = await api(`/api/uploads/${id}/tags`)
    expect(response.status).toBe(200)
    expect(response.body.tags.map((t: { name: string, slug: string }) => [t.name, t.slug])).toEqual([['Zebra', 'zebra'], ['apple', 'apple']])
    expect(Object.keys(response.body.tags[0]).sort()).toEqual(['id', 'name', 'slug'])
    expect(response.headers.get('cache-control')).toBe('no-cache')
  })

  it('answers an empty list for an untagged upload', async () => {
    const id = await seedUpload(owner)
    expect((await api(`/api/uploads/${id}/tags`)).body).toEqual({ tags: [] })
  })

  it('hides a private upload from everyone but its owner and admins', async () => {
    const id = await seedUpload(owner, { isPrivate: true, tags: ['secret'] })
    expect((await api(`/api/uploads/${id}/tags`)).status).toBe(404)
    expect((await api(`/api/uploads/${id}/tags`, { token: other.token })).status).toBe(404)
    const own = await api(`/api/uploads/${id}/tags`, { token: owner.token })
    expect(own.status).toBe(200)
    expect(own.headers.get('cache-control')).toBe('private, no-store')
    expect((await api(`/api/uploads/${id}/tags`, { token: admin.token })).body.tags[0].slug).toBe('secret')
  })

  it('answers 404 for an unknown upload and 400 for a malformed id', async () => {
    const missing = await api(`/api/uploads/${randomUUID()}/tags`)
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Upload not found' })
    expect((await api('/api/uploads/not-a-uuid/tags')).status).toBe(400)
  })
})

describe('POST /api/uploads/{id}/tags', () => {
  it('adds tags: trimmed, case kept, slug lowercased, with the full list and the number added', async () => {
    const id = await seedUpload(owner)
    const response = await addTags(id, ['  Funny Cats  ', 'cute-2026'], owner.token)
    expect(response.status).toBe(200)
    expect(response.body.success).toBe(true)
    expect(response.body.added).toBe(2)
    expect(response.body.tags.map((t: { name: string }) => t.name)).toEqual(['Funny Cats', 'cute-2026'])
    expect(response.body.tags.map((t: { slug: string }) => t.slug)).toEqual(['funny-cats', 'cute-2026'])
  })

  it('gives a name with İ a slug that its tag, feed and search all answer to', async () => {
    const name = `İstanbul ${randomUUID().slice(0, 8)}`
    const slug = name.replace('İ', 'i').toLowerCase().replace(' ', '-')
    const id = await seedUpload(owner)
    expect((await addTags(id, [name], owner.token)).body.tags).toEqual([expect.objectContaining({ name, slug })])
    // The address may spell it as the name does.
    for (const path of [`/api/tags/${slug}`, `/feeds/tag/${slug}.json`, `/feeds/tag/${encodeURIComponent(name.replace(' ', '-'))}.json`, `/api/search?q=${encodeURIComponent(name.replace(' ', '-'))}`]) {
      expect([path, (await api(path)).status]).toEqual([path, 200])
    }
    expect((await api(`/api/search?q=${slug}`)).body.uploads.map((upload: { id: string }) => upload.id)).toEqual([id])
  })

  it('skips tags already on the upload silently and counts only new ones', async () => {
    const id = await seedUpload(owner, { tags: ['Dogs'] })
    const response = await addTags(id, ['dogs', 'DOGS', 'Birds', 'birds'], owner.token)
    expect(response.status).toBe(200)
    expect(response.body.added).toBe(1)
    expect(response.body.tags.map((t: { name: string }) => t.name)).toEqual(['Dogs', 'Birds'])
    const again = await addTags(id, ['Birds'], owner.token)
    expect(again.body).toMatchObject({ success: true, added: 0 })
    expect(again.body.tags).toHaveLength(2)
  })

  it('keeps one tag row per slug, shared by every upload', async () => {
    const name = `Shared ${randomUUID().slice(0, 6)}`
    const first = await addTags(await seedUpload(owner), [name], owner.token)
    const second = await addTags(await seedUpload(other), [name.toUpperCase()], other.token)
    expect(second.body.tags[0].id).toBe(first.body.tags[0].id)
    expect(second.body.tags[0].name).toBe(name)
  })

  it('rejects a request that would exceed 10 tags, writing none of it', async () => {
    const id = await seedUpload(owner, { tags: ['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9'] })
    const over = await addTags(id, ['t10', 't11'], owner.token)
    expect(over.status).toBe(400)
    expect(over.body).toMatchObject(bad('An upload can have at most 10 tags'))
    expect((await api(`/api/uploads/${id}/tags`)).body.tags).toHaveLength(9)
    const fits = await addTags(id, ['t9', 't10'], owner.token)
    expect(fits.body.added).toBe(1)
    expect(fits.body.tags).toHaveLength(10)
    expect((await addTags(id, ['t1'], owner.token)).status).toBe(200)
    expect((await addTags(id, ['t11'], owner.token)).status).toBe(400)
  })

  it.each([
    ['a'],
    ['x'.repeat(51)],
    ['<script>'],
    ['under_score'],
    ['emoji 🎉'],
    ['   '],
    [''],
    [42],
  ])('rejects the invalid name %j with 400 and adds nothing', async (name) => {
    const id = await seedUpload(owner)
    const response = await addTags(id, ['Valid', name], owner.token)
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject(bad('Tag names must be 2 to 50 characters of letters, digits, spaces and hyphens'))
    expect((await api(`/api/uploads/${id}/tags`)).body.tags).toEqual([])
  })

  it('accepts names of exactly 2 and 50 characters, letters of any script and digits', async () => {
    const id = await seedUpload(owner)
    const response = await addTags(id, ['ab', 'y'.repeat(50), 'Ünïcode Żółw 42'], owner.token)
    expect(response.status).toBe(200)
    expect(response.body.tags.map((t: { slug: string }) => t.slug)).toEqual(['ab', 'y'.repeat(50), 'ünïcode-żółw-42'])
  })

  it.each([
    ['missing', {}],
    ['empty', { tags: [] }],
    ['not an array', { tags: 'cats,dogs' }],
  ])('answers 400 when tags are %s', async (_, body) => {
    const id = await seedUpload(owner)
    const response = await api(`/api/uploads/${id}/tags`, { method: 'POST', body, token: owner.token })
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject(bad('Tags must be a non-empty array'))
  })

  it('answers 401 before looking at the input', async () => {
    const id = await seedUpload(owner)
    const response = await addTags(id, 'garbage')
    expect(response.status).toBe(401)
    expect(response.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Authentication required' })
  })

  it('answers 403 to a signed-in user who does not own the upload', async () => {
    const id = await seedUpload(owner)
    const response = await addTags(id, ['Mine'], other.token)
    expect(response.status).toBe(403)
    expect(response.body).toEqual({ statusCode: 403, statusMessage: 'Forbidden', message: 'Only the owner or an admin can add tags' })
  })

  it('lets an admin tag anyone\'s upload, private ones included', async () => {
    const id = await seedUpload(owner, { isPrivate: true })
    const response = await addTags(id, ['Moderated'], admin.token)
    expect(response.status).toBe(200)
    expect(response.body.added).toBe(1)
  })

  it('answers 404 for an unknown upload and for another user\'s private upload', async () => {
    expect((await addTags(randomUUID(), ['Ghost'], owner.token)).status).toBe(404)
    const hidden = await seedUpload(owner, { isPrivate: true })
    expect((await addTags(hidden, ['Ghost'], other.token)).status).toBe(404)
  })
})

describe('GET /api/tags', () => {
  it('finds tags by slug prefix, counting public uploads only, most used first', async () => {
    const prefix = `disc${randomUUID().slice(0, 6)}`
    await seedUpload(owner, { tags: [`${prefix} Rare`, `${prefix} Common`] })
    await seedUpload(owner, { tags: [`${prefix} Common`] })
    await seedUpload(other, { tags: [`${prefix} Common`] })
    await seedUpload(owner, { isPrivate: true, tags: [`${prefix} Common`, `${prefix} Hidden`] })
    const response = await api(`/api/tags?q=${encodeURIComponent(prefix.toUpperCase())}`)
    expect(response.status).toBe(200)
    expect(response.body.tags.map((t: { slug: string, count: number }) => [t.slug, t.count]))
      .toEqual([[`${prefix}-common`, 3], [`${prefix}-rare`, 1]])
    expect(Object.keys(response.body.tags[0]).sort()).toEqual(['count', 'id', 'name', 'slug'])
    const limited = await api(`/api/tags?q=${prefix}&limit=1`)
    expect(limited.body.tags).toHaveLength(1)
  })

  it('keeps each count exact through tagging, privacy changes and deletions, also in parallel', async () => {
    const prefix = `kept${randomUUID().slice(0, 6)}`
    const countOf = async () => Object.fromEntries((await api(`/api/tags?q=${prefix}`)).body.tags.map((t: { slug: string, count: number }) => [t.slug.slice(prefix.length + 1), t.count]))
    const [a, b, c] = [await seedUpload(owner, { tags: [`${prefix} x`] }), await seedUpload(owner, {}), await seedUpload(other, {})]
    expect(await countOf()).toEqual({ x: 1 })

    // Tags added through the API, in parallel from two users to three uploads.
    const added = await Promise.all([addTags(a, [`${prefix} y`], owner.token), addTags(b, [`${prefix} x`, `${prefix} y`], owner.token), addTags(c, [`${prefix} y`, `${prefix} x`], other.token)])
    expect(added.map(r => r.status)).toEqual([200, 200, 200])
    expect(await countOf()).toEqual({ x: 3, y: 3 })

    const privacy = (id: string, token: string) => api(`/api/upload/${id}/privacy`, { method: 'PATCH', token })
    expect((await privacy(b, owner.token)).body.upload.is_private).toBe(1)
    expect(await countOf()).toEqual({ x: 2, y: 2 })
    expect((await privacy(b, owner.token)).body.upload.is_private).toBe(0)
    expect(await countOf()).toEqual({ x: 3, y: 3 })

    // A private upload's tags never counted, and deleting it takes nothing away.
    expect((await privacy(c, other.token)).status).toBe(200)
    expect((await api(`/api/upload/${c}`, { method: 'DELETE', token: other.token })).status).toBe(200)
    expect(await countOf()).toEqual({ x: 2, y: 2 })
    expect((await api(`/api/upload/${a}`, { method: 'DELETE', token: admin.token })).status).toBe(200)
    expect(await countOf()).toEqual({ x: 1, y: 1 })
    expect((await api(`/api/upload/${b}`, { method: 'DELETE', token: owner.token })).status).toBe(200)
    expect(await countOf()).toEqual({})
  })

  it('keeps each upload\'s tag ids with its row, in order, through parallel adds and every change of its links', async () => {
    const { db } = serverDatabase()
    const prefix = `ids${randomUUID().slice(0, 6)}`
    const kept = async (id: string) => (await db.get<{ tag_ids: string }>(sql`SELECT tag_ids FROM uploads WHERE id = ${id}`))!.tag_ids
    const linked = async (id: string) => (await db.all<{ tag_id: string }>(sql`SELECT tag_id FROM upload_tags WHERE upload_id = ${id} ORDER BY position`)).map(row => row.tag_id).join(',')
    const id = await seedUpload(owner, { tags: [`${prefix} a`] })
    expect((await kept(id)).split(',')).toHaveLength(1)

    // Eight parallel adds of one tag each: the cap holds, and the row lists exactly what was linked, in order.
    const adds = await Promise.all(Array.from({ length: 8 }, (_, i) => addTags(id, [`${prefix} t${i}`], owner.token)))
    expect(adds.map(r => r.status)).toEqual(Array(8).fill(200))
    expect(await kept(id)).toBe(await linked(id))
    expect((await kept(id)).split(',')).toHaveLength(9)
    const listed = (await api(`/api/uploads/${id}/tags`)).body.tags.map((t: { id: string }) => t.id)
    expect(listed.join(',')).toBe(await kept(id))
    expect((await api(`/api/upload/${id}`)).body.tags.map((t: { id: string }) => t.id)).toEqual(listed)

    // A link moved, removed, or its tag row deleted (no route does these; the database keeps up anyway).
    const [first, second] = listed as string[]
    await db.run(sql`UPDATE upload_tags SET position = 99 WHERE upload_id = ${id} AND tag_id = ${first}`)
    expect((await kept(id)).split(',').at(-1)).toBe(first)
    await db.run(sql`DELETE FROM upload_tags WHERE upload_id = ${id} AND tag_id = ${first}`)
    expect((await kept(id)).split(',')).toEqual((listed as string[]).slice(1))
    await db.run(sql`DELETE FROM tags WHERE id = ${second}`)
    expect((await kept(id)).split(',')).toEqual((listed as string[]).slice(2))
    expect(await kept(id)).toBe(await linked(id))
    await db.run(sql`DELETE FROM upload_tags WHERE upload_id = ${id}`)
    expect(await kept(id)).toBe('')
    expect((await api(`/api/upload/${id}`)).body.tags).toEqual([])
  })

  it('treats LIKE wildcards in q literally and validates limit', async () => {
    expect((await api('/api/tags?q=%25')).body.tags).toEqual([])
    expect((await api('/api/tags?limit=0')).status).toBe(400)
    expect((await api('/api/tags?limit=abc')).body.message).toBe('Invalid limit')
    expect((await api('/api/tags?limit=1000')).status).toBe(200)
  })
})

describe('GET /api/uploads/filtered with several tags', () => {
  it('lists exactly the uploads carrying every tag, whatever the order of the slugs, with their total', async () => {
    const tag = (name: string) => `trio-${name}-${randomUUID().slice(0, 8)}`
    const [a, b, c] = [tag('a'), tag('b'), tag('c')]
    const older = await seedUpload(owner, { tags: [a, b, c], createdAt: '2021-01-01T00:00:00.000Z' })
    const newer = await seedUpload(other, { tags: [c, a, b], createdAt: '2021-01-02T00:00:00.000Z' })
    await seedUpload(owner, { tags: [a, b] })
    await seedUpload(other, { tags: [b, c] })
    await seedUpload(owner, { tags: [a, b, c], isPrivate: true })
    for (const slugs of [[a, b, c], [c, b, a], [b, a, c]]) {
      const response = await api(`/api/uploads/filtered?tags=${slugs.join(',')}`)
      expect(response.status).toBe(200)
      expect(response.body.total).toBe(2)
      expect(response.body.uploads.map((entry: { id: string }) => entry.id)).toEqual([newer, older])
    }
    expect((await api(`/api/uploads/filtered?tags=${a},${b}`)).body.total).toBe(3)
    expect((await api(`/api/uploads/filtered?tags=${a},${b},${c},${tag('d')}`)).body).toEqual({ uploads: [], total: 0, page: 1, limit: 10 })
  })
})

describe('tags in list entries', () => {
  it('carry each upload\'s tags in the order added, with the name the tag was first written with, also for tags new since the last read', async () => {
    const suffix = randomUUID().slice(0, 8)
    const first = await seedUpload(owner, { tags: [`Kept-Name-${suffix}`, `plain-${suffix}`], createdAt: '2021-03-01T00:00:00.000Z' })
    const second = await seedUpload(other, { tags: [`plain-${suffix}`, `kept-name-${suffix}`], createdAt: '2021-03-02T00:00:00.000Z' })
    const tagsOf = async (id: string) => {
      const response = await api(`/api/uploads/filtered?tags=plain-${suffix}`)
      expect(response.status).toBe(200)
      const entry = (response.body.uploads as { id: string, tags: { id: string, name: string, slug: string }[] }[]).find(item => item.id === id)!
      return entry.tags.map(tag => [tag.name, tag.slug])
    }
    expect(await tagsOf(first)).toEqual([[`Kept-Name-${suffix}`, `kept-name-${suffix}`], [`plain-${suffix}`, `plain-${suffix}`]])
    expect(await tagsOf(second)).toEqual([[`plain-${suffix}`, `plain-${suffix}`], [`Kept-Name-${suffix}`, `kept-name-${suffix}`]])
    // A tag made after the list was read shows up in the next read, after the older ones.
    expect((await addTags(second, [`Fresh ${suffix}`], other.token)).status).toBe(200)
    expect(await tagsOf(second)).toEqual([[`plain-${suffix}`, `plain-${suffix}`], [`Kept-Name-${suffix}`, `kept-name-${suffix}`], [`Fresh ${suffix}`, `fresh-${suffix}`]])
    const listed = (await api(`/api/uploads/filtered?tags=plain-${suffix}`)).body.uploads as { tags: { id: string }[] }[]
    expect(listed[0]!.tags[1]!.id).toBe(listed[1]!.tags[0]!.id)
  })
})
