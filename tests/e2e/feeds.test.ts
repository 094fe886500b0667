import { randomUUID } from 'node:crypto'
import { parseAtomFeed, parseJsonFeed } from 'feedsmith'
import { beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { seedUpload } from '../support/seed'
import { sharedServer } from '../support/shared-server'

// Feeds are checked with feedsmith, a maintained parser of both Atom and JSON Feed,
// and the RFC 4287 required elements are asserted one by one on top of it.
let author: TestUser
const site = sharedServer().baseURL
const tag = `feeds-${randomUUID().slice(0, 8)}`
const ids: string[] = []
const at = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()

beforeAll(async () => {
  author = await registerUser()
  for (let i = 0; i < 3; i++) {
    ids.push(await seedUpload(author, { createdAt: at(30 - i), tags: [tag, 'Feeds Shared'], description: `Feed entry ${i} <b>&</b>`, upvotes: i, uploadType: i === 1 ? 'link' : 'image' }))
  }
  await seedUpload(author, { createdAt: at(1), tags: [tag], isPrivate: true, description: 'Private, never in a feed' })
})

const ATOM_TYPE = 'application/atom+xml; charset=utf-8'
const JSON_TYPE = 'application/feed+json; charset=utf-8'

/** RFC 4287: feed id, title, updated; every entry id, title, updated and an author (here on each entry). */
function expectValidAtom(text: string) {
  const feed = parseAtomFeed(text)
  expect(feed.id).toMatch(/^https?:\/\//)
  expect(feed.title?.value).toBeTruthy()
  expect(Number.isNaN(Date.parse(String(feed.updated)))).toBe(false)
  for (const entry of feed.entries ?? []) {
    expect(entry.id).toMatch(/^urn:uuid:[0-9a-f-]{36}$/)
    expect(entry.title?.value).toBeTruthy()
    expect(Number.isNaN(Date.parse(String(entry.updated)))).toBe(false)
    expect(entry.authors?.[0]?.name).toBeTruthy()
  }
  return feed
}

describe('GET /feeds/tag/{slug}.atom', () => {
  it('is valid Atom with the tag\'s public uploads, newest first, each with link, author, dates, categories and image thumbnail', async () => {
    const response = await api(`/feeds/tag/${tag}.atom`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(ATOM_TYPE)
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    const feed = expectValidAtom(response.body)
    expect(feed.title?.value).toBe(`Does It Fuck?: uploads tagged ${tag}`)
    expect(feed.entries!.map(entry => entry.id)).toEqual([...ids].reverse().map(id => `urn:uuid:${id}`))
    const [newest, link] = [feed.entries![0]!, feed.entries![1]!]
    expect(newest.title?.value).toBe('Feed entry 2 <b>&</b>')
    expect(newest.links).toContainEqual({ rel: 'alternate', type: 'text/html', href: `${site}/upload/${ids[2]}` })
    expect(newest.authors).toEqual([{ name: author.username, uri: `${site}/user/${author.username}` }])
    expect(newest.published).toBe(newest.updated)
    expect(newest.published).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(newest.categories).toEqual([{ term: tag, label: tag }, { term: 'feeds-shared', label: 'Feeds Shared' }, { term: 'safe', label: 'Rating: safe', scheme: `${site}/ratings` }])
    expect(newest.media?.thumbnails).toEqual([{ url: `${site}/api/image/${ids[2]}?size=thumb` }])
    expect(link.media).toBeUndefined()
    expect(feed.updated).toBe(newest.updated)
  })

  it('answers 304 to a matching If-None-Match, and a new upload changes the ETag', async () => {
    const first = await api(`/feeds/tag/${tag}.atom`)
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"/)
    const again = await api(`/feeds/tag/${tag}.atom`, { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(again.body).toBe('')
    const otherTag = `feeds-${randomUUID().slice(0, 8)}`
    const before = await api(`/feeds/tag/${otherTag}.json`)
    expect(before.status).toBe(404)
    await seedUpload(author, { tags: [otherTag], createdAt: at(0.5) })
    const after = await api(`/feeds/tag/${otherTag}.json`)
    expect(after.status).toBe(200)
    expect(after.body).toMatchObject({ items: [expect.any(Object)] })
  })
})

describe('GET /feeds/…json (JSON Feed 1.1)', () => {
  it('carries the same entries as the Atom feed', async () => {
    const response = await api(`/feeds/tag/${tag}.json`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(JSON_TYPE)
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    expect(response.headers.get('etag')).toMatch(/^"/)
    const text = JSON.stringify(response.body)
    const feed = parseJsonFeed(text)
    const items = feed.items!
    expect(response.body.version).toBe('https://jsonfeed.org/version/1.1')
    expect(feed.title).toBe(`Does It Fuck?: uploads tagged ${tag}`)
    expect(feed.feed_url).toBe(`${site}/feeds/tag/${tag}.json`)
    expect(items.map(item => item.id)).toEqual([...ids].reverse())
    expect(items[0]).toMatchObject({
      url: `${site}/upload/${ids[2]}`,
      title: 'Feed entry 2 <b>&</b>',
      image: `${site}/api/image/${ids[2]}?size=thumb`,
      authors: [{ name: author.username, url: `${site}/user/${author.username}` }],
      tags: [tag, 'Feeds Shared', 'rating:safe'],
      content_text: 'Feed entry 2 <b>&</b>\n\n2 fucks, 0 against',
    })
    // One vote is one fuck, in the cards' words.
    expect(items[1]!.content_text).toBe('Feed entry 1 <b>&</b>\n\n1 fuck, 0 against')
    expect(items[0]!.date_published).toBe(items[0]!.date_modified)
    expect(items[1]!.image).toBeUndefined()
    expect(items[1]!.external_url).toMatch(/^https:\/\/example\.com\//)
  })
})

describe('GET /feeds/user/{username}', () => {
  it('lists the user\'s public uploads in both formats, the name in any case', async () => {
    const atom = await api(`/feeds/user/${author.username.toUpperCase()}.atom`)
    expect(atom.status).toBe(200)
    const feed = expectValidAtom(atom.body)
    expect(feed.title?.value).toBe(`Does It Fuck?: uploads by ${author.username}`)
    expect(feed.entries!.length).toBe(4)
    expect(feed.entries!.every(entry => !entry.title?.value?.includes('Private'))).toBe(true)
    const json = await api(`/feeds/user/${author.username}.json`)
    expect(parseJsonFeed(JSON.stringify(json.body)).items).toHaveLength(4)
  })
})

describe('GET /feeds/recent and /feeds/top', () => {
  it('are valid, hold at most 50 public entries, and recent is newest first', async () => {
    const fresh = await seedUpload(author, { description: 'Newest of all' })
    const recent = await api('/feeds/recent.atom')
    expect(recent.status).toBe(200)
    const feed = expectValidAtom(recent.body)
    expect(feed.entries!.length).toBeLessThanOrEqual(50)
    expect(feed.entries![0]!.id).toBe(`urn:uuid:${fresh}`)
    const dates = feed.entries!.map(entry => String(entry.published))
    expect(dates).toEqual([...dates].sort().reverse())
    const top = await api('/feeds/top.json')
    expect(top.status).toBe(200)
    const items = parseJsonFeed(JSON.stringify(top.body)).items!
    expect(items.length).toBeGreaterThan(0)
    expect(items.length).toBeLessThanOrEqual(50)
    expectValidAtom((await api('/feeds/top.atom')).body)
    expect((await api('/feeds/recent.json')).body.items[0].id).toBe(fresh)
  })
})

describe('unknown feeds', () => {
  it('answer 404 in the API\'s error shape', async () => {
    const cases: [string, string][] = [
      [`/feeds/tag/no-such-tag-${randomUUID().slice(0, 8)}.atom`, 'Tag not found'],
      [`/feeds/tag/no-such-tag-${randomUUID().slice(0, 8)}.json`, 'Tag not found'],
      [`/feeds/user/nobody_${randomUUID().slice(0, 8)}.atom`, 'User not found'],
      [`/feeds/user/nobody_${randomUUID().slice(0, 8)}.json`, 'User not found'],
      ['/feeds/user/not%20a%20name.json', 'User not found'],
      ['/feeds/newest.atom', 'Feed not found'],
      ['/feeds/recent.rss', 'Feed not found'],
      [`/feeds/tag/${tag}.xml`, 'Tag not found'],
      // Bytes no tag or name can hold: no lookup reaches the database (PostgreSQL refuses a NUL).
      ['/feeds/tag/%00.atom', 'Tag not found'],
      ['/feeds/tag/%00.json', 'Tag not found'],
      ['/feeds/tag/a%00b.atom', 'Tag not found'],
      ['/feeds/tag/%FF%FE.atom', 'Tag not found'],
      ['/feeds/tag/%ED%A0%80.json', 'Tag not found'],
      ['/feeds/user/%00.atom', 'User not found'],
      ['/feeds/user/a%00b.json', 'User not found'],
      ['/feeds/user/%FF%FE.atom', 'User not found'],
      ['/feeds/user/%ED%A0%80.json', 'User not found'],
      [`/feeds/upload/${randomUUID()}/comments.atom`, 'Upload not found'],
      ['/feeds/upload/%00/comments.atom', 'Upload not found'],
      ['/feeds/upload/a%00b/comments.json', 'Upload not found'],
      ['/feeds/upload/%FF%FE/comments.atom', 'Upload not found'],
      ['/feeds/user/%00/favourites.atom', 'Favourites not found'],
      ['/feeds/user/a%00b/favourites.json', 'Favourites not found'],
    ]
    for (const [path, message] of cases) {
      const response = await api(path)
      expect(response.status, path).toBe(404)
      expect(response.headers.get('content-type')).toContain('application/json')
      expect(response.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message })
    }
  })
})

describe('a tag used only on private uploads', () => {
  it('has no feed: 404 as an unknown tag, so neither its name nor its age shows', async () => {
    const hidden = `Private-${randomUUID().slice(0, 8)}`
    const slug = hidden.toLowerCase()
    const privateId = await seedUpload(author, { tags: [hidden], isPrivate: true, description: 'Only for me' })
    for (const format of ['atom', 'json']) {
      const response = await api(`/feeds/tag/${slug}.${format}`)
      expect(response.status, format).toBe(404)
      expect(response.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Tag not found' })
    }
    // Once a public upload carries it, the feed lists that one only.
    const publicId = await seedUpload(author, { tags: [hidden], description: 'For everyone' })
    const feed = await api(`/feeds/tag/${slug}.json`)
    expect(feed.status).toBe(200)
    expect(feed.body.items.map((item: { id: string }) => item.id)).toEqual([publicId])
    expect(feed.body.items.map((item: { id: string }) => item.id)).not.toContain(privateId)
  })
})
