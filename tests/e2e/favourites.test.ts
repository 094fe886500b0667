import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { KEPT_COUNTS } from '../../server/database/kept-counts'
import { sql } from '../../server/database/sql'
import { api, errorBody, registerUser, type TestUser } from '../support/api'
import { expectMatchesOpenApi } from '../support/openapi'
import { seedUpload, serverDatabase } from '../support/seed'

// Favourites on the shared server: PUT/DELETE /api/upload/{id}/favourite, the kept count
// (uploads.favourites, triggers on favourites), the caller's `favourited`, the lists.

const put = (user: TestUser, id: string) => api(`/api/upload/${id}/favourite`, { method: 'PUT', token: user.token })
const remove = (user: TestUser, id: string) => api(`/api/upload/${id}/favourite`, { method: 'DELETE', token: user.token })

/** The kept count and a count of the rows. */
async function counts(uploadId: string) {
  const { db } = serverDatabase()
  const row = await db.get<{ kept: number, counted: number }>(sql`SELECT favourites AS kept,
    (SELECT count(*) FROM favourites WHERE upload_id = ${uploadId}) AS counted FROM uploads WHERE id = ${uploadId}`)
  return { kept: Number(row!.kept), counted: Number(row!.counted) }
}

const tag = () => `fav${randomUUID().slice(0, 8)}`

describe('favourites', () => {
  it('are added and removed idempotently, answering the caller\'s state and the count', async () => {
    const [owner, fan] = await Promise.all([registerUser(), registerUser()])
    const id = await seedUpload(owner)
    expect(await put(fan, id)).toMatchObject({ status: 200, body: { favourited: true, favourites: 1 } })
    expect(await put(fan, id)).toMatchObject({ status: 200, body: { favourited: true, favourites: 1 } })
    expect(await put(owner, id)).toMatchObject({ status: 200, body: { favourited: true, favourites: 2 } })
    expect(await remove(fan, id)).toMatchObject({ status: 200, body: { favourited: false, favourites: 1 } })
    expect(await remove(fan, id)).toMatchObject({ status: 200, body: { favourited: false, favourites: 1 } })
    expect((await remove(fan, id)).body).toEqual({ favourited: false, favourites: 1 })
    expect(await counts(id)).toEqual({ kept: 1, counted: 1 })

    // The full object: the count for everyone, `favourited` for a signed-in caller (whose answer is private).
    const visitor = await api(`/api/upload/${id}`)
    expect(visitor.body.favourites).toBe(1)
    expect(visitor.body).not.toHaveProperty('favourited')
    expect(visitor.headers.get('cache-control')).toBe('no-cache')
    const mine = await api(`/api/upload/${id}`, { token: owner.token })
    expect(mine.body).toMatchObject({ favourites: 1, favourited: true })
    expect(mine.headers.get('cache-control')).toBe('private, no-store')
    expect((await api(`/api/upload/${id}`, { token: fan.token })).body).toMatchObject({ favourites: 1, favourited: false })
  })

  it('refuse visitors, unknown uploads and others\' private ones', async () => {
    const [owner, other] = await Promise.all([registerUser(), registerUser()])
    const hidden = await seedUpload(owner, { isPrivate: true })
    const response = await api(`/api/upload/${hidden}/favourite`, { method: 'PUT' })
    expect(response.status).toBe(401)
    expect(errorBody(response)).toMatchObject({ statusCode: 401, message: 'Authentication required' })
    for (const target of [hidden, randomUUID(), 'not-a-uuid']) {
      for (const call of [put, remove]) {
        const refused = await call(other, target)
        expect(refused.status).toBe(404)
        expect(errorBody(refused)).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Upload not found' })
      }
    }
    // The owner sees (and may favourite) their own private upload.
    expect(await put(owner, hidden)).toMatchObject({ status: 200, body: { favourited: true, favourites: 1 } })
  })

  it('stay removable by their holder once the upload is made private', async () => {
    const [owner, fan, other] = await Promise.all([registerUser(), registerUser(), registerUser()])
    const id = await seedUpload(owner)
    expect(await put(fan, id)).toMatchObject({ status: 200, body: { favourited: true, favourites: 1 } })
    expect(await put(owner, id)).toMatchObject({ status: 200, body: { favourited: true, favourites: 2 } })
    expect((await api(`/api/upload/${id}/privacy`, { method: 'PATCH', token: owner.token, body: { is_private: true } })).status).toBe(200)
    const notFound = { statusCode: 404, statusMessage: 'Not Found', message: 'Upload not found' }
    // Someone without a favourite on it learns nothing: as for an unknown upload.
    expect(errorBody(await remove(other, id))).toEqual(notFound)
    // Nor can the fan add it again.
    expect(errorBody(await put(fan, id))).toEqual(notFound)
    const removed = await remove(fan, id)
    expect(removed.status).toBe(200)
    expect(removed.body).toEqual({ favourited: false, favourites: 1 })
    await expectMatchesOpenApi('DELETE', '/api/upload/{id}/favourite', removed)
    // Gone once: a second removal is a 404 again.
    expect(errorBody(await remove(fan, id))).toEqual(notFound)
    expect(await counts(id)).toEqual({ kept: 1, counted: 1 })
    expect((await api(`/api/upload/${id}`, { token: owner.token })).body).toMatchObject({ favourites: 1, favourited: true })
  })

  it('answer exact counts to presses sent at once by many accounts, and keep the count exact', async () => {
    const [owner, ...fans] = await Promise.all(Array.from({ length: 9 }, () => registerUser()))
    const id = await seedUpload(owner!)
    const added = await Promise.all(fans.map(fan => put(fan, id)))
    expect(added.map(answer => answer.status)).toEqual(Array(8).fill(200))
    // Each answer is the count its own press left: one each of 1 to 8.
    expect(added.map(answer => answer.body.favourites as number).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    const removed = await Promise.all(fans.slice(0, 5).map(fan => remove(fan, id)))
    expect(removed.map(answer => answer.body.favourites as number).sort((x, y) => x - y)).toEqual([3, 4, 5, 6, 7])
    expect(await counts(id)).toEqual({ kept: 3, counted: 3 })
  })

  it('mark list entries for the signed-in caller only, never in the answer shared by all', async () => {
    const [owner, fan, other] = await Promise.all([registerUser(), registerUser(), registerUser()])
    const slug = tag()
    // a a minute older than b: two seeds in the same millisecond would tie, and a tie goes by id.
    const [a, b] = [await seedUpload(owner, { tags: [slug], createdAt: new Date(Date.now() - 60_000).toISOString() }), await seedUpload(owner, { tags: [slug] })]
    expect((await put(fan, a)).status).toBe(200)
    const path = `/api/uploads/filtered?tags=${slug}`
    // The signed-in caller asks first: the list cache keeps the shared answer, not theirs.
    const theirs = await api(path, { token: fan.token })
    expect(theirs.status).toBe(200)
    expect(theirs.headers.get('cache-control')).toBe('private, no-store')
    expect(theirs.body.uploads.map((entry: { id: string, favourited: boolean, favourites: number }) => [entry.id, entry.favourited, entry.favourites]))
      .toEqual([[b, false, 0], [a, true, 1]])
    const shared = await api(path)
    expect(shared.headers.get('cache-control')).toBe('public, max-age=120')
    expect(shared.body.uploads.map((entry: { favourites: number }) => entry.favourites)).toEqual([0, 1])
    for (const entry of shared.body.uploads) expect(entry).not.toHaveProperty('favourited')
    const others = await api(path, { token: other.token })
    expect(others.body.uploads.map((entry: { favourited: boolean }) => entry.favourited)).toEqual([false, false])
    // Every list: the per-user list, the caller's own uploads, the newest and the feature lists.
    const lists = await Promise.all([
      api(`/api/user/${owner.username}/uploads`, { token: fan.token }),
      api('/api/profile/uploads', { token: owner.token }),
      api('/api/uploads', { token: fan.token }),
      api('/api/items-recent', { token: fan.token }),
    ])
    expect(lists[0]!.body.uploads.map((entry: { id: string, favourited: boolean }) => [entry.id, entry.favourited])).toEqual([[b, false], [a, true]])
    expect(lists[1]!.body.uploads.map((entry: { favourited: boolean }) => entry.favourited)).toEqual([false, false])
    expect(lists[2]!.body.uploads.every((entry: { favourited?: boolean }) => typeof entry.favourited === 'boolean')).toBe(true)
    expect(lists[3]!.body.items.every((entry: { favourited?: boolean }) => typeof entry.favourited === 'boolean')).toBe(true)
  })

  it('order every list by sort=favourites, most first, ties newest first', async () => {
    const [owner, ...fans] = await Promise.all(Array.from({ length: 4 }, () => registerUser()))
    const slug = tag()
    const ids: string[] = []
    for (let i = 0; i < 4; i++) ids.push(await seedUpload(owner!, { tags: [slug], createdAt: new Date(Date.now() - (4 - i) * 60_000).toISOString() }))
    // ids[1] by three, ids[3] by two, ids[0] by one, ids[2] by none.
    await Promise.all([...fans.map(fan => put(fan, ids[1]!)), put(fans[0]!, ids[3]!), put(fans[1]!, ids[3]!), put(fans[2]!, ids[0]!)])
    const expected = [ids[1], ids[3], ids[0], ids[2]]
    const order = (response: { body: { uploads: { id: string }[] } }) => response.body.uploads.map(entry => entry.id)
    expect(order(await api(`/api/uploads/filtered?tags=${slug}&sort=favourites`))).toEqual(expected)
    expect(order(await api(`/api/uploads/filtered?tags=${slug}&sort=favourites&period=week`))).toEqual(expected)
    expect(order(await api(`/api/uploads/filtered?tags=${slug},${slug}x&match=any&sort=favourites`))).toEqual(expected)
    expect(order(await api(`/api/user/${owner!.username}/uploads?sort=favourites`))).toEqual(expected)
    expect(order(await api('/api/profile/uploads?sort=favourites', { token: owner!.token }))).toEqual(expected)
    const all = await api('/api/uploads?sort=favourites&limit=100')
    expect(all.status).toBe(200)
    const favourites = all.body.uploads.map((entry: { favourites: number }) => entry.favourites)
    expect(favourites).toEqual([...favourites].sort((x, y) => y - x))
    expect(errorBody(await api('/api/uploads?sort=favourite'))).toMatchObject({ statusCode: 400, message: 'Invalid sort' })
  })

  it('list the caller\'s and a user\'s public favourites, newest first, until the user makes them private', async () => {
    const [owner, fan] = await Promise.all([registerUser(), registerUser()])
    const [first, second, hidden] = [await seedUpload(owner), await seedUpload(owner), await seedUpload(owner, { isPrivate: true })]
    expect((await put(owner, hidden)).status).toBe(200)
    for (const id of [first, second]) {
      expect((await put(fan, id)).status).toBe(200)
      expect((await put(owner, id)).status).toBe(200)
    }
    const own = await api('/api/profile/favourites', { token: owner.token })
    expect(own.status).toBe(200)
    expect(own.headers.get('cache-control')).toBe('private, no-store')
    expect(own.body).toMatchObject({ total: 3, page: 1, limit: 12 })
    expect(own.body.uploads.map((entry: { id: string, favourited: boolean }) => [entry.id, entry.favourited])).toEqual([[second, true], [first, true], [hidden, true]])
    // Others see only the public ones; paging as every list.
    const paged = await api(`/api/user/${owner.username}/favourites?limit=1&page=2`)
    expect(paged.status).toBe(200)
    expect(paged.body).toMatchObject({ total: 2, page: 2, limit: 1 })
    expect(paged.body.uploads.map((entry: { id: string }) => entry.id)).toEqual([first])
    expect(paged.body.uploads[0]).toMatchObject({ username: owner.username, favourites: 2 })
    expect(paged.body.uploads[0]).not.toHaveProperty('favourited')
    expect((await api(`/api/user/${owner.username.toUpperCase()}/favourites`, { token: fan.token })).body.uploads
      .map((entry: { favourited: boolean }) => entry.favourited)).toEqual([true, true])

    expect((await api('/api/profile', { token: owner.token })).body.user.publicFavourites).toBe(true)
    const off = await api('/api/profile/preferences', { method: 'PUT', token: owner.token, body: { publicFavourites: false } })
    expect(off).toMatchObject({ status: 200, body: { publicFavourites: false } })
    expect((await api('/api/profile', { token: owner.token })).body.user.publicFavourites).toBe(false)
    for (const token of [undefined, fan.token, owner.token]) {
      const refused = await api(`/api/user/${owner.username}/favourites`, { token })
      expect(refused.status).toBe(404)
      expect(errorBody(refused)).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Favourites are private' })
    }
    expect((await api('/api/profile/favourites', { token: owner.token })).body.total).toBe(3)
    expect(errorBody(await api('/api/user/nobody_here_at_all/favourites'))).toMatchObject({ statusCode: 404, message: 'User not found' })
    expect((await api('/api/profile/preferences', { method: 'PUT', token: owner.token, body: {} })).body).toEqual({ publicFavourites: false, explicit: 'blur', suggestive: 'show' })
    expect((await api('/api/profile/preferences', { method: 'PUT', token: owner.token, body: { publicFavourites: true } })).body).toEqual({ publicFavourites: true, explicit: 'blur', suggestive: 'show' })
    expect((await api(`/api/user/${owner.username}/favourites`)).status).toBe(200)

    const bad = await api('/api/profile/preferences', { method: 'PUT', token: owner.token, body: { publicFavourites: 'no' } })
    expect(bad.status).toBe(400)
    expect(errorBody(bad)).toMatchObject({ statusCode: 400, message: 'Invalid publicFavourites' })
    expect((await api('/api/profile/preferences', { method: 'PUT', body: { publicFavourites: false } })).status).toBe(401)
    expect((await api('/api/profile/favourites')).status).toBe(401)
    expect(errorBody(await api('/api/profile/favourites?page=0', { token: owner.token }))).toMatchObject({ statusCode: 400, message: 'Invalid page' })
  })

  it('make a user\'s public favourites a feed in Atom and JSON Feed, gone while they are private', async () => {
    const [owner, fan] = await Promise.all([registerUser(), registerUser()])
    const [older, newer, hidden] = [await seedUpload(owner, { description: 'fav older' }), await seedUpload(owner, { description: 'fav newer' }), await seedUpload(fan, { isPrivate: true })]
    for (const id of [newer, older, hidden]) expect((await put(fan, id)).status).toBe(200)
    const json = await api(`/feeds/user/${fan.username.toUpperCase()}/favourites.json`)
    expect(json.status).toBe(200)
    expect(json.headers.get('content-type')).toContain('application/feed+json')
    expect(json.body).toMatchObject({ title: `Does It Fuck?: favourites of ${fan.username}`, feed_url: expect.stringMatching(new RegExp(`/feeds/user/${fan.username}/favourites\\.json$`)) })
    // The page it mirrors is the profile's Favourites tab, which exists.
    expect(json.body.home_page_url).toMatch(new RegExp(`/user/${fan.username}\\?tab=favourites$`))
    const page = new URL(json.body.home_page_url)
    const tab = await api(`${page.pathname}${page.search}`)
    expect(tab.status).toBe(200)
    const feedLinks = (html: string) => [...html.matchAll(/<link rel="alternate" type="[^"]+" title="[^"]*" href="([^"]+)">/g)].map(match => match[1])
    expect(feedLinks(tab.body as string)).toEqual([`/feeds/user/${fan.username}/favourites.atom`, `/feeds/user/${fan.username}/favourites.json`])
    expect(json.body.items.map((item: { id: string }) => item.id)).toEqual([older, newer])
    const atom = await api(`/feeds/user/${fan.username}/favourites.atom`)
    expect(atom.status).toBe(200)
    expect(atom.headers.get('content-type')).toContain('application/atom+xml')
    expect([...(atom.body as string).matchAll(/<id>urn:uuid:([^<]+)<\/id>/g)].map(match => match[1])).toEqual([older, newer])
    // The feed changed when the last favourite was added, after either upload was made.
    const [feedUpdated, ...entriesUpdated] = [...(atom.body as string).matchAll(/<updated>([^<]+)<\/updated>/g)].map(match => match[1]!)
    expect(entriesUpdated).toHaveLength(2)
    expect(entriesUpdated.every(entryUpdated => feedUpdated! > entryUpdated)).toBe(true)
    expect((await api('/api/profile/preferences', { method: 'PUT', token: fan.token, body: { publicFavourites: false } })).status).toBe(200)
    // Kept private, the list has no feed, and its tab links none.
    expect(feedLinks((await api(`${page.pathname}${page.search}`)).body as string)).toEqual([])
    for (const path of [`/feeds/user/${fan.username}/favourites.atom`, `/feeds/user/${fan.username}/favourites.json`, `/feeds/user/${fan.username}/uploads.json`, '/feeds/user/nobody_here_at_all/favourites.json']) {
      const refused = await api(path)
      expect(refused.status, path).toBe(404)
      expect(refused.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Favourites not found' })
    }
  })

  it('count exactly when many favourite one upload at once, and one account repeats itself', async () => {
    const owner = await registerUser()
    const id = await seedUpload(owner)
    const fans = await Promise.all(Array.from({ length: 20 }, () => registerUser()))
    const added = await Promise.all(fans.map(fan => put(fan, id)))
    expect(added.map(response => response.status)).toEqual(Array(20).fill(200))
    expect(added.map(response => response.body.favourites).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    expect(await counts(id)).toEqual({ kept: 20, counted: 20 })
    const repeated = await Promise.all(Array.from({ length: 10 }, () => put(owner, id)))
    expect(repeated.map(response => response.status)).toEqual(Array(10).fill(200))
    expect(await counts(id)).toEqual({ kept: 21, counted: 21 })
    const mixed = await Promise.all([...Array.from({ length: 10 }, () => remove(owner, id)), ...fans.slice(0, 5).map(fan => remove(fan, id))])
    expect(mixed.map(response => response.status)).toEqual(Array(15).fill(200))
    expect(await counts(id)).toEqual({ kept: 15, counted: 15 })
    expect((await api(`/api/upload/${id}`)).body.favourites).toBe(15)
  })

  it('go with their upload or account, leaving the other counts exact', async () => {
    const [owner, leaving, staying] = await Promise.all([registerUser(), registerUser(), registerUser()])
    const [kept, deleted, theirs] = [await seedUpload(owner), await seedUpload(owner), await seedUpload(leaving)]
    for (const fan of [leaving, staying]) {
      for (const id of [kept, deleted, theirs]) expect((await put(fan, id)).status).toBe(200)
    }
    expect((await api(`/api/upload/${deleted}`, { method: 'DELETE', token: owner.token })).status).toBe(200)
    const { db } = serverDatabase()
    const rows = async (where: ReturnType<typeof sql>) => Number((await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM favourites WHERE ${where}`))!.n)
    expect(await rows(sql`upload_id = ${deleted}`)).toBe(0)
    expect((await api('/api/profile/favourites', { token: staying.token })).body.total).toBe(2)
    const gone = await api('/api/profile', { method: 'DELETE', token: leaving.token, body: { password: leaving.password } })
    expect(gone.status).toBe(200)
    expect(await counts(kept)).toEqual({ kept: 1, counted: 1 })
    expect((await api('/api/profile/favourites', { token: staying.token })).body.uploads.map((entry: { id: string }) => entry.id)).toEqual([kept])
    expect(await rows(sql`user_id = ${leaving.id}`)).toBe(0)
    expect(await db.all(KEPT_COUNTS.find(count => count.name === 'uploads.favourites')!.drift)).toEqual([])
  })
})
