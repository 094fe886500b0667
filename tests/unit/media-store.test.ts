import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fsMediaStore, MEDIA_KEY, mediaKeys, uploadMediaKeys, type MediaStore } from '../../server/services/media-store'
import { bucketUrl, s3MediaStore, s3Settings } from '../../server/services/media-store-s3'
import { startS3, type TestS3 } from '../support/s3'
import { freePort } from '../support/server'

const ID = '0b7c3a1e-1111-4222-8333-123456789abc'

async function streamed(store: MediaStore, key: string, size?: number) {
  const opened = await store.open(key, size)
  if (!opened) return null
  const chunks: Buffer[] = []
  for await (const chunk of opened.body) chunks.push(chunk as Buffer)
  return { size: opened.size, data: Buffer.concat(chunks) }
}

describe('media keys', () => {
  it('are the same in a folder and a bucket, and only those are the site\'s', () => {
    expect(uploadMediaKeys(ID, `${ID}.png`)).toEqual([`${ID}.png`, `small/${ID}.webp`, `thumbs/${ID}.webp`, `medium/${ID}.webp`, `display/${ID}.webp`])
    expect(mediaKeys.pending(ID)).toBe(`pending/${ID}`)
    for (const key of [`${ID}.jpg`, `small/${ID}.webp`, `thumbs/${ID}.webp`, `medium/${ID}.webp`, `display/${ID}.webp`, `pending/${ID}`]) expect(MEDIA_KEY.test(key), key).toBe(true)
    for (const key of [`${ID}.exe`, `thumbs/${ID}.png`, `medium/${ID}.png`, `large/${ID}.webp`, `backups/${ID}.png`, 'index.html', `x${ID}.png`]) expect(MEDIA_KEY.test(key), key).toBe(false)
  })
})

describe('S3 settings', () => {
  const base = { bucket: 'dif-media', accessKeyId: 'key', secretAccessKey: 'secret' }

  it('fill in the defaults and read "false" as false', () => {
    expect(s3Settings(base)).toEqual({ ...base, endpoint: '', region: 'us-east-1', forcePathStyle: true, answerSeconds: 15 })
    expect(s3Settings({ ...base, endpoint: 'http://minio:9000/', region: 'eu-west-3', forcePathStyle: 'false', answerSeconds: '40' }))
      .toEqual({ ...base, endpoint: 'http://minio:9000', region: 'eu-west-3', forcePathStyle: false, answerSeconds: 40 })
    expect(s3Settings({ ...base, forcePathStyle: false }).forcePathStyle).toBe(false)
    expect(s3Settings({ ...base, answerSeconds: 3 }).answerSeconds).toBe(3)
  })

  it('name the setting that is missing or wrong', () => {
    expect(() => s3Settings({ ...base, bucket: '' })).toThrow('Media in S3 need NUXT_S3_BUCKET')
    expect(() => s3Settings({ ...base, secretAccessKey: ' ' })).toThrow('Media in S3 need NUXT_S3_ACCESS_KEY_ID and NUXT_S3_SECRET_ACCESS_KEY')
    expect(() => s3Settings({ ...base, endpoint: 'minio:9000' })).toThrow('NUXT_S3_ENDPOINT must be an http:// or https:// URL')
    for (const answerSeconds of [0, -1, 1.5, 601, 'soon', '1e3']) {
      expect(() => s3Settings({ ...base, answerSeconds }), String(answerSeconds)).toThrow('NUXT_S3_ANSWER_SECONDS must be a whole number of seconds from 1 to 600')
    }
  })

  it('address the bucket path-style, virtual-host style, or on AWS S3 of the region', () => {
    expect(bucketUrl(s3Settings({ ...base, endpoint: 'http://127.0.0.1:9000' }))).toBe('http://127.0.0.1:9000/dif-media')
    expect(bucketUrl(s3Settings({ ...base, endpoint: 'https://s3.example/storage/' }))).toBe('https://s3.example/storage/dif-media')
    expect(bucketUrl(s3Settings({ ...base, endpoint: 'https://s3.example', forcePathStyle: 'false' }))).toBe('https://dif-media.s3.example')
    expect(bucketUrl(s3Settings({ ...base, region: 'eu-west-3', forcePathStyle: 'false' }))).toBe('https://dif-media.s3.eu-west-3.amazonaws.com')
  })
})

/** What both stores must do alike. */
function behavesAsAStore(name: string, make: () => MediaStore) {
  describe(name, () => {
    it('writes, streams, reads, lists and removes objects', async () => {
      const store = make()
      await store.check()
      const data = Buffer.from('a picture, or so')
      await store.put(`${ID}.png`, data, 'image/png')
      await store.put(`thumbs/${ID}.webp`, Buffer.from('thumb'), 'image/webp')
      await store.put(`pending/${ID}`, Buffer.from(`${ID}.png`), 'text/plain')
      expect(await streamed(store, `${ID}.png`)).toEqual({ size: data.length, data })
      // A caller that knows the size (objects never change) gets the same answer.
      expect(await streamed(store, `${ID}.png`, data.length)).toEqual({ size: data.length, data })
      expect(await store.open(`display/${ID}.webp`, 5)).toBeNull()
      expect(await store.read(`thumbs/${ID}.webp`)).toEqual(Buffer.from('thumb'))
      expect(await store.open(`display/${ID}.webp`)).toBeNull()
      expect(await store.read(`display/${ID}.webp`)).toBeNull()

      const pending = await store.list('pending/')
      expect(pending.map(entry => entry.key)).toEqual([`pending/${ID}`])
      expect(Math.abs(Date.now() - pending[0]!.modified.getTime())).toBeLessThan(60_000)

      // Overwritten whole; a missing key is no error to remove.
      await store.put(`thumbs/${ID}.webp`, Buffer.from('another thumb'), 'image/webp')
      expect(await store.read(`thumbs/${ID}.webp`)).toEqual(Buffer.from('another thumb'))
      await store.remove([...uploadMediaKeys(ID, `${ID}.png`), `pending/${ID}`])
      expect(await store.read(`${ID}.png`)).toBeNull()
      expect(await store.list('pending/')).toEqual([])
    })
  })
}

const folders: string[] = []
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

behavesAsAStore('the media folder', () => {
  const folder = mkdtempSync(join(tmpdir(), 'dif-media-'))
  folders.push(folder)
  return fsMediaStore(folder)
})

describe('an S3 bucket', () => {
  let s3: TestS3
  let bucket: string
  const settings = (values: Record<string, string>) => s3Settings({ endpoint: s3.endpoint, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', ...values })

  beforeAll(async () => {
    s3 = await startS3()
    bucket = await s3.createBucket()
  })
  afterAll(async () => {
    await s3?.stop()
  })

  behavesAsAStore('on s3rver', () => s3MediaStore(settings({ bucket })))

  it('keeps each object\'s Content-Type', async () => {
    const store = s3MediaStore(settings({ bucket }))
    await store.put(`${ID}.gif`, Buffer.from('GIF89a'), 'image/gif')
    expect((await s3.object(bucket, `${ID}.gif`))?.contentType).toBe('image/gif')
    await store.remove([`${ID}.gif`])
  })

  it('says which bucket is missing, and which endpoint cannot be reached', async () => {
    await expect(s3MediaStore(settings({ bucket: 'dif-absent' })).check())
      .rejects.toThrow(`the bucket "dif-absent" at ${s3.endpoint} does not exist (create it first)`)
    const closed = await freePort()
    await expect(s3MediaStore(settings({ bucket, endpoint: `http://127.0.0.1:${closed}` })).check())
      .rejects.toThrow(`the bucket "${bucket}" at http://127.0.0.1:${closed} cannot be reached (connect ECONNREFUSED 127.0.0.1:${closed})`)
  })
})
