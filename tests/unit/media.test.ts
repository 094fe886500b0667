import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { derivativeOf, derivativesAheadSettled, derivativesOf, hammingDistance, imageQueueState, makeDerivativesAhead, MAX_IMAGE_FRAMES, perceptualHash as hashOf, PHASH_MAX_DISTANCE, processImage, thumbnailOf } from '../../server/services/media'
import { fsMediaStore, mediaKeys } from '../../server/services/media-store'
import { conflict } from '../../server/services/errors'
import { animatedImage, manyFrameGif, randomImage, randomPicture } from '../support/images'

// As in the pipeline: the hash is taken from the 480×480 thumbnail.
const perceptualHash = async (image: Buffer) => hashOf(await thumbnailOf(image))

describe('perceptual hash', () => {
  it('stays within the threshold for resized and re-encoded copies', async () => {
    for (let i = 0; i < 5; i++) {
      const original = await randomImage('png', { width: 640, height: 480 })
      const hash = (await perceptualHash(original))!
      expect(hash).toMatch(/^[0-9a-f]{16}$/)
      for (const copy of [
        await sharp(original).resize(200, 150).jpeg({ quality: 50 }).toBuffer(),
        await sharp(original).resize(1280, 960).webp({ quality: 60 }).toBuffer(),
        await sharp(original).gif().toBuffer(),
      ]) {
        expect(hammingDistance(hash, (await perceptualHash(copy))!)).toBeLessThanOrEqual(PHASH_MAX_DISTANCE)
      }
    }
  })

  it('keeps clearly different images far apart', async () => {
    const hashes = await Promise.all(Array.from({ length: 20 }, async () => (await perceptualHash(await randomImage('png')))!))
    for (let a = 0; a < hashes.length; a++) {
      for (let b = a + 1; b < hashes.length; b++) expect(hammingDistance(hashes[a]!, hashes[b]!)).toBeGreaterThan(PHASH_MAX_DISTANCE)
    }
  })

  it('gives no hash to a flat image (only exact duplicates are caught there)', async () => {
    const red = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#ff0000' } }).png().toBuffer()
    expect(await perceptualHash(red)).toBeNull()
  })

  it('counts differing bits', () => {
    expect(hammingDistance('0000000000000000', '0000000000000000')).toBe(0)
    expect(hammingDistance('ffffffffffffffff', '0000000000000000')).toBe(64)
    expect(hammingDistance('8000000000000001', '0000000000000000')).toBe(2)
  })
})

describe('processImage limits', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dif-media-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))
  const file = async (name: string, data: Buffer) => {
    const path = join(dir, name)
    await writeFile(path, data)
    return path
  }

  it('hands the SHA-256 of the received bytes to beforeDecode before decoding anything', async () => {
    const data = await randomImage('png')
    const seen: string[] = []
    const image = await processImage(await file('a.png', data), { beforeDecode: sha256 => void seen.push(sha256) })
    const expected = createHash('sha256').update(data).digest('hex')
    expect(seen).toEqual([expected])
    expect(image.inputSha256).toBe(expected)
    expect(image.sha256).toBe(createHash('sha256').update(image.data).digest('hex'))
    // A PNG signature over garbage would be "Invalid image" once decoded: the check's answer comes first.
    const broken = await file('broken.png', Buffer.concat([data.subarray(0, 64), Buffer.alloc(4096, 7)]))
    await expect(processImage(broken)).rejects.toMatchObject({ statusCode: 400, message: 'Invalid image' })
    const duplicate = conflict('This image has already been uploaded', { duplicate: true, existingUploadId: 'x' })
    await expect(processImage(broken, { beforeDecode: () => Promise.reject(duplicate) })).rejects.toBe(duplicate)
  })

  it('takes the hash and type learnt while the file arrived instead of reading it again', async () => {
    const data = await randomImage('png')
    const path = await file('received.png', data)
    const image = await processImage(path, { received: { sha256: 'ab'.repeat(32), head: data.subarray(0, 4100) } })
    expect(image.inputSha256).toBe('ab'.repeat(32))
    const gifHead = (await animatedImage('gif')).subarray(0, 4100)
    expect((await processImage(path, { received: { sha256: 'ab'.repeat(32), head: gifHead } })).mime).toBe('image/gif')
    await expect(processImage(path, { received: { sha256: 'ab'.repeat(32), head: Buffer.from('plain text') } }))
      .rejects.toMatchObject({ statusCode: 400, message: 'Unsupported image type' })
  })

  it(`refuses an animation of more than ${MAX_IMAGE_FRAMES} frames from its header`, async () => {
    const path = await file('many.gif', await manyFrameGif(MAX_IMAGE_FRAMES + 1))
    await expect(processImage(path)).rejects.toMatchObject({ statusCode: 400, message: `Too many animation frames (max ${MAX_IMAGE_FRAMES})` })
    const fine = await processImage(await file('some.gif', await manyFrameGif(20)))
    expect(fine.mime).toBe('image/gif')
  })

  it('stops a pipeline that runs past the time limit: 400 Invalid image', async () => {
    // Re-encoding a 7000×7000 WebP takes seconds; the limit here is one.
    const slow = await (await randomPicture({ width: 7000, height: 7000 })).webp({ lossless: true, effort: 0 }).toBuffer()
    const path = await file('slow.webp', slow)
    await expect(processImage(path, { timeoutSeconds: 1 })).rejects.toMatchObject({ statusCode: 400, message: 'Invalid image' })
  }, 60_000)
})

describe('derivatives', () => {
  const longest = async (image: Buffer) => {
    const { width, height } = await sharp(image).metadata()
    return Math.max(width, height)
  }

  it('makes a still image\'s sizes from one decode, each byte for byte as made on its own (a strong ETag)', async () => {
    for (const side of [2000, 700]) {
      const original = await randomImage('jpeg', { width: side, height: Math.round(side * 0.75) })
      const together = await derivativesOf(original, ['small', 'medium', 'display'])
      const alone = await Promise.all((['small', 'medium', 'display'] as const).map(size => derivativeOf(original, size)))
      expect(together.map(made => made.equals(alone[together.indexOf(made)]!))).toEqual([true, true, true])
      // Never enlarged: a 700-pixel picture stays 700 at medium and display size.
      expect(await Promise.all(together.map(longest))).toEqual(side === 2000 ? [240, 960, 1600] : [240, 700, 700])
    }
  })

  it('keeps an animation at medium size and makes the small size a still', async () => {
    const [small, medium] = await derivativesOf(await animatedImage('gif', 3), ['small', 'medium'])
    expect((await sharp(small!).metadata()).pages ?? 1).toBe(1)
    expect((await sharp(medium!, { animated: true }).metadata()).pages).toBe(3)
  })

  it('makes the sizes ahead only once no request has used image processing for a while', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dif-ahead-'))
    try {
      const store = fsMediaStore(dir)
      const id = '0193a0b0-0000-7000-8000-000000000001'
      const filename = `${id}.jpg`
      await store.put(mediaKeys.original(filename), await randomImage('jpeg', { width: 1200, height: 900 }), 'image/jpeg')
      const path = join(dir, 'request.jpg')
      await writeFile(path, await randomImage('jpeg', { width: 2400, height: 1800 }))
      const request = processImage(path)
      while (imageQueueState().busy === 0) await new Promise(resolve => setImmediate(resolve))
      makeDerivativesAhead(store, id, filename, () => Promise.resolve(true))
      await request
      const requestDone = performance.now()
      expect(await store.read(mediaKeys.display(id))).toBeNull()
      await derivativesAheadSettled()
      expect(performance.now() - requestDone).toBeGreaterThanOrEqual(240)
      for (const size of ['small', 'medium', 'display'] as const) expect(await store.read(mediaKeys[size](id))).not.toBeNull()
      expect(imageQueueState()).toEqual({ busy: 0, waiting: 0, background: 0 })
    }
    finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
