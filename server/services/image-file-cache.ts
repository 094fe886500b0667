import { IMAGE_SIZES, type ImageSize } from '../../shared/utils/upload-limits'

/** What GET /api/image/{id} answers from, for one upload and size. */
export interface ImageFile {
  /** The media key (uploadMediaKeys). */
  key: string
  contentType: string
  /** Strong ETag, quoted: the original's SHA-256, with `-<size>` for a derivative. */
  etag: string
  /** The file's length once it has been opened here, so later answers need no stat. */
  bytes?: number
  /** Makes a missing derivative (none for the original). */
  remake?: () => Promise<void>
}

/**
 * An id's files never change: an upload's image is written once, and a
 * derivative made again is made from the same image. So what the route needs
 * besides the bytes (key, type, ETag, length) is kept here after the first
 * request, and a conditional request is answered 304 with no database query
 * and no file system call. An entry goes when its upload is deleted in this
 * process, and after at most a minute anyway, since another instance sharing
 * the database and bucket may have deleted it (until then such a 304 only
 * confirms a copy the client already holds; a full answer finds no file: 404).
 */
const TTL_MS = 60_000
/** Entries kept at most (oldest dropped first); each is a few hundred bytes. */
const MAX_ENTRIES = 20_000

const entries = new Map<string, { file: ImageFile, until: number }>()

const entryKey = (id: string, size: ImageSize | 'full') => `${id}:${size}`

/** The remembered file of `id` at `size`, if it is fresh. */
export function knownImageFile(id: string, size: ImageSize | 'full'): ImageFile | undefined {
  const entry = entries.get(entryKey(id, size))
  if (!entry) return undefined
  if (entry.until > Date.now()) return entry.file
  entries.delete(entryKey(id, size))
  return undefined
}

/** Remembers `file` as the file of `id` at `size` and returns it. */
export function rememberImageFile(id: string, size: ImageSize | 'full', file: ImageFile): ImageFile {
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!)
  entries.set(entryKey(id, size), { file, until: Date.now() + TTL_MS })
  return file
}

/** Every size an entry may be kept for: the original and each derivative. */
const KEPT_SIZES: readonly (ImageSize | 'full')[] = ['full', ...Object.keys(IMAGE_SIZES) as ImageSize[]]

/** Forgets every size of `id` (its upload is being deleted), a size added to IMAGE_SIZES too. */
export function forgetImageFiles(id: string): void {
  for (const size of KEPT_SIZES) entries.delete(entryKey(id, size))
}
