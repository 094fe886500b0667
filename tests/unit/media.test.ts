import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { hammingDistance, perceptualHash as hashOf, PHASH_MAX_DISTANCE, thumbnailOf } from '../../server/services/media'
import { randomImage } from '../support/images'

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
