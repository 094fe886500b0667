import { createHash, randomUUID } from 'node:crypto'
import { open, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileTypeFromBuffer } from 'file-type'
import sharp from 'sharp'
import type { OutputInfo, Sharp } from 'sharp'
import { badRequest } from './errors'

// Decoded images are never kept in libvips' operation cache: memory stays flat under load.
sharp.cache(false)

/** Largest image accepted, counting every frame of an animation (decisions.md). */
export const MAX_IMAGE_PIXELS = 50_000_000
/** Longest side of a thumbnail. */
export const THUMB_SIZE = 480
/**
 * Two images whose 64-bit dHashes differ in at most this many bits are the same
 * picture: a resized or re-encoded copy lands at 0–3 bits, unrelated photos
 * near 32. Kept small so that distinct images are never refused.
 */
export const PHASH_MAX_DISTANCE = 6

export const IMAGE_FORMATS = {
  'image/jpeg': { ext: 'jpg', format: 'jpeg' },
  'image/png': { ext: 'png', format: 'png' },
  'image/gif': { ext: 'gif', format: 'gif' },
  'image/webp': { ext: 'webp', format: 'webp' },
} as const

export type ImageMime = keyof typeof IMAGE_FORMATS

export interface ProcessedImage {
  data: Buffer
  mime: ImageMime
  ext: string
  width: number
  height: number
  sha256: string
  /** 16 hex digits, or null for a nearly flat image (too little structure to compare). */
  phash: string | null
  /** WebP of at most 480×480 (first frame), written after the row is inserted. */
  thumbnail: Buffer
}

/**
 * At most this many images are decoded at once: each large one holds tens of
 * MB inside libvips (which uses every core for one image). Later ones wait their turn.
 */
const IMAGE_SLOTS = 1
let busySlots = 0
const waitingForSlot: (() => void)[] = []

async function withImageSlot<T>(work: () => Promise<T>): Promise<T> {
  if (busySlots >= IMAGE_SLOTS) await new Promise<void>(resolve => waitingForSlot.push(resolve))
  busySlots++
  try {
    return await work()
  }
  finally {
    busySlots--
    waitingForSlot.shift()?.()
  }
}

/** The image type from the file's first bytes (never its name or declared type). */
export async function sniffImageType(path: string): Promise<ImageMime> {
  const handle = await open(path, 'r')
  try {
    const head = Buffer.alloc(4100)
    const { bytesRead } = await handle.read(head, 0, head.length, 0)
    const type = await fileTypeFromBuffer(head.subarray(0, bytesRead))
    if (!type || !(type.mime in IMAGE_FORMATS)) throw badRequest('Unsupported image type')
    return type.mime as ImageMime
  }
  finally {
    await handle.close()
  }
}

/**
 * Decodes the file under the pixel limit, auto-orients it, drops every piece of
 * metadata (EXIF, GPS, XMP; colours are converted to sRGB so no ICC profile is
 * needed) and re-encodes it in its own format, keeping animation; then hashes
 * the result (SHA-256 and a perceptual dHash).
 */
export async function processImage(path: string): Promise<ProcessedImage> {
  const mime = await sniffImageType(path)
  return withImageSlot(() => decodeAndNormalise(path, mime))
}

async function decodeAndNormalise(path: string, mime: ImageMime): Promise<ProcessedImage> {
  let pages: number
  try {
    const header = await sharp(path, { limitInputPixels: false }).metadata()
    pages = header.pages ?? 1
    if (header.width * header.height * pages > MAX_IMAGE_PIXELS) throw badRequest('Image dimensions too large')
  }
  catch (error) {
    throw isApiError(error) ? error : badRequest('Invalid image')
  }
  const { format, ext } = IMAGE_FORMATS[mime]
  let output: { data: Buffer, info: OutputInfo }
  try {
    const pipeline = sharp(path, { animated: pages > 1, limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).autoOrient()
    output = await encode(pipeline, format).toBuffer({ resolveWithObject: true })
  }
  catch (error) {
    if (String((error as Error).message).includes('pixel limit')) throw badRequest('Image dimensions too large')
    throw badRequest('Invalid image')
  }
  // The thumbnail decodes the result cheaply (shrink-on-load); the perceptual hash is taken from it.
  const thumbnail = await thumbnailOf(output.data)
  return {
    data: output.data,
    mime,
    ext,
    width: output.info.width,
    height: output.info.pageHeight ?? output.info.height,
    sha256: createHash('sha256').update(output.data).digest('hex'),
    phash: await perceptualHash(thumbnail),
    thumbnail,
  }
}

function encode(pipeline: Sharp, format: (typeof IMAGE_FORMATS)[ImageMime]['format']): Sharp {
  switch (format) {
    case 'jpeg': return pipeline.jpeg({ quality: 90 })
    case 'png': return pipeline.png({ compressionLevel: 6 })
    case 'gif': return pipeline.gif()
    case 'webp': return pipeline.webp({ quality: 90 })
  }
}

/**
 * 64-bit difference hash of an image (the pipeline passes the thumbnail): flattened on white, greyscale,
 * scaled to 72×64 and box-averaged into 9×8 cells (stable across resizes and
 * re-encodes), one bit per horizontal neighbour pair (left brighter than right).
 * Null when the 72 grey values hardly vary (flat images all hash alike).
 */
export async function perceptualHash(image: Buffer): Promise<string | null> {
  const scaled = await sharp(image).flatten({ background: '#ffffff' }).greyscale()
    .resize(72, 64, { fit: 'fill', kernel: 'linear', fastShrinkOnLoad: false }).raw().toBuffer()
  const grey = new Float64Array(72)
  for (let i = 0; i < scaled.length; i++) {
    const x = i % 72
    const y = Math.floor(i / 72)
    grey[Math.floor(y / 8) * 9 + Math.floor(x / 8)]! += scaled[i]! / 64
  }
  const mean = grey.reduce((sum, value) => sum + value, 0) / grey.length
  const spread = Math.sqrt(grey.reduce((sum, value) => sum + (value - mean) ** 2, 0) / grey.length)
  if (spread < 3) return null
  let hex = ''
  for (let nibble = 0; nibble < 16; nibble++) {
    let value = 0
    for (let bit = 0; bit < 4; bit++) {
      const i = nibble * 4 + bit
      const at = Math.floor(i / 8) * 9 + (i % 8)
      value = (value << 1) | (grey[at]! > grey[at + 1]! ? 1 : 0)
    }
    hex += value.toString(16)
  }
  return hex
}

/** Bits that differ between two 16-hex-digit hashes. */
export function hammingDistance(a: string, b: string): number {
  let count = 0
  for (let i = 0; i < 16; i++) {
    let diff = Number.parseInt(a[i] ?? '0', 16) ^ Number.parseInt(b[i] ?? '0', 16)
    while (diff) {
      count += diff & 1
      diff >>= 1
    }
  }
  return count
}

/** Writes a file so that readers never see a partial one (temp file + rename in the same folder). */
export async function writeFileAtomic(path: string, data: Buffer): Promise<void> {
  const temp = `${path}.${randomUUID()}.tmp`
  try {
    await writeFile(temp, data, { flag: 'wx' })
    await rename(temp, path)
  }
  catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

/** A WebP of at most 480×480 (first frame). */
export function thumbnailOf(image: Buffer): Promise<Buffer> {
  return sharp(image).resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toBuffer()
}

export const mediaFile = (mediaDir: string, filename: string) => join(mediaDir, filename)
export const thumbFile = (mediaDir: string, uploadId: string) => join(mediaDir, 'thumbs', `${uploadId}.webp`)

function isApiError(error: unknown): boolean {
  return typeof (error as { statusCode?: unknown })?.statusCode === 'number'
}
