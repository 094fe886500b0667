import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, errorBody, registerUser, type TestUser } from '../support/api'
import { signInAsAdmin } from '../support/accounts'
import { animatedImage, hugePng, jpegWithGps, MIME, randomImage, uploadForm, type ImageFormat } from '../support/images'
import { listEntryOf, serverDatabase } from '../support/seed'
import { createApiToken, postUpload, uploadImage } from '../support/uploads'
import { sharedServer } from '../support/shared-server'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const mediaPath = (...parts: string[]) => join(sharedServer().dataDir, 'media', ...parts)

let owner: TestUser
let other: TestUser
let admin: TestUser

beforeAll(async () => {
  [owner, other, admin] = await Promise.all([registerUser(), registerUser(), registerUser({ email: `admin+${randomUUID().slice(0, 6)}@e2e.test` })])
  // The shared server's admin is ADMIN_EMAIL, registered and verified once (another file may have done so).
  admin = { ...admin, token: await signInAsAdmin() }
})

describe('POST /api/upload (image)', () => {
  it.each(['jpeg', 'png', 'gif', 'webp'] as ImageFormat[])('stores a %s in its own type and answers 201 with the creation subset', async (format) => {
    const data = await randomImage(format)
    const response = await postUpload(owner, { upload_type: 'image', description: `  A ${format}  ` }, { data, name: `photo.${format}`, type: 'application/octet-stream' })
    expect(response.status).toBe(201)
    const { upload } = response.body
    const ext = format === 'jpeg' ? 'jpg' : format
    expect(upload).toEqual({
      id: expect.stringMatching(UUID),
      userId: owner.id,
      filename: `${upload.id}.${ext}`,
      originalName: `photo.${format}`,
      description: `A ${format}`,
      uploadType: 'image',
      externalUrl: null,
      isPrivate: false,
      rating: 'safe',
    })
    const stored = await sharp(readFileSync(mediaPath(upload.filename))).metadata()
    expect(stored.format).toBe(format)
    expect([stored.width, stored.height]).toEqual([320, 240])
    const image = await api(`/api/image/${upload.id}`)
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe(MIME[format])
  })

  it('keeps an animated GIF and an animated WebP animated', async () => {
    for (const format of ['gif', 'webp'] as const) {
      const response = await postUpload(owner, { upload_type: 'image', description: 'moving' }, { data: await animatedImage(format, 3), name: `anim.${format}` })
      expect(response.status).toBe(201)
      const stored = await sharp(mediaPath(response.body.upload.filename)).metadata()
      expect(stored.format).toBe(format)
      expect(stored.pages).toBe(3)
    }
  })

  it('auto-orients and removes EXIF, GPS and every other metadata', async () => {
    const input = await jpegWithGps({ width: 300, height: 200 })
    const source = join(tmpdir(), `gps-${randomUUID()}.jpg`)
    writeFileSync(source, input)
    let before
    try {
      before = JSON.parse(execFileSync('exiftool', ['-json', '-GPS:all', '-Make', source], { encoding: 'utf8' }))[0]
    }
    finally {
      rmSync(source, { force: true })
    }
    expect(before.GPSLatitude).toBeTruthy()
    expect(before.Make).toBe('TestCam')

    const response = await postUpload(owner, { upload_type: 'image', description: 'holiday' }, { data: input, name: 'holiday.jpg' })
    expect(response.status).toBe(201)
    const file = mediaPath(response.body.upload.filename)
    const after = JSON.parse(execFileSync('exiftool', ['-json', '-EXIF:all', '-GPS:all', '-XMP:all', '-Make', file], { encoding: 'utf8' }))[0]
    expect(Object.keys(after)).toEqual(['SourceFile'])
    const metadata = await sharp(file).metadata()
    expect(metadata.exif).toBeUndefined()
    expect(metadata.xmp).toBeUndefined()
    // Orientation 6 (rotate 90° clockwise) was applied to the pixels.
    expect([metadata.width, metadata.height]).toEqual([200, 300])
    expect(metadata.orientation).toBeUndefined()
    // The full object and the list entry give the stored size, so pages can reserve the picture's box.
    const full = (await api(`/api/upload/${response.body.upload.id}`)).body
    expect([full.width, full.height]).toEqual([200, 300])
    const entry = await listEntryOf(owner, response.body.upload.id)
    expect([entry.width, entry.height]).toEqual([200, 300])
  })

  it('refuses a file of 10 MB + 1 byte with 413 while streaming', async () => {
    const data = Buffer.alloc(10 * 1024 * 1024 + 1, 0xFF)
    const response = await postUpload(owner, { upload_type: 'image', description: 'too big' }, { data, name: 'big.jpg' })
    expect(response.status).toBe(413)
    expect(response.body).toEqual({ statusCode: 413, statusMessage: 'Content Too Large', message: 'File too large (max 10 MB)' })
  })

  it('refuses a body whose Content-Length is far over the cap with 413', async () => {
    const data = Buffer.alloc(12 * 1024 * 1024, 0xFF)
    const response = await postUpload(owner, { upload_type: 'image', description: 'way too big' }, { data, name: 'big.jpg' })
    expect(response.status).toBe(413)
    expect(errorBody(response).message).toBe('File too large (max 10 MB)')
  })

  it('accepts a file of exactly 10 MB up to the type check', async () => {
    const data = Buffer.alloc(10 * 1024 * 1024, 0x20)
    const response = await postUpload(owner, { upload_type: 'image', description: 'exactly 10 MB of text' }, { data, name: 'ten.jpg' })
    expect(response.status).toBe(400)
    expect(errorBody(response).message).toBe('Unsupported image type')
  })

  it('decides the type from the bytes: a text file named .jpg is 400', async () => {
    const response = await postUpload(owner, { upload_type: 'image', description: 'not an image' }, { data: Buffer.from('hello, I am text\n'.repeat(50)), name: 'cat.jpg', type: 'image/jpeg' })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Unsupported image type' })
  })

  it('refuses other image types (BMP, TIFF, SVG)', async () => {
    const tiff = await sharp(await randomImage('png')).tiff().toBuffer()
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>')
    for (const data of [tiff, svg]) {
      const response = await postUpload(owner, { upload_type: 'image', description: 'other type' }, { data, name: 'x.png' })
      expect(response.status).toBe(400)
      expect(errorBody(response).message).toBe('Unsupported image type')
    }
  })

  it('answers a corrupt image with 400 Invalid image', async () => {
    const jpeg = await randomImage('jpeg')
    const truncated = Buffer.concat([jpeg.subarray(0, 400), Buffer.alloc(200, 0x41)])
    const response = await postUpload(owner, { upload_type: 'image', description: 'broken' }, { data: truncated, name: 'broken.jpg' })
    expect(response.status).toBe(400)
    expect(errorBody(response).message).toBe('Invalid image')
  })

  it('refuses a 20000×20000 PNG with 400 without decoding it', async () => {
    const response = await postUpload(owner, { upload_type: 'image', description: 'huge' }, { data: hugePng(20000, 20000), name: 'huge.png' })
    expect(response.status).toBe(400)
    expect(errorBody(response).message).toBe('Image dimensions too large')
    const health = await api('/api/openapi.json')
    expect(health.status).toBe(200)
  })

  it('asks for the file when upload_type is image', async () => {
    const response = await postUpload(owner, { upload_type: 'image', description: 'no file' })
    expect(response.status).toBe(400)
    expect(errorBody(response).message).toBe('File is required')
  })
})

describe('POST /api/upload (fields)', () => {
  it('answers 401 before looking at the body', async () => {
    const response = await postUpload(null, { upload_type: 'nonsense' })
    expect(response.status).toBe(401)
    expect(response.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Authentication required' })
  })

  it('refuses a non-multipart body', async () => {
    const response = await api('/api/upload', { method: 'POST', token: owner.token, body: { upload_type: 'link' } })
    expect(response.status).toBe(400)
    expect(errorBody(response).message).toBe('Expected a multipart/form-data body')
  })

  it.each([
    [{ description: 'x', external_url: 'https://example.com' }, 'Invalid upload type'],
    [{ upload_type: 'video', description: 'x' }, 'Invalid upload type'],
    [{ upload_type: 'link', external_url: 'https://example.com' }, 'Description is required'],
    [{ upload_type: 'link', description: '   ', external_url: 'https://example.com' }, 'Description is required'],
    [{ upload_type: 'link', description: 'x'.repeat(501), external_url: 'https://example.com' }, 'Description must be at most 500 characters'],
    [{ upload_type: 'link', description: 'x' }, 'Invalid external URL'],
    [{ upload_type: 'link', description: 'x', external_url: 'ftp://example.com/file' }, 'Invalid external URL'],
    [{ upload_type: 'link', description: 'x', external_url: 'javascript:alert(1)' }, 'Invalid external URL'],
    [{ upload_type: 'link', description: 'x', external_url: `https://example.com/${'a'.repeat(2030)}` }, 'URLs must be at most 2048 characters'],
    [{ upload_type: 'link', description: 'x', external_url: 'https://example.com', is_private: 'yes' }, 'is_private must be "true" or "false"'],
    [{ upload_type: 'link', description: 'x', external_url: 'https://example.com', tags: 'ok, a' }, 'Tag names must be 2 to 50 characters of letters, digits, spaces and hyphens'],
    [{ upload_type: 'link', description: 'x', external_url: 'https://example.com', tags: 'fine, <script>' }, 'Tag names must be 2 to 50 characters of letters, digits, spaces and hyphens'],
    [{ upload_type: 'link', description: 'x', external_url: 'https://example.com', tags: Array.from({ length: 11 }, (_, i) => `tag${i}`).join(',') }, 'At most 10 tags per upload'],
    [{ upload_type: 'image_url', description: 'x', image_url: 'file:///etc/passwd' }, 'Invalid image URL'],
  ])('answers 400 for %j', async (fields, message) => {
    const response = await postUpload(owner, fields as Record<string, string>)
    expect(response.status).toBe(400)
    expect(response.body.statusMessage).toBe('Bad Request')
    expect(response.body.message).toBe(message)
  })

  it('refuses a file part without a filename, as curl -F \'file=<img.png\' sends it', async () => {
    // Bytes with a NUL, and more than a text field holds: the missing filename is what is said.
    for (const bytes of ['\x89PNG\0', 'x'.repeat(20_000)]) {
      const form = uploadForm({ upload_type: 'image', description: 'no filename' })
      form.append('file', bytes)
      const response = await api('/api/upload', { method: 'POST', token: owner.token, body: form })
      expect([response.status, response.body.message]).toEqual([400, 'The file part needs a filename'])
    }
  })

  it('refuses a field sent twice, a second file part too, naming it', async () => {
    const twice = uploadForm({ upload_type: 'link', description: 'd1', external_url: 'https://example.com/twice', rating: 'safe' })
    twice.append('rating', 'explicit')
    const field = await api('/api/upload', { method: 'POST', token: owner.token, body: twice })
    expect([field.status, field.body.message]).toEqual([400, 'rating must be sent once'])
    const image = await randomImage('png')
    const twoFiles = uploadForm({ upload_type: 'image', description: 'two files' }, { data: image, name: 'a.png' })
    twoFiles.append('file', new Blob([new Uint8Array(image)]), 'b.png')
    const file = await api('/api/upload', { method: 'POST', token: owner.token, body: twoFiles })
    expect([file.status, file.body.message]).toEqual([400, 'file must be sent once'])
    // A field the form does not name is refused twice too, without saying the name it was sent with.
    const extra = uploadForm({ upload_type: 'link', description: 'extra fields', external_url: 'https://example.com/extra', note: 'a' })
    extra.append('note', 'b')
    const unnamed = await api('/api/upload', { method: 'POST', token: owner.token, body: extra })
    expect([unnamed.status, unnamed.body.message]).toEqual([400, 'A form field must be sent once'])
  })

  it('counts the description in Unicode code points (500 emoji are fine)', async () => {
    const response = await postUpload(owner, { upload_type: 'link', description: '😀'.repeat(500), external_url: 'https://example.com/emoji' })
    expect(response.status).toBe(201)
  })

  it('stores a link: filename null, original name the URL, tags trimmed and de-duplicated by slug', async () => {
    const url = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'
    const response = await postUpload(owner, { upload_type: 'link', description: 'a song', external_url: url, tags: ' Music ,Rick Roll,, music , Eighties-Pop ' })
    expect(response.status).toBe(201)
    expect(response.body.upload).toEqual({
      id: expect.stringMatching(UUID),
      userId: owner.id,
      filename: null,
      originalName: url,
      description: 'a song',
      uploadType: 'link',
      externalUrl: url,
      isPrivate: false,
      rating: 'safe',
    })
    const full = await api(`/api/upload/${response.body.upload.id}`)
    expect(full.body.tags.map((t: { name: string, slug: string }) => [t.name, t.slug])).toEqual([
      ['Music', 'music'], ['Rick Roll', 'rick-roll'], ['Eighties-Pop', 'eighties-pop'],
    ])
    const image = await api(`/api/image/${response.body.upload.id}`)
    expect(image.status).toBe(404)
    expect(image.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Image not found' })
  })

  it('is public by default and private with is_private=true', async () => {
    const open = await postUpload(owner, { upload_type: 'link', description: 'open', external_url: 'https://example.com/open' })
    const closed = await postUpload(owner, { upload_type: 'link', description: 'closed', external_url: 'https://example.com/closed', is_private: 'true' })
    expect(open.body.upload.isPrivate).toBe(false)
    expect(closed.body.upload.isPrivate).toBe(true)
  })

  it('shares one tag row between uploads with the same slug', async () => {
    const tag = `Shared ${randomUUID().slice(0, 8)}`
    const a = await postUpload(owner, { upload_type: 'link', description: 'a', external_url: 'https://example.com/a', tags: tag })
    const b = await postUpload(other, { upload_type: 'link', description: 'b', external_url: 'https://example.com/b', tags: tag.toUpperCase() })
    const [tagA] = (await api(`/api/upload/${a.body.upload.id}`)).body.tags
    const [tagB] = (await api(`/api/upload/${b.body.upload.id}`)).body.tags
    expect(tagB).toEqual(tagA)
  })
})

describe('duplicates', () => {
  it('refuses the exact same image with 409 and the existing id', async () => {
    const data = await randomImage('jpeg')
    const first = await postUpload(owner, { upload_type: 'image', description: 'original' }, { data, name: 'a.jpg' })
    expect(first.status).toBe(201)
    const again = await postUpload(other, { upload_type: 'image', description: 'copy' }, { data, name: 'b.jpg' })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({
      statusCode: 409,
      statusMessage: 'Conflict',
      message: 'This image has already been uploaded',
      duplicate: true,
      existingUploadId: first.body.upload.id,
    })
  })

  it('catches a resized and re-encoded copy, and lets a clearly different image through', async () => {
    const original = await randomImage('png', { width: 640, height: 480 })
    const first = await postUpload(owner, { upload_type: 'image', description: 'original' }, { data: original, name: 'o.png' })
    expect(first.status).toBe(201)
    const copy = await sharp(original).resize(300, 225).webp({ quality: 70 }).toBuffer()
    const resized = await postUpload(other, { upload_type: 'image', description: 'smaller copy' }, { data: copy, name: 'c.webp' })
    expect(resized.status).toBe(409)
    expect(resized.body.existingUploadId).toBe(first.body.upload.id)
    const jpegCopy = await sharp(original).resize(800, 600).jpeg({ quality: 60 }).toBuffer()
    expect((await postUpload(owner, { upload_type: 'image', description: 'bigger copy' }, { data: jpegCopy, name: 'c.jpg' })).status).toBe(409)

    const different = await postUpload(other, { upload_type: 'image', description: 'another picture' }, { data: await randomImage('png', { width: 640, height: 480 }), name: 'd.png' })
    expect(different.status).toBe(201)
  })

  it('compares with public uploads and the caller\'s own only', async () => {
    const data = await randomImage('png')
    const hidden = await postUpload(owner, { upload_type: 'image', description: 'private', is_private: 'true' }, { data, name: 'p.png' })
    expect(hidden.status).toBe(201)
    // Another user may upload the same picture: the private one is not theirs to know about.
    expect((await postUpload(other, { upload_type: 'image', description: 'theirs' }, { data, name: 'p.png' })).status).toBe(201)
    const own = await postUpload(owner, { upload_type: 'image', description: 'again' }, { data, name: 'p.png' })
    expect(own.status).toBe(409)
  })
})

describe('GET /api/upload/{id}', () => {
  it('returns the full Upload object with tags, username and stats', async () => {
    const created = await uploadImage(owner, { tags: 'Cats, Cute Things', description: 'full object' })
    const response = await api(`/api/upload/${created.id}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-cache')
    expect(response.headers.get('etag')).toMatch(/^"/)
    expect(response.body).toEqual({
      id: created.id,
      user_id: owner.id,
      filename: created.filename,
      original_name: 'picture.png',
      description: 'full object',
      upload_type: 'image',
      external_url: null,
      width: 320,
      height: 240,
      upvotes: 0,
      downvote_count: 0,
      is_private: 0,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      edited_at: null,
      revision: 1,
      locked: 0,
      rating: 'safe',
      tags: [
        { id: expect.stringMatching(UUID), name: 'Cats', slug: 'cats' },
        { id: expect.stringMatching(UUID), name: 'Cute Things', slug: 'cute-things' },
      ],
      username: owner.username,
      stats: { voteCount: 0, upvotes: 0, downvotes: 0, averageRating: null },
      favourites: 0,
      comments: 0,
    })
  })

  it('computes stats from the counts', async () => {
    const created = await uploadImage(owner)
    await serverDatabase().db.run(sql`UPDATE uploads SET upvotes = 2, downvote_count = 1 WHERE id = ${created.id}`)
    const response = await api(`/api/upload/${created.id}`)
    expect(response.body.stats).toEqual({ voteCount: 3, upvotes: 2, downvotes: 1, averageRating: 7 })
  })

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const response = await api(`/api/upload/${id}`)
      expect(response.status).toBe(404)
      expect(response.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Upload not found' })
    }
  })
})

describe('PATCH /api/upload/{id}/privacy', () => {
  it('toggles privacy, and a private upload is visible only to its owner and admins', async () => {
    const created = await uploadImage(owner)
    const toggled = await api(`/api/upload/${created.id}/privacy`, { method: 'PATCH', token: owner.token, body: { is_private: 0, ignored: true } })
    expect(toggled.status).toBe(200)
    expect(toggled.body.success).toBe(true)
    expect(toggled.body.is_private).toBe(1)
    expect(toggled.body.upload).toMatchObject({ id: created.id, is_private: 1, username: owner.username })

    const asOwner = await api(`/api/upload/${created.id}`, { token: owner.token })
    expect(asOwner.status).toBe(200)
    expect(asOwner.body.is_private).toBe(1)
    expect(asOwner.headers.get('cache-control')).toBe('private, no-store')
    expect((await api(`/api/upload/${created.id}`, { token: admin.token })).status).toBe(200)
    expect((await api(`/api/upload/${created.id}`, { token: other.token })).status).toBe(404)
    expect((await api(`/api/upload/${created.id}`)).status).toBe(404)
    // The media address stays reachable for whoever knows it.
    expect((await api(`/api/image/${created.id}`)).status).toBe(200)

    const back = await api(`/api/upload/${created.id}/privacy`, { method: 'PATCH', token: owner.token })
    expect(back.body.is_private).toBe(0)
    expect(back.body.upload.is_private).toBe(0)
    expect((await api(`/api/upload/${created.id}`)).status).toBe(200)
    expect((await api(`/api/upload/${created.id}`, { token: other.token })).status).toBe(200)
  })

  it('answers 401 when signed out and 404 to anyone but the owner (admins included)', async () => {
    const created = await uploadImage(owner)
    const anonymous = await api(`/api/upload/${created.id}/privacy`, { method: 'PATCH' })
    expect(anonymous.status).toBe(401)
    for (const user of [other, admin]) {
      const response = await api(`/api/upload/${created.id}/privacy`, { method: 'PATCH', token: user.token })
      expect(response.status).toBe(404)
      expect(response.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Upload not found' })
    }
    expect((await api(`/api/upload/${randomUUID()}/privacy`, { method: 'PATCH', token: owner.token })).status).toBe(404)
    expect((await api(`/api/upload/${created.id}`)).body.is_private).toBe(0)
  })
})

describe('DELETE /api/upload/{id}', () => {
  it('lets the owner delete: row, votes, tag links and files are gone', async () => {
    const created = await uploadImage(owner, { tags: 'Doomed' })
    const file = mediaPath(created.filename)
    const thumb = mediaPath('thumbs', `${created.id}.webp`)
    expect(existsSync(file)).toBe(true)
    expect(existsSync(thumb)).toBe(true)
    const { db } = serverDatabase()
    await db.run(sql`INSERT INTO votes (id, user_id, upload_id, vote) VALUES (${randomUUID()}, ${other.id}, ${created.id}, 'fucks')`)

    expect((await api(`/api/upload/${created.id}`, { method: 'DELETE' })).status).toBe(401)
    expect((await api(`/api/upload/${created.id}`, { method: 'DELETE', token: other.token })).status).toBe(404)
    const response = await api(`/api/upload/${created.id}`, { method: 'DELETE', token: owner.token })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true })

    expect(existsSync(file)).toBe(false)
    expect(existsSync(thumb)).toBe(false)
    expect(await db.get(sql`SELECT count(*) AS n FROM votes WHERE upload_id = ${created.id}`)).toEqual({ n: 0 })
    expect(await db.get(sql`SELECT count(*) AS n FROM upload_tags WHERE upload_id = ${created.id}`)).toEqual({ n: 0 })
    expect((await api(`/api/upload/${created.id}`)).status).toBe(404)
    expect((await api(`/api/image/${created.id}`)).status).toBe(404)
    expect((await api(`/api/upload/${created.id}`, { method: 'DELETE', token: owner.token })).status).toBe(404)
  })

  it('lets an admin delete anyone\'s upload', async () => {
    const created = await uploadImage(owner, { isPrivate: true })
    const response = await api(`/api/upload/${created.id}`, { method: 'DELETE', token: admin.token })
    expect(response.status).toBe(200)
    expect(existsSync(mediaPath(created.filename))).toBe(false)
  })
})

describe('GET /api/image/{id}', () => {
  it('serves the image with its type, a one-year immutable cache, an ETag and nosniff', async () => {
    const created = await uploadImage(owner, { format: 'jpeg' })
    const response = await fetch(`${sharedServer().baseURL}/api/image/${created.id}`)
    const bytes = Buffer.from(await response.arrayBuffer())
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/jpeg')
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length)
    expect(bytes.equals(readFileSync(mediaPath(created.filename)))).toBe(true)
    const etag = response.headers.get('etag')!
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/)
    const again = await fetch(`${sharedServer().baseURL}/api/image/${created.id}`, { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect((await again.arrayBuffer()).byteLength).toBe(0)
  })

  it('serves a WebP thumbnail of at most 480×480 with ?size=thumb', async () => {
    const response = await postUpload(owner, { upload_type: 'image', description: 'large' }, { data: await randomImage('png', { width: 1200, height: 900 }), name: 'large.png' })
    const id = response.body.upload.id
    const thumb = await fetch(`${sharedServer().baseURL}/api/image/${id}?size=thumb`)
    expect(thumb.status).toBe(200)
    expect(thumb.headers.get('content-type')).toBe('image/webp')
    expect(thumb.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const metadata = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['webp', 480, 360])
    const full = await fetch(`${sharedServer().baseURL}/api/image/${id}`)
    expect(thumb.headers.get('etag')).not.toBe(full.headers.get('etag'))
    await full.arrayBuffer()
  })

  it('answers 404 JSON for unknown ids and 400 for an unknown size', async () => {
    for (const id of [randomUUID(), 'nope']) {
      const response = await api(`/api/image/${id}`)
      expect(response.status).toBe(404)
      expect(response.headers.get('content-type')).toContain('application/json')
      expect(response.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Image not found' })
    }
    const created = await uploadImage(owner)
    const response = await api(`/api/image/${created.id}?size=huge`)
    expect(response.status).toBe(400)
    expect(errorBody(response).message).toBe('size must be "small", "thumb", "medium" or "display"')
  })
})

describe('POST /api/v1/upload (API token)', () => {
  it('uploads an image and a link with a live token', async () => {
    const { token } = await createApiToken(owner.id)
    const image = await api('/api/v1/upload', { method: 'POST', bearer: token, body: uploadForm({ upload_type: 'image', description: 'by script', tags: 'api' }, { data: await randomImage('webp'), name: 'script.webp' }) })
    expect(image.status).toBe(201)
    expect(image.body.upload).toMatchObject({ userId: owner.id, uploadType: 'image', originalName: 'script.webp', isPrivate: false })
    const link = await api('/api/v1/upload', { method: 'POST', bearer: token, body: uploadForm({ upload_type: 'link', description: 'by script', external_url: 'https://vimeo.com/76979871', is_private: 'true' }) })
    expect(link.status).toBe(201)
    expect(link.body.upload).toMatchObject({ uploadType: 'link', filename: null, isPrivate: true })
  })

  it('refuses image_url with 400 Invalid upload type', async () => {
    const { token } = await createApiToken(owner.id)
    const response = await api('/api/v1/upload', { method: 'POST', bearer: token, body: uploadForm({ upload_type: 'image_url', description: 'x', image_url: 'https://example.com/a.png' }) })
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid upload type' })
  })

  it('answers 401 without a token, with a cookie only, and with a revoked or expired token', async () => {
    const form = () => uploadForm({ upload_type: 'link', description: 'x', external_url: 'https://example.com' })
    expect((await api('/api/v1/upload', { method: 'POST', body: form() })).status).toBe(401)
    expect((await api('/api/v1/upload', { method: 'POST', token: owner.token, body: form() })).status).toBe(401)
    expect((await api('/api/v1/upload', { method: 'POST', bearer: owner.token, body: form() })).status).toBe(401)

    const revoked = await createApiToken(owner.id)
    expect((await api('/api/v1/upload', { method: 'POST', bearer: revoked.token, body: form() })).status).toBe(201)
    await serverDatabase().db.run(sql`DELETE FROM api_tokens WHERE id = ${revoked.id}`)
    const afterRevoke = await api('/api/v1/upload', { method: 'POST', bearer: revoked.token, body: form() })
    expect(afterRevoke.status).toBe(401)
    expect(afterRevoke.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Invalid or expired token' })

    const expired = await createApiToken(owner.id, { expiresAt: new Date(Date.now() - 1000).toISOString() })
    expect((await api('/api/v1/upload', { method: 'POST', bearer: expired.token, body: form() })).status).toBe(401)
  })
})

describe('OpenAPI', () => {
  it('describes every upload endpoint, with multipart bodies', async () => {
    const { body } = await api('/api/openapi.json')
    expect(Object.keys(body.paths)).toEqual(expect.arrayContaining(['/api/upload', '/api/v1/upload', '/api/upload/{id}', '/api/upload/{id}/privacy', '/api/image/{id}']))
    // One form per upload_type (file / image_url / external_url), told apart by upload_type.
    const multipart = body.paths['/api/upload'].post.requestBody.content['multipart/form-data'].schema
    const forms = body.components.schemas
    expect(multipart.discriminator).toEqual({
      propertyName: 'upload_type',
      mapping: { image: '#/components/schemas/ImageUploadForm', image_url: '#/components/schemas/ImageUrlUploadForm', link: '#/components/schemas/LinkUploadForm' },
    })
    expect(multipart.oneOf.map((form: { $ref: string }) => form.$ref)).toEqual(Object.values(multipart.discriminator.mapping))
    expect(Object.keys(forms.ImageUploadForm.properties)).toEqual(['upload_type', 'file', 'description', 'tags', 'is_private', 'rating'])
    expect(forms.ImageUploadForm.required).toEqual(['upload_type', 'file', 'description'])
    // Bytes with no `type`: generated clients take a Blob for them (tests/e2e/openapi-client.test.ts).
    expect(forms.ImageUploadForm.properties.file).toEqual({ format: 'binary', contentMediaType: 'application/octet-stream', description: 'The image file: JPEG, PNG, GIF or WebP, at most 10 MB and 50 megapixels (the type is read from the bytes)' })
    expect(forms.ImageUrlUploadForm.required).toEqual(['upload_type', 'image_url', 'description'])
    expect(forms.LinkUploadForm.required).toEqual(['upload_type', 'external_url', 'description'])
    const v1 = body.paths['/api/v1/upload'].post.requestBody.content['multipart/form-data'].schema
    expect(Object.keys(v1.discriminator.mapping)).toEqual(['image', 'link'])
    expect(body.paths['/api/upload/{id}'].delete.security).toEqual([{ cookie: [] }])
    expect(body.paths['/api/v1/upload'].post.security).toEqual([{ apiToken: [] }])
  })

  it('lists exactly the fields the full Upload object carries', async () => {
    const { body } = await api('/api/openapi.json')
    const created = await uploadImage(owner)
    const upload = (await api(`/api/upload/${created.id}`)).body
    const schema = body.paths['/api/upload/{id}'].get.responses['200'].content['application/json'].schema
    expect(schema).toEqual({ $ref: '#/components/schemas/Upload' })
    // `favourited` only for a signed-in caller.
    expect(Object.keys(upload).sort()).toEqual(Object.keys(body.components.schemas.Upload.properties).filter(key => key !== 'favourited').sort())
    const signedIn = (await api(`/api/upload/${created.id}`, { token: owner.token })).body
    expect(Object.keys(signedIn).sort()).toEqual(Object.keys(body.components.schemas.Upload.properties).sort())
  })
})

describe('GET /api/image/{id}?size=display', () => {
  it('serves a WebP of at most 1600 px made from the original, with its own ETag and a 304 without the file', async () => {
    const user = await registerUser()
    const big = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: { r: 200, g: 30, b: 90 } } }).png().toBuffer()
    const created = await postUpload(user, { upload_type: 'image', description: 'a wide picture' }, { data: big, name: 'wide.png', type: 'image/png' })
    expect(created.status).toBe(201)
    const id = created.body.upload.id
    const response = await fetch(`${sharedServer().baseURL}/api/image/${id}?size=display`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/webp')
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const etag = response.headers.get('etag')!
    expect(etag).toMatch(/^"[0-9a-f]{64}-display"$/)
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1600, 800])
    const again = await fetch(`${sharedServer().baseURL}/api/image/${id}?size=display`, { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    // A small picture is never enlarged.
    const small = await uploadImage(user)
    const smallMeta = await sharp(Buffer.from(await (await fetch(`${sharedServer().baseURL}/api/image/${small.id}?size=display`)).arrayBuffer())).metadata()
    expect(smallMeta.width).toBeLessThanOrEqual(1600)
    expect(smallMeta.format).toBe('webp')
    // Deleting the upload deletes the derivative too.
    expect((await api(`/api/upload/${id}`, { method: 'DELETE', token: user.token })).status).toBe(200)
    expect(existsSync(join(sharedServer().dataDir, 'media', 'display', `${id}.webp`))).toBe(false)
    expect((await fetch(`${sharedServer().baseURL}/api/image/${id}?size=display`)).status).toBe(404)
  })
})
