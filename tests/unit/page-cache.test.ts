import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { Database } from '../../server/database/port'
import { isCacheablePagePath, keepPage, keptPage, PAGE_CACHE_MAX_AGE_MS, pageBeingRendered, renderingPage } from '../../server/services/page-cache'
import { inlineScriptHashes } from '../../server/utils/content-security-policy'

/** The cache keys its entries by database object; the data version is what a test passes in. */
const database = () => ({}) as Database
const headers = { 'content-type': 'text/html;charset=utf-8' }

describe('page cache', () => {
  it('answers a page kept at the same version; when it is too old, one caller renders it again while the rest get it', () => {
    const db = database()
    expect(keptPage(db, 'v1', '/', 1_000)).toBeUndefined()
    keepPage(db, 'v1', '/', '<html>home</html>', headers, 1_000)
    expect(keptPage(db, 'v1', '/', 1_000 + PAGE_CACHE_MAX_AGE_MS - 1)).toMatchObject({ answer: { json: '<html>home</html>', etag: '', compressed: {} }, headers })
    const old = 1_000 + PAGE_CACHE_MAX_AGE_MS
    expect(keptPage(db, 'v1', '/', old)).toBeUndefined()
    expect(keptPage(db, 'v1', '/', old + 5)?.answer.json).toBe('<html>home</html>')
    // That render never came back: after another max age, the next caller tries again.
    expect(keptPage(db, 'v1', '/', old + PAGE_CACHE_MAX_AGE_MS)).toBeUndefined()
    keepPage(db, 'v1', '/', '<html>home again</html>', headers, old + PAGE_CACHE_MAX_AGE_MS + 3)
    expect(keptPage(db, 'v1', '/', old + PAGE_CACHE_MAX_AGE_MS + 4)?.answer.json).toBe('<html>home again</html>')
  })

  it('knows the one render of a page under way at a version until it is done', async () => {
    const db = database()
    expect(pageBeingRendered(db, 'v1', '/')).toBeUndefined()
    const done = renderingPage(db, 'v1', '/')
    const rendering = pageBeingRendered(db, 'v1', '/')
    expect(rendering).toBeInstanceOf(Promise)
    expect(pageBeingRendered(db, 'v1', '/docs')).toBeUndefined()
    done()
    await expect(rendering).resolves.toBeUndefined()
    expect(pageBeingRendered(db, 'v1', '/')).toBeUndefined()
    // A new version forgets the renders of the old one.
    renderingPage(db, 'v1', '/')
    expect(pageBeingRendered(db, 'v2', '/')).toBeUndefined()
  })

  it('drops every page when the version moves, and never keeps a render of an older version', () => {
    const db = database()
    keptPage(db, 'v1', '/')
    keepPage(db, 'v1', '/', 'home at v1', headers)
    keepPage(db, 'v1', '/docs', 'docs at v1', headers)
    expect(keptPage(db, 'v2', '/')).toBeUndefined()
    expect(keptPage(db, 'v1', '/docs')).toBeUndefined()
    // A render that read v1 finishes after another request has seen v2: served once, not kept.
    keptPage(db, 'v2', '/')
    keepPage(db, 'v1', '/', 'home at v1', headers)
    expect(keptPage(db, 'v2', '/')).toBeUndefined()
    keepPage(db, 'v2', '/', 'home at v2', headers)
    expect(keptPage(db, 'v2', '/')?.answer.json).toBe('home at v2')
  })

  it('keeps nothing for a database it has not read the version of', () => {
    const db = database()
    keepPage(db, 'v1', '/', 'home', headers)
    expect(keptPage(db, 'v1', '/')).toBeUndefined()
  })

  it.each([
    ['/', true], ['/docs', true], ['/tags/cats', true], ['/user/alice', true],
    ['/upload/7a0a5a0e-0000-4000-8000-000000000000', true],
    ['/upload/new', false], ['/vote', false], ['/login', false], ['/settings', false], ['/my-uploads', false],
    ['/admin', false], ['/register', false], ['/tags/cats/more', false], ['/docs/', false], ['/api/uploads', false],
  ])('%s may be cached: %s', (path, cacheable) => {
    expect(isCacheablePagePath(path)).toBe(cacheable)
  })
})

describe('inline script hashes', () => {
  it('hashes the scripts a browser runs inline, as CSP hashes them, once each', () => {
    const config = 'window.__NUXT__={}'
    const hash = `'sha256-${createHash('sha256').update(config).digest('base64')}'`
    expect(inlineScriptHashes([
      `<script>${config}</script>`,
      `<script type="module" src="/_nuxt/a.js"></script><script type="application/json" id="__NUXT_DATA__">[1]</script>`,
      `<script type="application/ld+json">{"@type":"Thing"}</script><script>${config}</script>`,
    ])).toEqual([hash])
    expect(inlineScriptHashes(['<script type="module">import "/x.js"</script>'])).toHaveLength(1)
    expect(inlineScriptHashes(['<script type=text/javascript>1</script>'])).toHaveLength(1)
    expect(inlineScriptHashes(['<p>no scripts</p>'])).toEqual([])
  })
})
