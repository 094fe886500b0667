import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { forgetImageFiles, knownImageFile, rememberImageFile } from '../../server/services/image-file-cache'
import { IMAGE_SIZES, type ImageSize } from '../../shared/utils/upload-limits'

describe('image file cache', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('keeps a file per id and size, forgets every size of an id, and keeps nothing past a minute', () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') })
    const id = randomUUID()
    const other = randomUUID()
    const full = { key: `${id}.png`, contentType: 'image/png', etag: '"a"' }
    const small = { key: `small/${id}.webp`, contentType: 'image/webp', etag: '"a-small"' }
    expect(rememberImageFile(id, 'full', full)).toBe(full)
    rememberImageFile(id, 'small', small)
    rememberImageFile(other, 'thumb', { key: `thumbs/${other}.webp`, contentType: 'image/webp', etag: '"b-thumb"' })
    expect(knownImageFile(id, 'full')).toBe(full)
    expect(knownImageFile(id, 'small')).toBe(small)
    expect(knownImageFile(id, 'medium')).toBeUndefined()

    forgetImageFiles(id)
    expect(knownImageFile(id, 'full')).toBeUndefined()
    expect(knownImageFile(id, 'small')).toBeUndefined()
    expect(knownImageFile(other, 'thumb')?.etag).toBe('"b-thumb"')

    vi.advanceTimersByTime(59_999)
    expect(knownImageFile(other, 'thumb')).toBeDefined()
    vi.advanceTimersByTime(1)
    expect(knownImageFile(other, 'thumb')).toBeUndefined()
  })

  it('forgets the original and every size IMAGE_SIZES names', () => {
    const id = randomUUID()
    const sizes = ['full', ...Object.keys(IMAGE_SIZES)] as (ImageSize | 'full')[]
    for (const size of sizes) rememberImageFile(id, size, { key: `${size}/${id}`, contentType: 'image/webp', etag: `"${size}"` })
    expect(sizes.map(size => knownImageFile(id, size)?.etag)).toEqual(sizes.map(size => `"${size}"`))
    forgetImageFiles(id)
    expect(sizes.map(size => knownImageFile(id, size))).toEqual(sizes.map(() => undefined))
  })
})
