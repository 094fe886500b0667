import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import { fileTypeFromBuffer } from 'file-type'
import sharp from 'sharp'
import type { OutputInfo, Sharp } from 'sharp'
import { DISPLAY_SIZE, IMAGE_SIZES, THUMB_SIZE, type ImageSize } from '../../shared/utils/upload-limits'
import { apiError, badRequest } from './errors'
import { countImageWait } from './metrics'
import { mediaKeys, type MediaStore } from './media-store'

// Decoded images are never kept in libvips' operation cache: memory stays flat under load.
sharp.cache(false)

/** Largest image accepted, counting every frame of an animation (docs/behaviour.md, Uploads and media). */
export const MAX_IMAGE_PIXELS = 50_000_000
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
  /** SHA-256 of the stored (normalised) bytes. */
  sha256: string
  /** SHA-256 of the bytes as received, before decoding. */
  inputSha256: string
  /** 16 hex digits, or null for a nearly flat image (too little structure to compare). */
  phash: string | null
  /** WebP of at most 480×480 (first frame), written with the image before the row is inserted. */
  thumbnail: Buffer
}

/** Most frames an animation may have: each one is decoded and re-encoded. */
export const MAX_IMAGE_FRAMES = 500
/** Longest libvips may work on one pipeline of one image (decode + encode, thumbnail, hash). */
export const IMAGE_JOB_SECONDS = 15
/** Images that may wait for the slot; the next one is refused with 503 and Retry-After. */
export const IMAGE_QUEUE_LIMIT = 4
/** Longest an image waits for its turn before the caller gets 503 and Retry-After. */
export const IMAGE_QUEUE_WAIT_MS = 30_000

/**
 * At most this many images are decoded at once: each large one holds tens of
 * MB inside libvips, which works on one image with one thread here (sharp's
 * default on glibc), so two slots keep two cores busy. Later ones wait their
 * turn in a bounded queue, for a bounded time, so one caller's heavy images
 * delay others by at most the queue's length of bounded jobs.
 */
const IMAGE_SLOTS = 2
let busySlots = 0
const waitingForSlot: (() => void)[] = []
/** Seconds one job has been taking lately (moving average), for Retry-After. */
let recentJobSeconds = 1

/** 503 with the seconds after which the queue has likely drained (docs/behaviour.md, Errors). */
function imageQueueBusy() {
  const retryAfter = Math.min(60, Math.max(1, Math.ceil(recentJobSeconds * (waitingForSlot.length + IMAGE_SLOTS) / IMAGE_SLOTS)))
  return apiError(503, 'Image processing is busy, please try again later', { retryAfter })
}

async function withImageSlot<T>(work: () => Promise<T>, priority: 'request' | 'background' = 'request'): Promise<T> {
  const request = priority === 'request'
  await (request ? takeImageSlot() : takeImageSlotWhenIdle())
  const started = performance.now()
  try {
    return await work()
  }
  finally {
    recentJobSeconds = 0.8 * recentJobSeconds + 0.2 * ((performance.now() - started) / 1000)
    releaseImageSlot(request)
  }
}

/** A free slot at once, else a place in the queue (503 when it is full or the wait runs out). */
function takeImageSlot(): Promise<void> {
  if (busySlots < IMAGE_SLOTS) {
    busySlots++
    countImageWait(0)
    return Promise.resolve()
  }
  if (waitingForSlot.length >= IMAGE_QUEUE_LIMIT) {
    countImageWait(null)
    return Promise.reject(imageQueueBusy())
  }
  const queued = performance.now()
  return new Promise<void>((resolve, reject) => {
    const turn = () => {
      clearTimeout(timer)
      countImageWait((performance.now() - queued) / 1000)
      resolve()
    }
    const timer = setTimeout(() => {
      const place = waitingForSlot.indexOf(turn)
      if (place >= 0) waitingForSlot.splice(place, 1)
      countImageWait(null)
      reject(imageQueueBusy())
    }, IMAGE_QUEUE_WAIT_MS)
    waitingForSlot.push(turn)
  })
}

/**
 * Background work (derivatives made ahead of their first request) runs one
 * job at a time, and only once no request has held or waited for a slot for
 * `QUIET_MS`: during a burst of uploads every core goes to the uploads, and
 * the sizes follow when it ends (a page asking first makes its size on
 * request). A request arriving meanwhile finds the other slot free.
 * Background work has no time limit and no place in the request queue.
 */
const waitingWhenIdle: (() => void)[] = []
const QUIET_MS = 250
let lastRequestAt = 0
let quietTimer: ReturnType<typeof setTimeout> | null = null

function takeImageSlotWhenIdle(): Promise<void> {
  return new Promise<void>((resolve) => {
    waitingWhenIdle.push(resolve)
    startBackgroundWhenQuiet()
  })
}

/** Hands the slot to the next background job once requests have been quiet for `QUIET_MS`. */
function startBackgroundWhenQuiet(): void {
  if (quietTimer || busySlots > 0 || waitingForSlot.length > 0 || waitingWhenIdle.length === 0) return
  const wait = lastRequestAt + QUIET_MS - performance.now()
  if (wait > 0) {
    quietTimer = setTimeout(() => {
      quietTimer = null
      startBackgroundWhenQuiet()
    }, wait)
    quietTimer.unref?.()
    return
  }
  busySlots++
  waitingWhenIdle.shift()!()
}

/** The slot passes straight to the next request in line, so no newcomer can take it in between. */
function releaseImageSlot(request: boolean): void {
  if (request) lastRequestAt = performance.now()
  const next = waitingForSlot.shift()
  if (next) {
    next()
    return
  }
  busySlots--
  startBackgroundWhenQuiet()
}

/** The image slot and its queues now, for the metrics: slots in use, requests waiting, background jobs waiting. */
export function imageQueueState(): { busy: number, waiting: number, background: number } {
  return { busy: busySlots, waiting: waitingForSlot.length, background: waitingWhenIdle.length + aheadQueue.length }
}

/** The image type from the file's first bytes (never its name or declared type). */
export async function sniffImageType(path: string): Promise<ImageMime> {
  const handle = await open(path, 'r')
  try {
    const head = Buffer.alloc(RECEIVED_HEAD_BYTES)
    const { bytesRead } = await handle.read(head, 0, head.length, 0)
    return await imageTypeOf(head.subarray(0, bytesRead))
  }
  finally {
    await handle.close()
  }
}

/** The image type from a file's first RECEIVED_HEAD_BYTES bytes, else 400 Unsupported image type. */
async function imageTypeOf(head: Buffer): Promise<ImageMime> {
  const type = await fileTypeFromBuffer(head)
  if (!type || !(type.mime in IMAGE_FORMATS)) throw badRequest('Unsupported image type')
  return type.mime as ImageMime
}

/** What was learnt of a file's bytes as they arrived, so nothing reads the file again for it. */
export interface ReceivedBytes {
  /** SHA-256 (hex) of every byte. */
  sha256: string
  /** The first bytes (up to RECEIVED_HEAD_BYTES), enough to tell the type. */
  head: Buffer
}

/** Bytes kept from the start of a file: what file-type reads to tell an image's type. */
export const RECEIVED_HEAD_BYTES = 4100

export interface ProcessOptions {
  /**
   * Called with the SHA-256 of the received bytes before anything is decoded;
   * throwing (say, a 409 for an exact duplicate) stops the job before it takes
   * a place in the queue.
   */
  beforeDecode?: (inputSha256: string) => void | Promise<void>
  /** Per-pipeline time limit in seconds (IMAGE_JOB_SECONDS). */
  timeoutSeconds?: number
  /** The file's hash and first bytes, taken as it was received: then the file is not read again for them. */
  received?: ReceivedBytes
}

/**
 * Sniffs the type, hashes the received bytes (`beforeDecode` sees that hash),
 * then, in its turn, decodes the file under the pixel and frame limits,
 * auto-orients it, drops every piece of metadata (EXIF, GPS, XMP; colours are
 * converted to sRGB so no ICC profile is needed) and re-encodes it in its own
 * format, keeping animation; then hashes the result (SHA-256 and a perceptual
 * dHash). Every libvips pipeline stops after `timeoutSeconds` (400 Invalid image).
 */
export async function processImage(path: string, options: ProcessOptions = {}): Promise<ProcessedImage> {
  const { received } = options
  const mime = received ? await imageTypeOf(received.head) : await sniffImageType(path)
  const inputSha256 = received?.sha256 ?? await sha256OfFile(path)
  await options.beforeDecode?.(inputSha256)
  const image = await withImageSlot(() => decodeAndNormalise(path, mime, options.timeoutSeconds ?? IMAGE_JOB_SECONDS))
  return { ...image, inputSha256 }
}

/** SHA-256 (hex) of a file's bytes, read as a stream. */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

async function decodeAndNormalise(path: string, mime: ImageMime, timeoutSeconds: number): Promise<Omit<ProcessedImage, 'inputSha256'>> {
  let pages: number
  try {
    const header = await sharp(path, { limitInputPixels: false }).metadata()
    pages = header.pages ?? 1
    if (pages > MAX_IMAGE_FRAMES) throw badRequest(`Too many animation frames (max ${MAX_IMAGE_FRAMES})`)
    if (header.width * header.height * pages > MAX_IMAGE_PIXELS) throw badRequest('Image dimensions too large')
  }
  catch (error) {
    throw isApiError(error) ? error : badRequest('Invalid image')
  }
  const { format, ext } = IMAGE_FORMATS[mime]
  const limit = { seconds: timeoutSeconds }
  let output: { data: Buffer, info: OutputInfo }
  let thumbnail: Buffer
  let phash: string | null
  let sha256: string
  try {
    const pipeline = sharp(path, { animated: pages > 1, limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).autoOrient()
    output = await encode(pipeline, format).timeout(limit).toBuffer({ resolveWithObject: true })
    // The thumbnail decodes the result cheaply (shrink-on-load); the perceptual hash is taken from it.
    const thumbnailMade = thumbnailOf(output.data, limit)
    // Hashed here while libvips makes the thumbnail on its own thread.
    sha256 = createHash('sha256').update(output.data).digest('hex')
    thumbnail = await thumbnailMade
    phash = await perceptualHash(thumbnail, limit)
  }
  catch (error) {
    if (String((error as Error).message).includes('pixel limit')) throw badRequest('Image dimensions too large')
    // A corrupt file, or one that takes libvips longer than the limit ("timeout: ...").
    throw badRequest('Invalid image')
  }
  return {
    data: output.data,
    mime,
    ext,
    width: output.info.width,
    height: output.info.pageHeight ?? output.info.height,
    sha256,
    phash,
    thumbnail,
  }
}

function encode(pipeline: Sharp, format: (typeof IMAGE_FORMATS)[ImageMime]['format']): Sharp {
  switch (format) {
    case 'jpeg': return pipeline.jpeg({ quality: 90, optimiseCoding: false })
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
export async function perceptualHash(image: Buffer, limit: { seconds: number } = { seconds: IMAGE_JOB_SECONDS }): Promise<string | null> {
  const scaled = await sharp(image).flatten({ background: '#ffffff' }).greyscale()
    .resize(72, 64, { fit: 'fill', kernel: 'linear', fastShrinkOnLoad: false }).raw().timeout(limit).toBuffer()
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

/** A WebP of at most 480×480 (first frame). */
export function thumbnailOf(image: Buffer, limit: { seconds: number } = { seconds: IMAGE_JOB_SECONDS }): Promise<Buffer> {
  return sharp(image).resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).timeout(limit).toBuffer()
}

/** Derivatives being made, by key, so concurrent requests share one job. */
const making = new Map<string, Promise<void>>()

export interface DerivativeOptions {
  /**
   * Whether the upload still exists, asked once the derivative is written:
   * an upload deleted meanwhile (on any instance) would otherwise keep a file
   * that nothing removes, so it is removed again.
   */
  stillExists?: () => Promise<boolean>
  /** The stored image's bytes when the caller holds them already. */
  original?: Buffer
  /** `background`: waits behind every request for the image slot (derivatives made ahead). */
  priority?: 'request' | 'background'
}

/**
 * Makes a missing derivative (small, thumbnail, medium or display size) from
 * the stored image, in the image slot (503 when the queue is full), and stores
 * it. Rejects when the stored image itself cannot be read.
 */
export function makeDerivative(store: MediaStore, uploadId: string, filename: string, size: ImageSize, options: DerivativeOptions = {}): Promise<void> {
  return makeDerivatives(store, uploadId, filename, [size], options)
}

/**
 * Makes several sizes of one upload in one turn of the image slot, from one
 * decode of a still image (derivativesOf), and stores each. A size some
 * other job is making already is left to it.
 */
function makeDerivatives(store: MediaStore, uploadId: string, filename: string, sizes: readonly ImageSize[], options: DerivativeOptions): Promise<void> {
  const running = sizes.map(size => making.get(mediaKeys[size](uploadId))).filter(job => job !== undefined)
  const missing = sizes.filter(size => !making.has(mediaKeys[size](uploadId)))
  const targets = missing.map(size => mediaKeys[size](uploadId))
  if (missing.length > 0) {
    const job = (async () => {
      // Only the decoding holds the image slot, not the reads and writes around it.
      const original = options.original ?? await store.read(mediaKeys.original(filename))
      if (!original) throw new Error(`The stored image ${filename} is missing`)
      const made = await withImageSlot(() => derivativesOf(original, missing), options.priority)
      await Promise.all(targets.map((target, i) => store.put(target, made[i]!, 'image/webp')))
      if (options.stillExists && !await options.stillExists()) await store.remove(targets)
    })().finally(() => {
      for (const target of targets) making.delete(target)
    })
    for (const target of targets) making.set(target, job)
    running.push(job)
  }
  return Promise.all(running).then(() => undefined)
}

/** The derivatives made ahead of their first request: every size a page asks for (the thumbnail comes with the upload). */
export const AHEAD_SIZES = ['small', 'medium', 'display'] as const satisfies readonly ImageSize[]

/** Uploads waiting for their derivatives, made one upload at a time; beyond this many, later ones are made on request. */
const AHEAD_QUEUE_LIMIT = 1000
const aheadQueue: { store: MediaStore, uploadId: string, filename: string, stillExists: () => Promise<boolean> }[] = []
let aheadRunning: Promise<void> | null = null

/**
 * Queues the derivatives of a new upload, made in the background at the
 * lowest priority, so the first page showing it finds every size ready. The
 * caller does not wait; a failure only leaves a size to be made on request.
 */
export function makeDerivativesAhead(store: MediaStore, uploadId: string, filename: string, stillExists: () => Promise<boolean>): void {
  if (aheadQueue.length >= AHEAD_QUEUE_LIMIT) return
  aheadQueue.push({ store, uploadId, filename, stillExists })
  aheadRunning ??= runAheadQueue().finally(() => {
    aheadRunning = null
  })
}

/** Resolves once every queued derivative has been made (or has failed). */
export async function derivativesAheadSettled(): Promise<void> {
  while (aheadRunning) await aheadRunning
}

async function runAheadQueue(): Promise<void> {
  for (let next = aheadQueue.shift(); next; next = aheadQueue.shift()) {
    const { store, uploadId, filename, stillExists } = next
    try {
      const original = await store.read(mediaKeys.original(filename))
      if (!original) continue
      await makeDerivatives(store, uploadId, filename, AHEAD_SIZES, { original, stillExists, priority: 'background' })
    }
    catch (error) {
      console.warn(`[media] could not make the sizes of upload ${uploadId} ahead: ${(error as Error).message}`)
    }
  }
}

function isApiError(error: unknown): boolean {
  return typeof (error as { statusCode?: unknown })?.statusCode === 'number'
}

/**
 * A derivative as WebP, never enlarged: `thumb` and `small` are stills (the
 * first frame, like the thumbnail made with the upload); `medium` and
 * `display` keep an animation. A still image's small, medium and display
 * sizes are each scaled from the image as scaled to the display size: those
 * pixels are decoded once for all of them (derivativesOf), and a size made
 * again on its own comes out byte for byte the same (its ETag is strong).
 */
export async function derivativeOf(original: Buffer, size: ImageSize): Promise<Buffer> {
  const [made] = await derivativesOf(original, [size])
  return made!
}

/** `sizes` of one image (derivativeOf), in their order. */
export async function derivativesOf(original: Buffer, sizes: readonly ImageSize[]): Promise<Buffer[]> {
  const limit = { seconds: IMAGE_JOB_SECONDS }
  const { pages = 1 } = await sharp(original, { limitInputPixels: false }).metadata()
  let display: Promise<{ data: Buffer, info: OutputInfo }> | undefined
  const displayPixels = () => display ??= sharp(original, { limitInputPixels: MAX_IMAGE_PIXELS })
    .resize(DISPLAY_SIZE, DISPLAY_SIZE, { fit: 'inside', withoutEnlargement: true }).raw().timeout(limit).toBuffer({ resolveWithObject: true })
  const made: Buffer[] = []
  for (const size of sizes) {
    if (size === 'thumb') {
      made.push(await thumbnailOf(original, limit))
      continue
    }
    const side = IMAGE_SIZES[size]
    const still = size === 'small'
    let source: Sharp
    if (pages > 1) source = sharp(original, { animated: !still, limitInputPixels: MAX_IMAGE_PIXELS })
    else {
      const { data, info } = await displayPixels()
      source = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    }
    made.push(await source.resize(side, side, { fit: 'inside', withoutEnlargement: true }).webp({ quality: still ? 80 : 82 }).timeout(limit).toBuffer())
  }
  return made
}
