import { readdirSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { registerUser, type TestUser } from '../support/api'
import { pagePayload, revivePayload } from '../support/payload'
import { seedUpload } from '../support/seed'
import { uploadImage } from '../support/uploads'
import { ROOT } from '../support/server'
import { sharedServer } from '../support/shared-server'

/**
 * docs/performance.md, Compression: pages, JSON and build assets in brotli or
 * gzip as Accept-Encoding allows, with Vary and per-encoding ETags; images
 * untouched.
 * Raw node:http, because fetch would decode the body and hide the encoding.
 */
interface RawResponse { status: number, headers: Record<string, string | string[] | undefined>, body: Buffer }

function get(path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const url = new URL(path, sharedServer().baseURL)
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

function decode(response: RawResponse): Buffer {
  const encoding = response.headers['content-encoding']
  if (encoding === 'br') return brotliDecompressSync(response.body)
  if (encoding === 'gzip') return gunzipSync(response.body)
  if (encoding === undefined) return response.body
  throw new Error(`unexpected Content-Encoding ${encoding}`)
}

function vary(response: RawResponse): string[] {
  return String(response.headers.vary ?? '').split(',').map(name => name.trim().toLowerCase())
}

/**
 * A rendered page, split into what two renders must share byte for byte (the
 * markup) and its Nuxt payload. The payload is compared as data: its entries
 * are listed in the order the page's parallel API calls happened to finish,
 * and so are the API answers' data blocks it names by number; and it holds
 * the random id of nuxt-auth-utils' session.
 */
function renderedPage(html: Buffer) {
  const text = html.toString('utf8')
  const payload = pagePayload(text)
  const data = revivePayload(payload.flat, payload.answers) as { state?: Record<string, unknown> }
  if (data.state) data.state['$snuxt-session'] = 'session'
  return { markup: payload.markup, data }
}

const BROWSER = 'gzip, deflate, br, zstd'
let owner: TestUser

beforeAll(async () => {
  owner = await registerUser()
  // Enough content that the home page and the list are well over the 1 KB threshold.
  for (let i = 0; i < 12; i++) await seedUpload(owner, { description: `compression fixture ${i} `.repeat(4) })
})

describe('compressed pages', () => {
  it('serves the home page in brotli to a browser and in gzip when only gzip is accepted, decoding to the identity page', async () => {
    const identity = await get('/', { 'accept-encoding': 'identity' })
    expect(identity.status).toBe(200)
    expect(identity.headers['content-encoding']).toBeUndefined()
    expect(vary(identity)).toContain('accept-encoding')
    expect(identity.body.length).toBeGreaterThan(4096)

    const br = await get('/', { 'accept-encoding': BROWSER })
    expect(br.status).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['content-type']).toBe('text/html;charset=utf-8')
    expect(vary(br)).toContain('accept-encoding')
    expect(br.body.length).toBeLessThan(identity.body.length / 3)
    expect(renderedPage(decode(br))).toEqual(renderedPage(identity.body))

    const gzip = await get('/', { 'accept-encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(vary(gzip)).toContain('accept-encoding')
    expect(renderedPage(decode(gzip))).toEqual(renderedPage(identity.body))
  })

  it('serves the 404 page as readable HTML to a client that accepts br', async () => {
    const response = await get('/no/such/page', { 'accept': 'text/html', 'accept-encoding': BROWSER })
    expect(response.status).toBe(404)
    expect(response.headers['content-type']).toBe('text/html;charset=utf-8')
    const html = decode(response).toString('utf8')
    expect(html).toMatch(/^<!DOCTYPE html>/)
    expect(html).toContain('Page not found')
  })

  it('honours q-values: br;q=0 gets gzip, and nothing acceptable gets identity', async () => {
    expect((await get('/', { 'accept-encoding': 'br;q=0, gzip;q=0.5' })).headers['content-encoding']).toBe('gzip')
    expect((await get('/', { 'accept-encoding': 'gzip;q=0.2, br;q=0.8' })).headers['content-encoding']).toBe('br')
    expect((await get('/', { 'accept-encoding': 'deflate' })).headers['content-encoding']).toBeUndefined()
    expect((await get('/', {})).headers['content-encoding']).toBeUndefined()
  })
})

describe('compressed JSON', () => {
  it('serves an /api answer in br and gzip, the same JSON, with a per-encoding ETag that revalidates to 304', async () => {
    const path = '/api/uploads?limit=12'
    const identity = await get(path, { 'accept-encoding': 'identity' })
    expect(identity.status).toBe(200)
    expect(identity.headers['content-encoding']).toBeUndefined()
    expect(vary(identity)).toContain('accept-encoding')
    const etag = String(identity.headers.etag)
    expect(etag).toMatch(/^"[\w-]+"$/)

    const br = await get(path, { 'accept-encoding': BROWSER })
    expect(br.status).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['content-type']).toBe('application/json')
    expect(br.headers['cache-control']).toBe('public, max-age=120')
    expect(vary(br)).toContain('accept-encoding')
    expect(decode(br).equals(identity.body)).toBe(true)
    expect(br.headers.etag).toBe(etag.replace(/"$/, '-br"'))

    const gzip = await get(path, { 'accept-encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(decode(gzip).equals(identity.body)).toBe(true)
    expect(gzip.headers.etag).toBe(etag.replace(/"$/, '-gzip"'))

    const revalidated = await get(path, { 'accept-encoding': BROWSER, 'if-none-match': String(br.headers.etag) })
    expect(revalidated.status).toBe(304)
    expect(revalidated.body.length).toBe(0)
    expect(revalidated.headers.etag).toBe(br.headers.etag)
    expect(vary(revalidated)).toContain('accept-encoding')
    // The identity validator still holds, and so does the gzip one asked with br accepted.
    expect((await get(path, { 'accept-encoding': BROWSER, 'if-none-match': etag })).status).toBe(304)
    expect((await get(path, { 'accept-encoding': BROWSER, 'if-none-match': String(gzip.headers.etag) })).status).toBe(304)
    expect((await get(path, { 'accept-encoding': 'identity', 'if-none-match': String(br.headers.etag) })).status).toBe(304)
    // A validator of other content does not.
    expect((await get(path, { 'accept-encoding': BROWSER, 'if-none-match': '"other-br"' })).status).toBe(200)
  })

  it('serves a cached list in br as the current list, before and after a write', async () => {
    const path = '/api/uploads?limit=13'
    const first = await get(path, { 'accept-encoding': BROWSER })
    const again = await get(path, { 'accept-encoding': BROWSER })
    expect(again.headers.etag).toBe(first.headers.etag)
    expect(decode(again).equals(decode(first))).toBe(true)

    const addedId = await seedUpload(owner, { description: 'compression after a write '.repeat(3) })
    const after = await get(path, { 'accept-encoding': BROWSER })
    expect(after.headers['content-encoding']).toBe('br')
    expect(after.headers.etag).not.toBe(first.headers.etag)
    const uploads = (JSON.parse(decode(after).toString('utf8')) as { uploads: { id: string }[] }).uploads
    expect(uploads[0]!.id).toBe(addedId)
    expect(decode(after).equals((await get(path, { 'accept-encoding': 'identity' })).body)).toBe(true)
  })

  it('leaves small answers and writes uncompressed', async () => {
    const small = await get('/api/profile', { 'accept-encoding': BROWSER, 'cookie': `auth-token=${owner.token}` })
    expect(small.status).toBe(200)
    expect(small.body.length).toBeLessThan(1024)
    expect(small.headers['content-encoding']).toBeUndefined()
  })
})

describe('precompressed build assets', () => {
  it('serves the page\'s JS and CSS from their .br and .gz twins, with their own ETags and 304', async () => {
    const html = (await get('/', {})).body.toString('utf8')
    const script = html.match(/<script[^>]+type="module" src="(\/_nuxt\/[^"]+\.js)"/)?.[1]
    // A page links no stylesheet its head already carries inline (server/plugins/inlined-styles.ts):
    // one of the build's, big enough to have been compressed at build time.
    const built = readdirSync(join(ROOT, '.output/public/_nuxt'))
    const style = `/_nuxt/${built.find(name => name.endsWith('.css') && built.includes(`${name}.br`))}`
    expect(script).toBeTruthy()
    expect(style).toBeTruthy()
    for (const path of [script!, style!]) {
      const identity = await get(path, { 'accept-encoding': 'identity' })
      expect(identity.status, path).toBe(200)
      expect(identity.headers['content-encoding'], path).toBeUndefined()
      expect(vary(identity), path).toContain('accept-encoding')
      for (const [accept, encoding] of [[BROWSER, 'br'], ['gzip', 'gzip']] as const) {
        const compressed = await get(path, { 'accept-encoding': accept })
        expect(compressed.headers['content-encoding'], path).toBe(encoding)
        expect(vary(compressed), path).toContain('accept-encoding')
        expect(decode(compressed).equals(identity.body), path).toBe(true)
        expect(compressed.headers.etag, path).not.toBe(identity.headers.etag)
        const revalidated = await get(path, { 'accept-encoding': accept, 'if-none-match': String(compressed.headers.etag) })
        expect(revalidated.status, path).toBe(304)
      }
    }
  })
})

describe('images', () => {
  it('never recompresses /api/image/**', async () => {
    const { id } = await uploadImage(owner, { format: 'png' })
    for (const path of [`/api/image/${id}`, `/api/image/${id}?size=thumb`]) {
      const image = await get(path, { 'accept-encoding': BROWSER })
      expect(image.status, path).toBe(200)
      expect(image.headers['content-encoding'], path).toBeUndefined()
      expect(String(image.headers['content-type']), path).toMatch(/^image\//)
      expect(String(image.headers.etag), path).not.toMatch(/-(br|gzip)"$/)
    }
  })
})
