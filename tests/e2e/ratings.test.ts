import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, errorBody, registerUser, type TestUser } from '../support/api'
import { randomImage, uploadForm } from '../support/images'
import { expectMatchesOpenApi } from '../support/openapi'
import { makeAdmin, serverDatabase } from '../support/seed'
import { createApiToken, postUpload } from '../support/uploads'

// Content ratings on the shared server (docs/behaviour.md, Curation; Search): at upload, by
// edit and revert, as a filter of every list, search and feed, and the account's preferences.
let owner: TestUser
let viewer: TestUser
let admin: TestUser
const TAG = `rated-${randomUUID().slice(0, 8)}`
/** Uploads of the owner, all tagged TAG: links safe (no field), suggestive, explicit, and an explicit image. */
const up = { safe: '', suggestive: '', explicit: '', image: '' }

const link = async (rating?: string) => {
  const fields: Record<string, string> = { upload_type: 'link', description: `Rated ${rating ?? 'default'}`, external_url: `https://example.com/${randomUUID()}`, tags: TAG }
  if (rating) fields.rating = rating
  const response = await postUpload(owner, fields)
  expect(response.status).toBe(201)
  expect(response.body.upload.rating).toBe(rating ?? 'safe')
  return response.body.upload.id as string
}
const ids = (response: { body: { uploads?: { id: string }[], items?: { id: string }[] } }) => (response.body.uploads ?? response.body.items)!.map(entry => entry.id)
const ours = (list: string[]) => list.filter(id => Object.values(up).includes(id))
const bad = (message: string) => expect.objectContaining({ statusCode: 400, statusMessage: 'Bad Request', message })

beforeAll(async () => {
  [owner, viewer, admin] = await Promise.all([registerUser(), registerUser(), registerUser()])
  await makeAdmin(admin)
  up.safe = await link()
  up.suggestive = await link('suggestive')
  up.explicit = await link('explicit')
  const image = await postUpload(owner, { upload_type: 'image', description: 'Rated image', tags: TAG, rating: 'explicit' }, { data: await randomImage('png'), name: 'rated.png', type: 'image/png' })
  expect(image.status).toBe(201)
  up.image = image.body.upload.id
})

describe('rating at upload', () => {
  it('is on the full object and list entries, taken by /api/v1/upload, and refused when unknown', async () => {
    const full = await api(`/api/upload/${up.explicit}`)
    expect(full.body.rating).toBe('explicit')
    await expectMatchesOpenApi('get', '/api/upload/{id}', full)
    const listed = await api(`/api/uploads/filtered?tags=${TAG}`)
    expect(Object.fromEntries(listed.body.uploads.map((entry: { id: string, rating: string }) => [entry.id, entry.rating]))).toEqual({
      [up.safe]: 'safe', [up.suggestive]: 'suggestive', [up.explicit]: 'explicit', [up.image]: 'explicit' })
    const history = await api(`/api/upload/${up.suggestive}/history`)
    expect(history.body.revisions[0].changes.rating).toEqual({ from: null, to: 'suggestive' })
    expect((await api(`/api/upload/${up.safe}/history`)).body.revisions[0].changes).not.toHaveProperty('rating')

    const { token } = await createApiToken(owner.id)
    const scripted = await api('/api/v1/upload', { method: 'POST', bearer: token, body: uploadForm({ upload_type: 'link', description: 'by script', external_url: `https://example.com/${randomUUID()}`, rating: 'suggestive' }) })
    expect(scripted.status).toBe(201)
    expect(scripted.body.upload.rating).toBe('suggestive')

    const refused = await postUpload(owner, { upload_type: 'link', description: 'x', external_url: 'https://example.com/r', rating: 'nsfw' })
    expect(refused.status).toBe(400)
    expect(errorBody(refused)).toEqual(bad('Invalid rating'))
  })
})

describe('rating= on every list, search and feed', () => {
  it('filters by one rating, a comma-separated list or a repeated parameter', async () => {
    const filtered = (query: string) => api(`/api/uploads/filtered?tags=${TAG}&${query}`).then(ids)
    expect(await filtered('rating=explicit')).toEqual([up.image, up.explicit])
    expect(await filtered('rating=safe,suggestive')).toEqual([up.suggestive, up.safe])
    expect(await filtered('rating=safe&rating=suggestive')).toEqual([up.suggestive, up.safe])
    expect(await filtered('rating=SAFE,safe')).toEqual([up.safe])
    expect(await filtered('rating=safe,suggestive,explicit')).toEqual([up.image, up.explicit, up.suggestive, up.safe])
    expect(await filtered('rating=explicit&sort=top')).toEqual([up.image, up.explicit])
    expect(await filtered('rating=explicit&sort=top&period=week')).toEqual([up.image, up.explicit])

    expect(ours(ids(await api('/api/uploads?rating=explicit&limit=100')))).toEqual([up.image, up.explicit])
    expect(ours(ids(await api('/api/uploads?rating=suggestive&limit=100&page=1')))).toEqual([up.suggestive])
    expect(ours(ids(await api('/api/items-recent?rating=explicit')))).toEqual([up.image, up.explicit])
    const top = await api('/api/items-top-voted?rating=suggestive')
    expect(top.status).toBe(200)
    expect(top.body.items.every((item: { rating: string }) => item.rating === 'suggestive')).toBe(true)
    await expectMatchesOpenApi('get', '/api/items-top-voted', top)
    expect(ids(await api(`/api/user/${owner.username}/uploads?rating=explicit&tags=${TAG}`))).toEqual([up.image, up.explicit])
    expect(ids(await api(`/api/user/${owner.username}/uploads?rating=safe&limit=50`))).toEqual([up.safe])
    expect(ids(await api('/api/profile/uploads?rating=explicit', { token: owner.token }))).toEqual([up.image, up.explicit])
    expect(ids(await api(`/api/search?q=${TAG}&rating=suggestive`))).toEqual([up.suggestive])
    expect(ids(await api(`/api/search?q=${encodeURIComponent(`${TAG} rating:explicit`)}`))).toEqual([up.image, up.explicit])
    expect(ids(await api(`/api/search?q=${encodeURIComponent(`${TAG} -rating:explicit`)}`))).toEqual([up.suggestive, up.safe])

    for (const id of [up.safe, up.explicit]) expect((await api(`/api/upload/${id}/favourite`, { method: 'PUT', token: viewer.token })).status).toBe(200)
    expect(ids(await api('/api/profile/favourites?rating=explicit', { token: viewer.token }))).toEqual([up.explicit])
    expect(ids(await api(`/api/user/${viewer.username}/favourites?rating=safe`))).toEqual([up.safe])

    for (const path of ['/api/uploads', '/api/uploads/filtered', '/api/items-recent', '/api/items-top-voted', `/api/user/${owner.username}/uploads`,
      `/api/user/${viewer.username}/favourites`, '/api/search', '/api/profile/uploads', '/api/profile/favourites']) {
      for (const query of ['rating=nsfw', 'rating=', 'rating=safe,,explicit', 'rating=safe&rating=x']) {
        const response = await api(`${path}?${query}`, { token: owner.token })
        expect(response.status, `${path}?${query}`).toBe(400)
        expect(errorBody(response), `${path}?${query}`).toEqual(bad('Invalid rating'))
      }
    }
  })

  it('feeds carry the rating as a category and never embed an explicit thumbnail', async () => {
    const atom = await api(`/feeds/tag/${TAG}.atom`)
    expect(atom.status).toBe(200)
    const entryOf = (id: string) => (atom.body as string).split('<entry>').find(entry => entry.includes(id))!
    expect(entryOf(up.image)).toContain(`<category term="explicit" scheme="${new URL((atom.body as string).match(/<id>(.*?)<\/id>/)![1]!).origin}/ratings" label="Rating: explicit"/>`)
    expect(entryOf(up.image)).not.toContain('media:thumbnail')
    expect(entryOf(up.image)).not.toContain('/api/image/')
    expect(entryOf(up.safe)).toContain('<category term="safe" ')
    const json = await api(`/feeds/tag/${TAG}.json?rating=explicit`)
    expect(json.body.items.map((item: { id: string }) => item.id)).toEqual([up.image, up.explicit])
    expect(json.body.items[0].tags).toEqual([TAG, 'rating:explicit'])
    expect(json.body.items[0]).not.toHaveProperty('image')
    // A feed narrowed by rating is its own feed: its address says so, in both formats.
    expect(json.body.feed_url).toMatch(new RegExp(`/feeds/tag/${TAG}\\.json\\?rating=explicit$`))
    const narrowedAtom = (await api(`/feeds/search.atom?q=${TAG}&rating=safe`)).body as string
    expect(narrowedAtom).toMatch(new RegExp(`<id>[^<]*/feeds/search\\.atom\\?q=${TAG}&amp;rating=safe</id>`))
    expect(narrowedAtom).toMatch(new RegExp(`<link rel="self" type="application/atom\\+xml" href="[^"]*/feeds/search\\.atom\\?q=${TAG}&amp;rating=safe"/>`))
    expect((await api(`/feeds/search.json?q=${TAG}&rating=safe`)).body.items.map((item: { id: string }) => item.id)).toEqual([up.safe])
    expect((await api(`/feeds/user/${owner.username}.json?rating=suggestive`)).body.items.map((item: { id: string }) => item.id)).toHaveLength(2)
    const refused = await api('/feeds/recent.atom?rating=lewd')
    expect(refused.status).toBe(400)
    expect(errorBody(refused)).toEqual(bad('Invalid rating'))
  })
})

describe('an explicit upload\'s page', () => {
  it('leaves its picture out of the link preview, as the feeds do', async () => {
    const html = (await api(`/upload/${up.image}`)).body as string
    expect(html).toContain('property="og:title"')
    expect(html).not.toContain('property="og:image')
    expect(html).toMatch(/<meta name="twitter:card" content="summary">/)
  })
})

describe('rating by edit', () => {
  it('is one revision, shown at once in a filtered list, restored by revert, and an admin\'s change is logged', async () => {
    const id = await link()
    const suggestive = () => api(`/api/uploads/filtered?tags=${TAG}&rating=suggestive`).then(ids)
    expect(await suggestive()).toEqual([up.suggestive]) // a cached answer the edit must not leave behind
    const edited = await api(`/api/upload/${id}`, { method: 'PATCH', token: owner.token, body: { rating: 'suggestive' } })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ revision: 2, upload: { rating: 'suggestive', revision: 2 } })
    expect(await suggestive()).toEqual([id, up.suggestive])
    const byAdmin = await api(`/api/upload/${id}`, { method: 'PATCH', token: admin.token, body: { rating: 'explicit', reason: 'nudity' } })
    expect(byAdmin.body.upload.rating).toBe('explicit')
    expect(await suggestive()).toEqual([up.suggestive])
    const history = await api(`/api/upload/${id}/history`)
    expect(history.body.revisions.map((revision: { changes: { rating?: unknown } }) => revision.changes.rating)).toEqual([
      { from: 'suggestive', to: 'explicit' }, { from: 'safe', to: 'suggestive' }, undefined])
    const logged = await serverDatabase().db.all<{ action: string, note: string | null }>(sql`SELECT action, note FROM moderation_log WHERE target_id = ${id}`)
    expect(logged).toEqual([{ action: 'upload_edited', note: 'nudity' }])

    const reverted = await api(`/api/admin/uploads/${id}/revert`, { method: 'POST', token: admin.token, body: { revision: 2 } })
    expect(reverted.body).toMatchObject({ revision: 4, upload: { rating: 'suggestive' } })
    expect((await api(`/api/admin/uploads/${id}/revert`, { method: 'POST', token: admin.token, body: { revision: 1 } })).body.upload.rating).toBe('safe')
    expect(await suggestive()).toEqual([up.suggestive])
    // The same rating again changes nothing.
    expect((await api(`/api/upload/${id}`, { method: 'PATCH', token: owner.token, body: { rating: 'safe' } })).body.revision).toBe(5)
  })
})

describe('GET/PUT /api/profile/preferences', () => {
  it('defaults to blur explicit and show suggestive; hide leaves a rating out of that caller\'s lists, privately', async () => {
    const user = await registerUser()
    const got = await api('/api/profile/preferences', { token: user.token })
    expect(got.body).toEqual({ publicFavourites: true, explicit: 'blur', suggestive: 'show' })
    await expectMatchesOpenApi('get', '/api/profile/preferences', got)
    expect((await api('/api/profile/preferences')).status).toBe(401)

    const filtered = (token?: string) => api(`/api/uploads/filtered?tags=${TAG}`, { token })
    expect(ours(ids(await filtered(user.token)))).toEqual([up.image, up.explicit, up.suggestive, up.safe]) // blur hides nothing
    const put = await api('/api/profile/preferences', { method: 'PUT', token: user.token, body: { explicit: 'hide' } })
    expect(put.body).toEqual({ publicFavourites: true, explicit: 'hide', suggestive: 'show' })
    await expectMatchesOpenApi('put', '/api/profile/preferences', put)
    const hidden = await filtered(user.token)
    expect(ours(ids(hidden))).toEqual([up.suggestive, up.safe])
    expect(hidden.headers.get('cache-control')).toBe('private, no-store')
    expect(ours(ids(await api(`/api/uploads/filtered?tags=${TAG}&rating=explicit`, { token: user.token })))).toEqual([])
    expect(ours(ids(await api('/api/items-recent', { token: user.token })))).not.toContain(up.explicit)
    expect(ours(ids(await api(`/api/search?q=${TAG}`, { token: user.token })))).toEqual([up.suggestive, up.safe])
    expect(ours(ids(await api(`/api/user/${owner.username}/uploads?tags=${TAG}`, { token: user.token })))).toEqual([up.suggestive, up.safe])
    // Nobody else's answer changes: a visitor's stays public and whole.
    const visitor = await filtered()
    expect(ours(ids(visitor))).toEqual([up.image, up.explicit, up.suggestive, up.safe])
    expect(visitor.headers.get('cache-control')).toBe('public, max-age=120')

    await api('/api/profile/preferences', { method: 'PUT', token: user.token, body: { explicit: 'show', suggestive: 'hide' } })
    expect(ours(ids(await filtered(user.token)))).toEqual([up.image, up.explicit, up.safe])
    for (const [body, message] of [[{ explicit: 'maybe' }, 'Invalid explicit'], [{ suggestive: 1 }, 'Invalid suggestive']] as const) {
      const refused = await api('/api/profile/preferences', { method: 'PUT', token: user.token, body })
      expect(refused.status).toBe(400)
      expect(errorBody(refused)).toEqual(bad(message))
    }
    expect((await api('/api/profile/preferences', { token: user.token })).body).toEqual({ publicFavourites: true, explicit: 'show', suggestive: 'hide' })
  })
})
