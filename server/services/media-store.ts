import { randomUUID } from 'node:crypto'
import { close as closeFd, constants, createReadStream, fstat, mkdirSync, open as openFd } from 'node:fs'
import { access, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Readable } from 'node:stream'

/**
 * Where media live: a folder (`<data>/media`, the default) or an S3 bucket
 * (media-store-s3.ts). Both hold the same keys (mediaKeys); nothing outside
 * this interface knows which one is in use.
 */
export interface MediaStore {
  /** The folder or the bucket, for log lines and start-up errors. */
  readonly name: string
  /**
   * Several instances share it (a bucket): a `pending/` marker may belong to
   * an upload still in flight on another instance.
   */
  readonly shared: boolean
  /**
   * Longest one request takes to be answered or given up on (a bucket's
   * NUXT_S3_ANSWER_SECONDS): a write given up on may still land until then,
   * and a removal under way is not tried again by another instance before.
   */
  readonly answerMs: number
  /** Writes an object whole: readers see the old one, or none, until it is complete. */
  put: (key: string, data: Buffer, contentType: string) => Promise<void>
  /**
   * The object as a stream with its size, or null when there is none. `size`,
   * when the caller already knows it (objects never change), spares a folder
   * the stat.
   */
  open: (key: string, size?: number) => Promise<{ body: Readable, size: number } | null>
  /** The object's bytes, or null when there is none. */
  read: (key: string) => Promise<Buffer | null>
  /** Removes the objects; a missing one is no error. */
  remove: (keys: string[]) => Promise<void>
  /** Every key under `prefix` (e.g. `pending/`) with when it was last written. */
  list: (prefix: string) => Promise<{ key: string, modified: Date }[]>
  /** Throws, with a sentence naming the folder or bucket, when it cannot be written to. */
  check: () => Promise<void>
}

/**
 * A bucket's answer time when NUXT_S3_ANSWER_SECONDS is unset, and a folder's
 * (it has no clock of its own, so the waits that depend on it are the same).
 */
export const DEFAULT_ANSWER_MS = 15_000

/** The keys of an upload's media, the same in a folder and in a bucket. */
export const mediaKeys = {
  /** The stored image, `<upload id>.<ext>` (the row's `filename`). */
  original: (filename: string) => filename,
  small: (uploadId: string) => `small/${uploadId}.webp`,
  thumb: (uploadId: string) => `thumbs/${uploadId}.webp`,
  medium: (uploadId: string) => `medium/${uploadId}.webp`,
  display: (uploadId: string) => `display/${uploadId}.webp`,
  /** Names the files of an upload whose row has not committed yet (holds the filename). */
  pending: (uploadId: string) => `pending/${uploadId}`,
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
/** A key this site writes (an image, a derivative, a pending marker), and no other. */
export const MEDIA_KEY = new RegExp(`^(${UUID}\\.(jpg|png|gif|webp)|(small|thumbs|medium|display)/${UUID}\\.webp|pending/${UUID})$`)

/** Every key an upload may have (original, then its derivatives smallest first). */
export const uploadMediaKeys = (uploadId: string, filename: string) =>
  [mediaKeys.original(filename), ...derivativeKeys(uploadId)]

/** The keys of an upload's derivatives (small, thumbnail, medium, display size). */
export const derivativeKeys = (uploadId: string) =>
  [mediaKeys.small(uploadId), mediaKeys.thumb(uploadId), mediaKeys.medium(uploadId), mediaKeys.display(uploadId)]

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

/** Largest read of a file being sent (a thumbnail in one read, a 1.4 MB image in three). */
const READ_CHUNK = 512 * 1024

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT'

/** Media as files under `dir` (`<data>/media`): images, small/, thumbs/, medium/, display/, pending/. */
export function fsMediaStore(dir: string): MediaStore {
  for (const folder of ['small', 'thumbs', 'medium', 'display', 'pending']) mkdirSync(join(dir, folder), { recursive: true })
  const path = (key: string) => join(dir, key)
  return {
    name: dir,
    shared: false,
    answerMs: DEFAULT_ANSWER_MS,
    put: (key, data) => writeFileAtomic(path(key), data),
    async open(key, knownSize) {
      // One open (no separate stat when the size is known), then reads of the whole
      // file in as few chunks as fit READ_CHUNK, none past its end. Callback fs calls,
      // as fs streams use them: cheaper per request than FileHandle promises.
      const fd = await new Promise<number | null>((resolve, reject) => {
        openFd(path(key), 'r', (error, fd) => error ? (isMissing(error) ? resolve(null) : reject(error)) : resolve(fd))
      })
      if (fd === null) return null
      const size = knownSize ?? await new Promise<number>((resolve, reject) => {
        fstat(fd, (error, stats) => error ? closeFd(fd, () => reject(error)) : resolve(stats.size))
      })
      const body = createReadStream('', size > 0 ? { fd, start: 0, end: size - 1, highWaterMark: Math.min(size, READ_CHUNK) } : { fd })
      return { body, size }
    },
    async read(key) {
      try {
        return await readFile(path(key))
      }
      catch (error) {
        if (isMissing(error)) return null
        throw error
      }
    },
    async remove(keys) {
      await Promise.all(keys.map(key => rm(path(key), { recursive: true, force: true })))
    },
    async list(prefix) {
      const folder = dirname(path(`${prefix}x`))
      let names: string[]
      try {
        names = await readdir(folder)
      }
      catch (error) {
        if (isMissing(error)) return []
        throw error
      }
      return Promise.all(names.map(async (name) => {
        const modified = (await stat(join(folder, name)).catch(() => null))?.mtime ?? new Date(0)
        return { key: `${prefix}${name}`, modified }
      }))
    },
    async check() {
      try {
        await access(dir, constants.W_OK)
      }
      catch {
        throw new Error(`the media folder ${dir} is not writable`)
      }
    },
  }
}
