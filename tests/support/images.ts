import { randomBytes } from 'node:crypto'
import { deflateSync } from 'node:zlib'
import sharp from 'sharp'
import type { Sharp } from 'sharp'

export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp'

export const MIME: Record<ImageFormat, string> = { jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' }

/**
 * A picture no other test produces: a 16×12 grid of random colours scaled up,
 * so its perceptual hash is unrelated to every other generated image.
 */
export async function randomPicture(options: { width?: number, height?: number, seed?: Buffer } = {}): Promise<Sharp> {
  const width = options.width ?? 320
  const height = options.height ?? 240
  const cells = options.seed ?? randomBytes(16 * 12 * 3)
  return sharp(cells, { raw: { width: 16, height: 12, channels: 3 } }).resize(width, height, { kernel: 'nearest', fit: 'fill' })
}

/** A unique image in `format`. */
export async function randomImage(format: ImageFormat, options: { width?: number, height?: number, seed?: Buffer } = {}): Promise<Buffer> {
  const picture = await randomPicture(options)
  // Re-open from PNG so the encoder sees a plain image (resize + format in one pipeline is fine too).
  const png = await picture.png().toBuffer()
  return sharp(png).toFormat(format, format === 'jpeg' ? { quality: 90 } : {}).toBuffer()
}

/** An animated GIF (or WebP) of `frames` unique frames. */
export async function animatedImage(format: 'gif' | 'webp', frames = 3): Promise<Buffer> {
  const pages = await Promise.all(Array.from({ length: frames }, () => randomImage('png', { width: 120, height: 90 })))
  return sharp(pages, { join: { animated: true } }).toFormat(format).toBuffer()
}

/**
 * A small animated GIF of many frames (a few distinct 32×32 tiles repeated):
 * tiny on the wire, but every frame is decoded and re-encoded when processed.
 */
export async function manyFrameGif(frames: number): Promise<Buffer> {
  const tiles = await Promise.all(Array.from({ length: 16 }, () => randomImage('png', { width: 32, height: 32 })))
  return sharp(Array.from({ length: frames }, (_, i) => tiles[i % tiles.length]!), { join: { animated: true } }).gif().toBuffer()
}

/** A JPEG with EXIF GPS coordinates, a camera make and an orientation tag (6 = rotate 90° clockwise). */
export async function jpegWithGps(options: { width?: number, height?: number } = {}): Promise<Buffer> {
  const png = await (await randomPicture({ width: options.width ?? 300, height: options.height ?? 200 })).png().toBuffer()
  return sharp(png)
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'GPS-1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 90 })
    .toBuffer()
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

function crc32(data: Buffer): number {
  let crc = ~0
  for (const byte of data) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xEDB88320 & -(crc & 1))
  }
  return ~crc >>> 0
}

/**
 * A valid, tiny PNG of `width`×`height` 1-bit grey pixels (a 20000×20000 one
 * is about 50 kB), built by hand so the test never holds the decoded pixels.
 */
export function hugePng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([1, 0, 0, 0, 0], 8) // bit depth 1, greyscale, deflate, no filter, no interlace
  const row = Math.ceil(width / 8) + 1
  const raw = Buffer.alloc(row * height) // all zero: filter byte 0 and black pixels
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

/** A multipart body for the upload endpoints. */
export function uploadForm(fields: Record<string, string>, file?: { data: Buffer | Uint8Array, name?: string, type?: string }): FormData {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  if (file) form.append('file', new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }), file.name ?? 'image.bin')
  return form
}
