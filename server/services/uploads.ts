import { randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import type { UploadFields } from '../../shared/schemas/uploads'
import { MAX_IMAGE_BYTES } from '../../shared/schemas/uploads'
import { uploadStats } from '../../shared/utils/rating'
import { badRequest, conflict, notFound } from '../utils/errors'
import type { Actor } from './sessions'
import { fetchImageToFile, ImageFetchError } from './image-fetch'
import { hammingDistance, mediaFile, PHASH_MAX_DISTANCE, processImage, thumbFile, writeFileAtomic, type ProcessedImage } from './media'
import { attachTags, tagsOf } from './tags'

export interface MediaOptions {
  /** <data>/media: images as <id>.<ext>, thumbnails as thumbs/<id>.webp */
  mediaDir: string
  /** <data>/tmp: request bodies and downloads while they are checked */
  tmpDir: string
  /** NUXT_IMAGE_FETCH_ALLOW_PRIVATE */
  allowPrivateFetch: boolean
}

/** The file part of a multipart upload, already streamed to a temporary file. */
export interface ReceivedFile {
  path: string
  filename: string
  size: number
}

interface UploadRow {
  id: string
  user_id: string
  filename: string | null
  original_name: string
  description: string
  upload_type: 'image' | 'link'
  external_url: string | null
  upvotes: number
  downvote_count: number
  is_private: 0 | 1
  created_at: string
  username: string
}

const UPLOAD_COLUMNS = `u.id, u.user_id, u.filename, u.original_name, u.description, u.upload_type, u.external_url,
  u.upvotes, u.downvote_count, u.is_private, u.created_at, us.username`

/** The creation subset (camelCase) answered by both upload endpoints. */
function createdUpload(row: { id: string, userId: string, filename: string | null, originalName: string, description: string, uploadType: 'image' | 'link', externalUrl: string | null, isPrivate: boolean }) {
  return { upload: row }
}

/**
 * The full Upload object (spec fields, tags, username, stats) when the viewer
 * may see it: public, or private and the viewer is its owner or an admin.
 */
export function getUploadForViewer(sqlite: Database.Database, id: string, actor: Pick<Actor, 'id' | 'isAdmin'> | null) {
  const row = sqlite.prepare(`SELECT ${UPLOAD_COLUMNS} FROM uploads u JOIN users us ON us.id = u.user_id
    WHERE u.id = ? AND (u.is_private = 0 OR u.user_id = ? OR ?)`)
    .get(id, actor?.id ?? null, actor?.isAdmin ? 1 : 0) as UploadRow | undefined
  if (!row) return null
  return { ...row, tags: tagsOf(sqlite, row.id), stats: uploadStats(row.upvotes, row.downvote_count) }
}

export type FullUpload = NonNullable<ReturnType<typeof getUploadForViewer>>

/** POST /api/upload and /api/v1/upload: a link, an uploaded image or an image fetched from a URL. */
export async function createUpload(sqlite: Database.Database, actor: Actor, input: UploadFields, file: ReceivedFile | undefined, options: MediaOptions) {
  if (input.upload_type === 'link') return createLink(sqlite, actor, input)
  if (input.upload_type === 'image') {
    if (!file) throw badRequest('File is required')
    const image = await processImage(file.path)
    return storeImage(sqlite, actor, input, image, originalFileName(file.filename), options)
  }
  const download = join(options.tmpDir, `fetch-${randomUUID()}`)
  try {
    try {
      await fetchImageToFile(input.image_url, download, { allowPrivate: options.allowPrivateFetch, maxBytes: MAX_IMAGE_BYTES })
    }
    catch (error) {
      if (!(error instanceof ImageFetchError)) throw error
      console.warn(`[upload] image_url refused or failed: ${error.message}`)
      throw badRequest('Could not fetch image')
    }
    const image = await processImage(download)
    return storeImage(sqlite, actor, input, image, lastPathSegment(input.image_url), options)
  }
  finally {
    await rm(download, { force: true })
  }
}

function createLink(sqlite: Database.Database, actor: Actor, input: Extract<UploadFields, { upload_type: 'link' }>) {
  const id = randomUUID()
  sqlite.transaction(() => {
    sqlite.prepare(`INSERT INTO uploads (id, user_id, filename, original_name, description, upload_type, external_url, is_private)
      VALUES (?, ?, NULL, ?, ?, 'link', ?, ?)`).run(id, actor.id, input.external_url, input.description, input.external_url, input.is_private ? 1 : 0)
    attachTags(sqlite, id, input.tags)
  })()
  return createdUpload({ id, userId: actor.id, filename: null, originalName: input.external_url, description: input.description, uploadType: 'link', externalUrl: input.external_url, isPrivate: input.is_private })
}

/** Duplicate check → file written atomically → row and tags in one transaction → thumbnail; undone on any failure. */
async function storeImage(sqlite: Database.Database, actor: Actor, input: { description: string, tags: string[], is_private: boolean }, image: ProcessedImage, originalName: string, options: MediaOptions) {
  refuseDuplicate(sqlite, actor.id, image)
  const id = randomUUID()
  const filename = `${id}.${image.ext}`
  const files = [mediaFile(options.mediaDir, filename), thumbFile(options.mediaDir, id)]
  let inserted = false
  try {
    await writeFileAtomic(files[0]!, image.data)
    sqlite.transaction(() => {
      refuseDuplicate(sqlite, actor.id, image) // a concurrent upload of the same image may have won meanwhile
      sqlite.prepare(`INSERT INTO uploads (id, user_id, filename, original_name, description, upload_type, external_url,
          mime_type, width, height, size_bytes, sha256, phash, is_private)
        VALUES (?, ?, ?, ?, ?, 'image', NULL, ?, ?, ?, ?, ?, ?, ?)`)
        .run(id, actor.id, filename, originalName, input.description, image.mime, image.width, image.height,
          image.data.length, image.sha256, image.phash, input.is_private ? 1 : 0)
      attachTags(sqlite, id, input.tags)
    })()
    inserted = true
    await writeFileAtomic(files[1]!, image.thumbnail)
  }
  catch (error) {
    if (inserted) sqlite.prepare('DELETE FROM uploads WHERE id = ?').run(id)
    await Promise.all(files.map(file => rm(file, { force: true })))
    throw error
  }
  return createdUpload({ id, userId: actor.id, filename, originalName, description: input.description, uploadType: 'image', externalUrl: null, isPrivate: input.is_private })
}

const withDistance = new WeakSet<Database.Database>()

/** 409 when the same picture is already a public upload or one of the caller's own. */
function refuseDuplicate(sqlite: Database.Database, userId: string, image: ProcessedImage): void {
  if (!withDistance.has(sqlite)) {
    sqlite.function('phash_distance', { deterministic: true }, (a: unknown, b: unknown) => hammingDistance(String(a), String(b)))
    withDistance.add(sqlite)
  }
  const exact = sqlite.prepare(`SELECT id FROM uploads WHERE sha256 = ? AND (is_private = 0 OR user_id = ?)
    ORDER BY created_at LIMIT 1`).pluck().get(image.sha256, userId) as string | undefined
  const similar = exact ?? (image.phash === null
    ? undefined
    : sqlite.prepare(`SELECT id FROM uploads WHERE phash IS NOT NULL AND (is_private = 0 OR user_id = ?)
        AND phash_distance(phash, ?) <= ? ORDER BY created_at LIMIT 1`).pluck().get(userId, image.phash, PHASH_MAX_DISTANCE) as string | undefined)
  if (similar) throw conflict('This image has already been uploaded', { duplicate: true, existingUploadId: similar })
}

/** PATCH /api/upload/{id}/privacy: the owner toggles; anyone else (or no such upload) gets 404. */
export function toggleUploadPrivacy(sqlite: Database.Database, id: string, actor: Actor) {
  const isPrivate = sqlite.prepare('UPDATE uploads SET is_private = 1 - is_private WHERE id = ? AND user_id = ? RETURNING is_private')
    .pluck().get(id, actor.id) as 0 | 1 | undefined
  if (isPrivate === undefined) throw notFound('Upload not found')
  return { success: true as const, upload: getUploadForViewer(sqlite, id, actor)!, is_private: isPrivate }
}

/** DELETE /api/upload/{id}: owner or admin; the row (votes and tag links cascade) and its files. */
export async function deleteUpload(sqlite: Database.Database, id: string, actor: Actor, mediaDir: string) {
  const filename = sqlite.prepare('DELETE FROM uploads WHERE id = ? AND (user_id = ? OR ?) RETURNING filename')
    .pluck().get(id, actor.id, actor.isAdmin ? 1 : 0) as string | null | undefined
  if (filename === undefined) throw notFound('Upload not found')
  if (filename) {
    await Promise.all([rm(mediaFile(mediaDir, filename), { force: true }), rm(thumbFile(mediaDir, id), { force: true })])
  }
  return { success: true as const }
}

/** The stored file behind GET /api/image/{id} (any visibility: the address is the secret), or 404. */
export function imageFileOf(sqlite: Database.Database, id: string, mediaDir: string, size: 'full' | 'thumb') {
  const row = sqlite.prepare(`SELECT filename, mime_type, sha256 FROM uploads WHERE id = ? AND upload_type = 'image' AND filename IS NOT NULL`)
    .get(id) as { filename: string, mime_type: string, sha256: string } | undefined
  if (!row) throw notFound('Image not found')
  return size === 'thumb'
    ? { path: thumbFile(mediaDir, id), contentType: 'image/webp', etag: `"${row.sha256}-thumb"` }
    : { path: mediaFile(mediaDir, row.filename), contentType: row.mime_type, etag: `"${row.sha256}"` }
}

/** The client's file name, without any folder part, at most 255 characters. */
function originalFileName(name: string): string {
  const base = name.split(/[/\\]/).pop()?.trim() ?? ''
  return [...(base || 'image')].slice(0, 255).join('')
}

/** The URL's last path segment (decoded), or its host when the path is empty. */
function lastPathSegment(address: string): string {
  const url = new URL(address)
  const segment = url.pathname.split('/').filter(Boolean).pop() ?? ''
  let decoded = segment
  try {
    decoded = decodeURIComponent(segment)
  }
  catch { /* keep it encoded */ }
  return originalFileName(decoded || url.hostname)
}
