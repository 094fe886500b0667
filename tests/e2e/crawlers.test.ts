import { describe, expect, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { seedUpload } from '../support/seed'
import { sharedServer } from '../support/shared-server'

const get = (path: string) => fetch(`${sharedServer().baseURL}${path}`)

describe('robots.txt and the sitemap', () => {
  it('robots.txt opens the pages, closes the API and account pages, and names the sitemap', async () => {
    const response = await get('/robots.txt')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const text = await response.text()
    // The pictures stay open (link previews, image search); the Allow first, for first-match parsers.
    expect(text.split('\n')).toEqual(['User-agent: *', 'Allow: /api/image/', 'Disallow: /api/', 'Disallow: /settings', 'Disallow: /admin', 'Disallow: /auth/', '', `Sitemap: ${sharedServer().baseURL}/sitemap.xml`, ''])
  })

  it('answer HEAD as GET, and a path no route has in the API\'s error shape', async () => {
    for (const path of ['/robots.txt', '/sitemap.xml', '/sitemaps/uploads-1.xml', '/feeds/recent.atom', '/feeds/recent.json']) {
      const [head, got] = await Promise.all([fetch(`${sharedServer().baseURL}${path}`, { method: 'HEAD' }), get(path)])
      expect([path, head.status, head.headers.get('content-type')]).toEqual([path, 200, got.headers.get('content-type')])
      expect(await head.text()).toBe('')
    }
    for (const [path, message] of [['/sitemaps/uploads-9999.xml', 'Sitemap not found'], ['/sitemaps/other.xml', 'Sitemap not found'], ['/feeds/foo/bar.atom', 'Not found'], ['/feeds/', 'Not found']]) {
      const response = await get(path!)
      expect([path, response.status, response.headers.get('content-type'), await response.json()])
        .toEqual([path, 404, 'application/json', { statusCode: 404, statusMessage: 'Not Found', message }])
    }
  })

  it('lists public uploads, never private ones, in paged sitemaps behind an index', async () => {
    const owner = await registerUser()
    const shown = await seedUpload(owner, { createdAt: '2020-01-02T03:04:05.000Z' })
    const hidden = await seedUpload(owner, { isPrivate: true })
    const index = await get('/sitemap.xml')
    expect(index.status).toBe(200)
    expect(index.headers.get('content-type')).toBe('application/xml; charset=utf-8')
    const indexXml = await index.text()
    expect(indexXml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    const pages = [...indexXml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(m => m[1]!)
    expect(pages[0]).toBe(`${sharedServer().baseURL}/sitemaps/uploads-1.xml`)
    const all = (await Promise.all(pages.map(async page => (await get(new URL(page).pathname)).text()))).join('\n')
    expect(all).toContain(`<url><loc>${sharedServer().baseURL}/upload/${shown}</loc><lastmod>2020-01-02</lastmod></url>`)
    // An edit is the page's last change.
    const edited = await seedUpload(owner, { createdAt: '2020-01-03T03:04:05.000Z' })
    expect((await api(`/api/upload/${edited}`, { method: 'PATCH', token: owner.token, body: { description: 'Edited for the sitemap' } })).status).toBe(200)
    const afterEdit = (await Promise.all(pages.map(async page => (await get(new URL(page).pathname)).text()))).join('\n')
    expect(afterEdit).toContain(`<url><loc>${sharedServer().baseURL}/upload/${edited}</loc><lastmod>${new Date().toISOString().slice(0, 10)}</lastmod></url>`)
    expect(all).not.toContain(hidden)
    expect((await get(`/sitemaps/uploads-${pages.length + 1}.xml`)).status).toBe(404)
    expect((await get('/sitemaps/other.xml')).status).toBe(404)
  })
})

describe('an upload page\'s head', () => {
  it('says the description as written in its meta tags, escaped as HTML reads attributes', async () => {
    const owner = await registerUser()
    const description = 'Fish &amp; chips &lt;3 "ok" & more'
    const id = await seedUpload(owner, { uploadType: 'link', externalUrl: 'https://example.com/fish', filename: null, description })
    const html = await (await get(`/upload/${id}`)).text()
    const content = (property: string) => {
      const raw = new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)">`).exec(html)?.[1]
      // As an HTML parser reads an attribute value.
      return raw?.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
    }
    expect(content('og:title')).toBe(`Does it fuck? ${description}`)
    expect(content('description')).toBe(`Does it fuck? Vote on “${description}” by ${owner.username}.`)
    expect(html).toContain(`<link rel="canonical" href="${sharedServer().baseURL}/upload/${id}">`)
    // Its comments' feeds, both formats, and the home page's every feed.
    for (const feed of [`/feeds/upload/${id}/comments.atom`, `/feeds/upload/${id}/comments.json`]) expect(html).toContain(`href="${feed}"`)
    const home = await (await get('/')).text()
    for (const feed of ['recent.atom', 'recent.json', 'top.atom', 'top.json']) expect(home).toContain(`href="/feeds/${feed}"`)
  })
})

describe('canonical addresses', () => {
  it('name a user by their own spelling and a tag by its slug, whatever case the address used', async () => {
    const owner = await registerUser()
    const tag = `Canon-${owner.id.slice(0, 8)}`
    await seedUpload(owner, { tags: [tag] })
    const canonical = async (path: string) => /<link rel="canonical" href="([^"]*)">/.exec(await (await get(path)).text())?.[1]
    const base = sharedServer().baseURL
    expect(await canonical(`/user/${owner.username.toUpperCase()}`)).toBe(`${base}/user/${owner.username}`)
    expect(await canonical(`/user/${owner.username.toUpperCase()}?tab=favourites`)).toBe(`${base}/user/${owner.username}?tab=favourites`)
    expect(await canonical(`/tags/${tag.toUpperCase()}?sort=top`)).toBe(`${base}/tags/${tag.toLowerCase()}?sort=top`)
  })
})

describe('a tag page', () => {
  it('asks search engines to leave it out when no public upload carries the tag', async () => {
    const owner = await registerUser()
    const tag = `crawl-${owner.id.slice(0, 8)}`
    await seedUpload(owner, { tags: [tag] })
    await seedUpload(owner, { tags: [`${tag}-private`], isPrivate: true })
    const robots = async (path: string) => {
      const response = await get(path)
      expect(response.status, path).toBe(200)
      return /<meta name="robots" content="noindex">/.test(await response.text())
    }
    expect(await robots(`/tags/${tag}`)).toBe(false)
    expect(await robots(`/tags/${tag}-private`)).toBe(true)
    expect(await robots(`/tags/${tag}-none`)).toBe(true)
  })

  it('links its feeds only while they exist, and they answer', async () => {
    const owner = await registerUser()
    const tag = `feedlink-${owner.id.slice(0, 8)}`
    await seedUpload(owner, { tags: [tag] })
    await seedUpload(owner, { tags: [`${tag}-private`], isPrivate: true })
    const feeds = async (path: string) => [...(await (await get(path)).text()).matchAll(/<link rel="alternate" type="[^"]+" title="[^"]*" href="([^"]+)">/g)].map(match => match[1]!)
    const linked = await feeds(`/tags/${tag}`)
    expect(linked).toEqual([`/feeds/tag/${tag}.atom`, `/feeds/tag/${tag}.json`])
    for (const path of linked) expect([path, (await get(path)).status]).toEqual([path, 200])
    expect(await feeds(`/tags/${tag}-private`)).toEqual([])
    expect(await feeds(`/tags/${tag}-none`)).toEqual([])
  })
})
