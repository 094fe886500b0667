import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { randomImage } from '../support/images'
import { startS3, type TestS3 } from '../support/s3'
import { databaseOf, makeAdmin } from '../support/seed'
import { startServer, type RunningServer } from '../support/server'
import { postUpload } from '../support/uploads'

/**
 * docs/behaviour.md, Scaling out: with NUXT_MEDIA_STORAGE=s3 the images and their
 * derivatives live in the bucket (an s3rver in this process), nothing under
 * `<data>/media`, and GET /api/image/{id} answers exactly as from disk.
 */

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex')

async function upload(user: TestUser, data: Buffer, server: RunningServer, description = 'kept in a bucket') {
  return postUpload(user, { upload_type: 'image', description }, { data, name: 'picture.png', type: 'image/png' }, server.url)
}

/** Waits until the sizes made in the background after an upload are in the bucket. */
async function sizesMade(s3: TestS3, bucket: string, id: string) {
  const wanted = ['small', 'medium', 'display'].map(folder => `${folder}/${id}.webp`)
  for (let tries = 0; tries < 80; tries++) {
    const keys = await s3.keys(bucket)
    if (wanted.every(key => keys.includes(key))) return
    await new Promise(resolve => setTimeout(resolve, 250))
  }
  throw new Error(`the sizes of ${id} were not made ahead`)
}

async function fetchImage(baseURL: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseURL}${path}`, { headers })
  return { status: response.status, headers: response.headers, data: Buffer.from(await response.arrayBuffer()) }
}

/** The headers a client or cache acts on: every one but the date and the request's own id. */
const headersOf = (headers: Headers) => Object.fromEntries([...headers].filter(([name]) => name !== 'date' && name !== 'x-request-id'))

describe('media in an S3 bucket', () => {
  let s3: TestS3
  let bucket: string
  let server: RunningServer
  let user: TestUser

  beforeAll(async () => {
    s3 = await startS3()
    bucket = await s3.createBucket()
    server = await startServer(s3.env(bucket))
    user = await registerUser({}, server.url)
  })

  afterAll(async () => {
    await server?.stop()
    await s3?.stop()
  })

  it('keeps an uploaded image and its thumbnail in the bucket and writes nothing under <data>/media', async () => {
    const response = await upload(user, await randomImage('png'), server)
    expect(response.status).toBe(201)
    const { id, filename } = response.body.upload
    expect(filename).toBe(`${id}.png`)
    const keys = await s3.keys(bucket)
    expect(keys).toContain(filename)
    expect(keys).toContain(`thumbs/${id}.webp`)
    expect(keys.filter(key => key.startsWith('pending/'))).toEqual([])
    const original = (await s3.object(bucket, filename))!
    expect(original.contentType).toBe('image/png')
    expect((await sharp(original.data).metadata()).format).toBe('png')
    const row = await databaseOf(server).db.get<{ sha256: string, size_bytes: number }>(sql`SELECT sha256, size_bytes FROM uploads WHERE id = ${id}`)
    expect(row).toEqual({ sha256: sha256(original.data), size_bytes: original.data.length })
    expect(existsSync(join(server.dataDir, 'media'))).toBe(false)
    expect(server.output()).toContain(`media: bucket "${bucket}" (NUXT_MEDIA_STORAGE=s3)`)
  })

  it('serves an image with the same bytes, headers, ETag and 304 as a site keeping it on disk', async () => {
    const data = await randomImage('png')
    const inBucket = (await upload(user, data, server)).body.upload
    // The same bytes uploaded to a site keeping its media on disk (the engine of this run too).
    const onDisk = await startServer({})
    try {
      const diskUser = await registerUser({}, onDisk.url)
      const fromDisk = (await upload(diskUser, data, onDisk)).body.upload
      for (const size of ['', '?size=small', '?size=thumb', '?size=medium', '?size=display']) {
        const a = await fetchImage(server.url, `/api/image/${inBucket.id}${size}`)
        const b = await fetchImage(onDisk.url, `/api/image/${fromDisk.id}${size}`)
        expect(a.status, size).toBe(200)
        expect(b.status, size).toBe(200)
        expect(a.data.equals(b.data), size).toBe(true)
        expect(headersOf(a.headers), size).toEqual(headersOf(b.headers))
      }
    }
    finally {
      await onDisk.stop()
    }

    const stored = (await s3.object(bucket, inBucket.filename))!.data
    const full = await fetchImage(server.url, `/api/image/${inBucket.id}`)
    expect(full.data.equals(stored)).toBe(true)
    expect(full.headers.get('content-type')).toBe('image/png')
    expect(full.headers.get('content-length')).toBe(String(stored.length))
    expect(full.headers.get('etag')).toBe(`"${sha256(stored)}"`)
    expect(full.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(full.headers.get('x-content-type-options')).toBe('nosniff')

    const again = await fetchImage(server.url, `/api/image/${inBucket.id}`, { 'if-none-match': full.headers.get('etag')! })
    expect(again.status).toBe(304)
    expect(again.data.length).toBe(0)
    expect(again.headers.get('etag')).toBe(full.headers.get('etag'))
    expect(again.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  })

  it('serves the thumbnail, small, medium and display sizes from the bucket, and makes a missing one there', async () => {
    const { id, filename } = (await upload(user, await randomImage('png', { width: 2000, height: 1500 }), server)).body.upload
    // Made ahead after the upload; removed here to see them made on request too.
    await sizesMade(s3, bucket, id)
    for (const folder of ['small', 'medium', 'display']) await s3.deleteObject(bucket, `${folder}/${id}.webp`)
    const etag = `"${sha256((await s3.object(bucket, filename))!.data)}`

    const thumb = await fetchImage(server.url, `/api/image/${id}?size=thumb`)
    expect(thumb.status).toBe(200)
    expect(thumb.headers.get('content-type')).toBe('image/webp')
    expect(thumb.headers.get('etag')).toBe(`${etag}-thumb"`)
    expect(thumb.data.equals((await s3.object(bucket, `thumbs/${id}.webp`))!.data)).toBe(true)
    const thumbInfo = await sharp(thumb.data).metadata()
    expect([thumbInfo.format, thumbInfo.width, thumbInfo.height]).toEqual(['webp', 480, 360])
    expect((await fetchImage(server.url, `/api/image/${id}?size=thumb`, { 'if-none-match': thumb.headers.get('etag')! })).status).toBe(304)

    expect(await s3.object(bucket, `display/${id}.webp`)).toBeNull()
    const display = await fetchImage(server.url, `/api/image/${id}?size=display`)
    expect(display.status).toBe(200)
    expect(display.headers.get('etag')).toBe(`${etag}-display"`)
    const displayInfo = await sharp(display.data).metadata()
    expect([displayInfo.format, displayInfo.width, displayInfo.height]).toEqual(['webp', 1600, 1200])
    const storedDisplay = await s3.object(bucket, `display/${id}.webp`)
    expect(storedDisplay?.contentType).toBe('image/webp')
    expect(storedDisplay?.data.equals(display.data)).toBe(true)

    // The small and medium sizes: made on their first request like the display size, stored in the bucket, 304 after.
    for (const [size, folder, width, height] of [['small', 'small', 240, 180], ['medium', 'medium', 960, 720]] as const) {
      expect(await s3.object(bucket, `${folder}/${id}.webp`), size).toBeNull()
      const made = await fetchImage(server.url, `/api/image/${id}?size=${size}`)
      expect(made.status, size).toBe(200)
      expect(made.headers.get('content-type'), size).toBe('image/webp')
      expect(made.headers.get('content-length'), size).toBe(String(made.data.length))
      expect(made.headers.get('etag'), size).toBe(`${etag}-${size}"`)
      const info = await sharp(made.data).metadata()
      expect([info.format, info.width, info.height], size).toEqual(['webp', width, height])
      const stored = await s3.object(bucket, `${folder}/${id}.webp`)
      expect(stored?.contentType, size).toBe('image/webp')
      expect(stored?.data.equals(made.data), size).toBe(true)
      const again = await fetchImage(server.url, `/api/image/${id}?size=${size}`, { 'if-none-match': made.headers.get('etag')! })
      expect([again.status, again.data.length], size).toEqual([304, 0])
    }

    // A thumbnail lost from the bucket is made again on its next request, and stored there.
    await s3.deleteObject(bucket, `thumbs/${id}.webp`)
    const remade = await fetchImage(server.url, `/api/image/${id}?size=thumb`)
    expect(remade.status).toBe(200)
    expect((await sharp(remade.data).metadata()).width).toBe(480)
    expect((await s3.object(bucket, `thumbs/${id}.webp`))?.data.equals(remade.data)).toBe(true)
    expect(existsSync(join(server.dataDir, 'media'))).toBe(false)
  })

  it('leaves the bucket as it was after a duplicate or an upload the database refuses', async () => {
    const data = await randomImage('png')
    const first = await upload(user, data, server)
    expect(first.status).toBe(201)
    await sizesMade(s3, bucket, first.body.upload.id)
    const before = await s3.keys(bucket)

    const duplicate = await upload(user, data, server)
    expect(duplicate.status).toBe(409)
    expect(duplicate.body).toMatchObject({ duplicate: true })
    // Re-encoded: passes the check on the received bytes, caught after decoding (before any write).
    const reencoded = await sharp(data).png({ compressionLevel: 1 }).toBuffer()
    expect((await upload(user, reencoded, server)).status).toBe(409)
    expect(await s3.keys(bucket)).toEqual(before)

    // The insert fails after both objects were written: they are removed again.
    const { db } = databaseOf(server)
    if (db.dialect === 'postgres') {
      await db.run(sql`CREATE FUNCTION refuse_upload() RETURNS trigger LANGUAGE plpgsql AS
        'BEGIN IF NEW.description = ''refused by the database'' THEN RAISE EXCEPTION ''refused''; END IF; RETURN NEW; END'`)
      await db.run(sql`CREATE TRIGGER refuse_upload BEFORE INSERT ON uploads FOR EACH ROW EXECUTE FUNCTION refuse_upload()`)
    }
    else {
      await db.run(sql`CREATE TRIGGER refuse_upload BEFORE INSERT ON uploads WHEN NEW.description = 'refused by the database'
        BEGIN SELECT RAISE(ABORT, 'refused'); END`)
    }
    try {
      const refused = await upload(user, await randomImage('png'), server, 'refused by the database')
      expect(refused.status).toBe(500)
      expect(refused.body).toEqual({ statusCode: 500, statusMessage: 'Internal Server Error', message: 'Internal server error', requestId: refused.headers.get('x-request-id') })
      expect(await s3.keys(bucket)).toEqual(before)
    }
    finally {
      await db.run(sql`DROP TRIGGER refuse_upload ${sql.raw(db.dialect === 'postgres' ? 'ON uploads' : '')}`)
    }
    const accepted = await upload(user, await randomImage('png'), server, 'accepted again')
    expect(accepted.status).toBe(201)
    await sizesMade(s3, bucket, accepted.body.upload.id)
    expect((await s3.keys(bucket)).length).toBe(before.length + 5)
  })

  it('removes an upload\'s objects when its owner or an admin deletes it', async () => {
    const admin = await makeAdmin(await registerUser({}, server.url), server)
    const uploads = []
    for (let n = 0; n < 2; n++) {
      const created = (await upload(user, await randomImage('png'), server)).body.upload
      for (const size of ['small', 'medium', 'display']) expect((await fetchImage(server.url, `/api/image/${created.id}?size=${size}`)).status).toBe(200)
      expect(await s3.keys(bucket)).toEqual(expect.arrayContaining([created.filename, `small/${created.id}.webp`, `thumbs/${created.id}.webp`, `medium/${created.id}.webp`, `display/${created.id}.webp`]))
      uploads.push(created)
    }
    const [mine, moderated] = uploads
    const others = (await s3.keys(bucket)).filter(key => !key.includes(mine.id) && !key.includes(moderated.id))

    expect((await api(`/api/upload/${mine.id}`, { method: 'DELETE', token: user.token, baseURL: server.url })).body).toEqual({ success: true })
    expect((await s3.keys(bucket)).filter(key => key.includes(mine.id))).toEqual([])
    expect((await api(`/api/upload/${moderated.id}`, { method: 'DELETE', token: admin.token, baseURL: server.url })).body).toEqual({ success: true })
    expect(await s3.keys(bucket)).toEqual(others)
    expect((await api(`/api/image/${mine.id}`, { baseURL: server.url })).status).toBe(404)
  })
})

describe('a bucket that is missing or goes away', () => {
  let s3: TestS3

  beforeAll(async () => {
    s3 = await startS3()
  })

  afterAll(async () => {
    await s3?.stop()
  })

  it('stops the start with one line naming the bucket', async () => {
    await expect(startServer(s3.env('dif-no-such-bucket'))).rejects.toThrow(new RegExp(
      `Server exited with 1:[\\s\\S]*\\[start\\] cannot start: media storage: the bucket "dif-no-such-bucket" at ${s3.endpoint} does not exist`))
  })

  it('stops the start with one line naming a missing or wrong setting', async () => {
    // Refused before the database is opened: the same on either engine.
    const { NUXT_S3_BUCKET: _, ...noBucket } = s3.env('')
    await expect(startServer(noBucket, { engine: 'sqlite' })).rejects.toThrow(/\[start\] cannot start: Media in S3 need NUXT_S3_BUCKET/)
    await expect(startServer({ NUXT_MEDIA_STORAGE: 'ftp' }, { engine: 'sqlite' })).rejects.toThrow(/\[start\] cannot start: NUXT_MEDIA_STORAGE must be fs or s3, not "ftp"/)
    await expect(startServer({ ...s3.env('dif-any'), NUXT_S3_ANSWER_SECONDS: '0' }, { engine: 'sqlite' }))
      .rejects.toThrow(/\[start\] cannot start: NUXT_S3_ANSWER_SECONDS must be a whole number of seconds from 1 to 600/)
  })

  it('says storage "ok" in /api/health, then "error" (503) once the S3 server stops, and refuses uploads cleanly meanwhile', async () => {
    const server = await startServer(s3.env(await s3.createBucket()))
    try {
      const user = await registerUser({}, server.url)
      const { id } = (await upload(user, await randomImage('png'), server)).body.upload
      const healthy = await api('/api/health', { baseURL: server.url })
      expect(healthy.status).toBe(200)
      expect(healthy.body).toEqual({ status: 'ok', database: 'ok', redis: 'off', storage: 'ok' })

      await s3.stop()
      const sick = await api('/api/health', { baseURL: server.url })
      expect(sick.status).toBe(503)
      expect(sick.body).toEqual({ status: 'error', database: 'ok', redis: 'off', storage: 'error' })
      expect(sick.headers.get('cache-control')).toBe('no-store')

      const unavailable = { statusCode: 503, statusMessage: 'Service Unavailable', message: 'Media storage is unavailable, please try again shortly' }
      const image = await api(`/api/image/${id}`, { baseURL: server.url })
      expect(image.status).toBe(503)
      expect(image.body).toEqual({ ...unavailable, requestId: image.headers.get('x-request-id') })
      expect(image.headers.get('retry-after')).toBe('5')
      const refused = await upload(user, await randomImage('png'), server)
      expect(refused.status).toBe(503)
      expect(refused.body).toEqual({ ...unavailable, requestId: refused.headers.get('x-request-id') })
      const mine = await api('/api/profile/uploads', { token: user.token, baseURL: server.url })
      expect(mine.body.uploads.map((entry: { id: string }) => entry.id)).toEqual([id])
      expect(server.process.exitCode).toBeNull()
    }
    finally {
      await server.stop()
    }
  })
})
