import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerUser, type TestUser } from '../support/api'
import { startImageHost, type ImageHost } from '../support/image-host'
import { randomImage } from '../support/images'
import { postUpload } from '../support/uploads'
import { startServer, type RunningServer } from '../support/server'

let host: ImageHost
let image: Buffer

beforeAll(async () => {
  image = await randomImage('png')
  host = await startImageHost({
    '/pics/cat%20photo.png': image,
    '/one-hop': { redirect: '/pics/cat%20photo.png' },
    '/hop3': { redirect: '/hop2' },
    '/hop2': { redirect: '/hop1' },
    '/hop1': { redirect: '/pics/cat%20photo.png' },
    '/hop4': { redirect: '/hop3' },
    '/to-ftp': { redirect: 'ftp://127.0.0.1/x.png' },
    '/endless': { stream: 11 * 1024 * 1024 },
    '/text': { text: 'plain text, not an image' },
  })
})
afterAll(() => host.close())

describe('image_url with NUXT_IMAGE_FETCH_ALLOW_PRIVATE=true (own server)', () => {
  let server: RunningServer
  let user: TestUser
  beforeAll(async () => {
    server = await startServer({ NUXT_IMAGE_FETCH_ALLOW_PRIVATE: 'true' })
    user = await registerUser({}, server.url)
  })
  afterAll(() => server.stop())

  it('downloads, processes and stores the image; original name is the last path segment', async () => {
    const response = await postUpload(user, { upload_type: 'image_url', description: 'fetched', image_url: `${host.url}/pics/cat%20photo.png` }, undefined, server.url)
    expect(response.status).toBe(201)
    expect(response.body.upload).toMatchObject({ uploadType: 'image', originalName: 'cat photo.png', externalUrl: null, filename: `${response.body.upload.id}.png` })
    const served = await fetch(`${server.url}/api/image/${response.body.upload.id}`)
    expect(served.headers.get('content-type')).toBe('image/png')
    const metadata = await sharp(Buffer.from(await served.arrayBuffer())).metadata()
    expect([metadata.width, metadata.height]).toEqual([320, 240])
    // The same picture again is a duplicate, wherever it comes from.
    const again = await postUpload(user, { upload_type: 'image_url', description: 'again', image_url: `${host.url}/one-hop` }, undefined, server.url)
    expect(again.status).toBe(409)
  })

  it('follows up to 3 redirects and refuses a 4th', async () => {
    const other = await registerUser({}, server.url)
    const three = await postUpload(other, { upload_type: 'image_url', description: 'three hops', image_url: `${host.url}/hop3` }, undefined, server.url)
    expect(three.status).toBe(409) // fetched fine; the picture is already public
    const four = await postUpload(other, { upload_type: 'image_url', description: 'four hops', image_url: `${host.url}/hop4` }, undefined, server.url)
    expect(four.status).toBe(400)
    expect(four.body.message).toBe('Could not fetch image')
  })

  it.each([
    ['/endless', 'Could not fetch image'],
    ['/to-ftp', 'Could not fetch image'],
    ['/missing', 'Could not fetch image'],
    ['/text', 'Unsupported image type'],
  ])('answers 400 for %s', async (path, message) => {
    const response = await postUpload(user, { upload_type: 'image_url', description: 'bad', image_url: `${host.url}${path}` }, undefined, server.url)
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ statusCode: 400, message })
  })

  it('leaves no temporary or media file behind after failures', async () => {
    const media = readdirSync(join(server.dataDir, 'media')).filter(name => !['small', 'thumbs', 'medium', 'display', 'pending'].includes(name))
    expect(media).toHaveLength(1) // only the one successful upload of this server
    expect(readdirSync(join(server.dataDir, 'media', 'pending'))).toEqual([])
    expect(readdirSync(join(server.dataDir, 'media', 'thumbs'))).toHaveLength(1)
    expect(readdirSync(join(server.dataDir, 'tmp'))).toEqual([])
  })
})

describe('image_url on the default server (private addresses refused)', () => {
  let user: TestUser
  beforeAll(async () => {
    user = await registerUser()
  })

  it.each([
    ['127.0.0.1', () => `${host.url}/pics/cat%20photo.png`],
    ['localhost (resolved by DNS)', () => `${host.url.replace('127.0.0.1', 'localhost')}/pics/cat%20photo.png`],
    ['IPv6 loopback', () => 'http://[::1]:9/x.png'],
    ['IPv4-mapped IPv6 loopback', () => 'http://[::ffff:127.0.0.1]:9/x.png'],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data'],
    ['a private network address', () => 'http://10.0.0.1/x.png'],
    ['0.0.0.0', () => 'http://0.0.0.0:9/x.png'],
    ['a decimal-encoded loopback', () => 'http://2130706433:9/x.png'],
  ])('refuses %s with 400 Could not fetch image', async (_, url) => {
    const response = await postUpload(user, { upload_type: 'image_url', description: 'ssrf', image_url: url() })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Could not fetch image' })
  })
})

describe('upload rate limit (own server, 2 per user)', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ NUXT_RATE_LIMIT_ENABLED: 'true', NUXT_RATE_LIMIT_UPLOAD_MAX: '2', NUXT_RATE_LIMIT_UPLOAD_WINDOW_SECONDS: '3600' })
  })
  afterAll(() => server.stop())

  it('counts uploads per user and answers 429 with Retry-After', async () => {
    const [first, second] = await Promise.all([registerUser({}, server.url), registerUser({}, server.url)])
    const link = (n: number) => ({ upload_type: 'link', description: `link ${n}`, external_url: `https://example.com/${n}` })
    const one = await postUpload(first, link(1), undefined, server.url)
    expect(one.status).toBe(201)
    expect(one.headers.get('ratelimit-limit')).toBe('2')
    expect(one.headers.get('ratelimit-remaining')).toBe('1')
    expect((await postUpload(first, link(2), undefined, server.url)).status).toBe(201)
    const limited = await postUpload(first, link(3), undefined, server.url)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(limited.body).toEqual({ statusCode: 429, statusMessage: 'Too Many Requests', message: 'Too many requests, please try again later' })
    // Another user has an allowance of their own.
    expect((await postUpload(second, link(4), undefined, server.url)).status).toBe(201)
  })
})
