import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { api, errorBody, registerUser, type TestUser } from '../support/api'
import { animatedImage, randomImage } from '../support/images'
import { postUpload } from '../support/uploads'
import { sharedServer } from '../support/shared-server'

/**
 * GET /api/image/{id}?size=small|medium (docs/behaviour.md, Uploads and media; docs/performance.md,
 * "Performance"): the 240 px and 960 px WebP derivatives that, with the 480 px
 * thumbnail and the 1600 px display size, let every slot get a picture at most
 * 2× its size. Made after the upload (or on first request) and stored like the display size; and
 * what a 304 costs: no file read.
 */
const mediaPath = (...parts: string[]) => join(sharedServer().dataDir, 'media', ...parts)

async function fetchImage(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${sharedServer().baseURL}${path}`, { headers })
  return { status: response.status, headers: response.headers, data: Buffer.from(await response.arrayBuffer()) }
}

async function uploaded(user: TestUser, data: Buffer, name = 'picture.png', type = 'image/png') {
  const response = await postUpload(user, { upload_type: 'image', description: 'a picture in four sizes' }, { data, name, type })
  expect(response.status).toBe(201)
  return response.body.upload as { id: string, filename: string }
}

describe('GET /api/image/{id}?size=small and ?size=medium', () => {
  let user: TestUser
  beforeAll(async () => {
    user = await registerUser()
  })

  it('serves WebPs of at most 240 and 960 px made from the original, stored, each with its own ETag and a 304', async () => {
    const { id } = await uploaded(user, await randomImage('png', { width: 2000, height: 1500 }))
    const full = await fetchImage(`/api/image/${id}`)
    const sha = full.headers.get('etag')!.slice(1, -1)
    const etags = new Set([full.headers.get('etag')])
    for (const [size, width, height] of [['small', 240, 180], ['medium', 960, 720]] as const) {
      // Made in the background after the upload, or by this request if that has not run yet.
      const made = await fetchImage(`/api/image/${id}?size=${size}`)
      expect(made.status, size).toBe(200)
      expect(made.headers.get('content-type'), size).toBe('image/webp')
      expect(made.headers.get('cache-control'), size).toBe('public, max-age=31536000, immutable')
      expect(made.headers.get('x-content-type-options'), size).toBe('nosniff')
      expect(made.headers.get('content-length'), size).toBe(String(made.data.length))
      expect(made.headers.get('etag'), size).toBe(`"${sha}-${size}"`)
      etags.add(made.headers.get('etag'))
      const info = await sharp(made.data).metadata()
      expect([info.format, info.width, info.height], size).toEqual(['webp', width, height])
      expect(readFileSync(mediaPath(size, `${id}.webp`)).equals(made.data), size).toBe(true)
      // The second answer comes from the stored file: the same bytes.
      const again = await fetchImage(`/api/image/${id}?size=${size}`)
      expect([again.status, again.data.equals(made.data)], size).toEqual([200, true])
      const notModified = await fetchImage(`/api/image/${id}?size=${size}`, { 'if-none-match': made.headers.get('etag')! })
      expect([notModified.status, notModified.data.length, notModified.headers.get('etag')], size).toEqual([304, 0, made.headers.get('etag')])
      // Another size's ETag does not match.
      expect((await fetchImage(`/api/image/${id}?size=${size}`, { 'if-none-match': `"${sha}-thumb"` })).status, size).toBe(200)
    }
    for (const size of ['thumb', 'display']) etags.add((await fetchImage(`/api/image/${id}?size=${size}`)).headers.get('etag'))
    expect(etags.size).toBe(5)
  })

  it('never enlarges a small picture, keeps an animation at medium size and gives the first frame at small size', async () => {
    const { id } = await uploaded(user, await randomImage('png', { width: 200, height: 150 }))
    for (const size of ['small', 'medium']) {
      const info = await sharp((await fetchImage(`/api/image/${id}?size=${size}`)).data).metadata()
      expect([info.format, info.width, info.height], size).toEqual(['webp', 200, 150])
    }
    const animated = await uploaded(user, await animatedImage('gif', 3), 'moving.gif', 'image/gif')
    const medium = await sharp((await fetchImage(`/api/image/${animated.id}?size=medium`)).data).metadata()
    expect([medium.format, medium.pages, medium.width, medium.height]).toEqual(['webp', 3, 120, 90])
    const small = await sharp((await fetchImage(`/api/image/${animated.id}?size=small`)).data).metadata()
    expect([small.format, small.pages ?? 1, small.width, small.height]).toEqual(['webp', 1, 120, 90])
  })

  it('answers 404 JSON for links and unknown ids, and 400 for a size it does not make', async () => {
    const link = await postUpload(user, { upload_type: 'link', description: 'not a picture', external_url: 'https://example.com/a' })
    expect(link.status).toBe(201)
    for (const id of [link.body.upload.id, randomUUID(), 'nope']) {
      for (const size of ['small', 'medium']) {
        const response = await api(`/api/image/${id}?size=${size}`)
        expect(response.status, `${id} ${size}`).toBe(404)
        expect(response.headers.get('content-type')).toContain('application/json')
        expect(response.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Image not found' })
      }
    }
    const { id } = await uploaded(user, await randomImage('png'))
    for (const size of ['large', 'SMALL', 'original', '']) {
      const response = await api(`/api/image/${id}?size=${size}`)
      expect(response.status, size).toBe(400)
      expect(response.headers.get('content-type')).toContain('application/json')
      expect(errorBody(response)).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: 'size must be "small", "thumb", "medium" or "display"' })
    }
  })

  it('removes the small and medium files with the upload, and answers 404 after, also to a client holding the ETag', async () => {
    const { id } = await uploaded(user, await randomImage('png', { width: 1200, height: 900 }))
    const etags: Record<string, string> = {}
    for (const size of ['small', 'medium']) etags[size] = (await fetchImage(`/api/image/${id}?size=${size}`)).headers.get('etag')!
    expect(existsSync(mediaPath('small', `${id}.webp`))).toBe(true)
    expect(existsSync(mediaPath('medium', `${id}.webp`))).toBe(true)
    expect((await api(`/api/upload/${id}`, { method: 'DELETE', token: user.token })).status).toBe(200)
    expect(existsSync(mediaPath('small', `${id}.webp`))).toBe(false)
    expect(existsSync(mediaPath('medium', `${id}.webp`))).toBe(false)
    for (const size of ['small', 'medium']) {
      expect((await fetchImage(`/api/image/${id}?size=${size}`)).status, size).toBe(404)
      expect((await fetchImage(`/api/image/${id}?size=${size}`, { 'if-none-match': etags[size]! })).status, size).toBe(404)
    }
  })
})

describe('GET /api/image/{id} with If-None-Match', () => {
  it('answers 304 without reading the file: the files gone from disk still give 304 for their ETags (and 404 to a plain request)', async () => {
    const user = await registerUser()
    const { id, filename } = await uploaded(user, await randomImage('png', { width: 1200, height: 900 }))
    const paths = ['', '?size=small', '?size=thumb', '?size=medium', '?size=display'].map(size => `/api/image/${id}${size}`)
    const etags = new Map<string, string>()
    for (const path of paths) {
      const first = await fetchImage(path)
      expect(first.status, path).toBe(200)
      etags.set(path, first.headers.get('etag')!)
    }
    // Every file of the upload removed behind the server's back: any read (or remake) now fails.
    for (const file of [filename, ...['small', 'thumbs', 'medium', 'display'].map(folder => join(folder, `${id}.webp`))]) rmSync(mediaPath(file))
    for (const path of paths) {
      const again = await fetchImage(path, { 'if-none-match': etags.get(path)! })
      expect([again.status, again.data.length, again.headers.get('etag')], path).toEqual([304, 0, etags.get(path)])
      expect(again.headers.get('cache-control'), path).toBe('public, max-age=31536000, immutable')
    }
    for (const path of paths) expect((await fetchImage(path)).status, path).toBe(404)
  })
})
