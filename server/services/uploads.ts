import type { ContentRating } from '../../shared/utils/content-rating'
import { randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import type { UploadFields } from '../../shared/schemas/uploads'
import { MAX_IMAGE_BYTES, type ImageSize } from '../../shared/utils/upload-limits'
import type { Executor, Row } from '../database/port'
import type { uploads } from '../database/schema-postgres'
import { dialects, FOR_UPDATE, inList, sql, type Query } from '../database/sql'
import { bannedImage, bannedImageMatch, banUploadImage, refuseBannedBytes } from './banned-media'
import { badRequest, conflict, notFound } from './errors'
import type { KeepAnswer } from './request-keys'
import type { Actor } from './sessions'
import { fetchImageToFile, ImageFetchError } from './image-fetch'
import { knownImageFile, rememberImageFile, type ImageFile } from './image-file-cache'
import { makeDerivative, makeDerivativesAhead, PHASH_MAX_DISTANCE, processImage, type ProcessedImage, type ReceivedBytes } from './media'
import { claimMs, recordMediaDeletion, removeDeletedMedia } from './media-deletions'
import { mediaKeys, uploadMediaKeys, type MediaStore } from './media-store'
import { linkNewTags, newTagIds, resolveNewTags, tagsFrom } from './upload-tags'
import { creationRevision } from './upload-revisions'
import { visibleTo } from './upload-queries'
import { toFullUpload, UPLOAD_COLUMNS, type UploadRow } from './lists'

export interface MediaOptions {
  /** Images as <id>.<ext>, thumbnails as thumbs/<id>.webp, unfinished uploads in pending/ (`<data>/media` or a bucket) */
  store: MediaStore
  /** <data>/tmp: request bodies and downloads while they are checked */
  tmpDir: string
  /** NUXT_IMAGE_FETCH_ALLOW_PRIVATE */
  allowPrivateFetch: boolean
}

/** The file part of a multipart upload, already streamed to a temporary file, hashed and sniffed on the way. */
export interface ReceivedFile {
  path: string
  filename: string
  size: number
  received: ReceivedBytes
}

/** The creation subset (camelCase) answered by both upload endpoints. */
function createdUpload(row: { id: string, userId: string, filename: string | null, originalName: string, description: string, uploadType: 'image' | 'link', externalUrl: string | null, isPrivate: boolean, rating: ContentRating }) {
  return { upload: row }
}

/**
 * The full Upload object (spec fields, tags, username, stats) when the viewer
 * may see it: public, or private and the viewer is its owner or an admin.
 */
export async function getUploadForViewer(db: Executor, id: string, actor: Pick<Actor, 'id' | 'isAdmin'> | null) {
  const row = await db.get<UploadRow>(sql`${selectFullUpload(actor, sql`uploads`)} WHERE u.id = ${id} AND ${visibleTo(actor)}`)
  return row ? fullUploadOf(db, row) : null
}

/**
 * The full upload's columns from `source` (uploads, or a statement's rows
 * with their columns) as `u`, with its owner's name and, for a signed-in
 * viewer, whether they have it as a favourite.
 */
export function selectFullUpload(actor: Pick<Actor, 'id'> | null, source: Query): Query {
  const favourited = actor
    ? sql`, CASE WHEN EXISTS (SELECT 1 FROM favourites f WHERE f.user_id = ${actor.id} AND f.upload_id = u.id) THEN 1 ELSE 0 END AS favourited`
    : sql.raw('')
  return sql`SELECT ${UPLOAD_COLUMNS}, us.username${favourited} FROM ${source} u JOIN users us ON us.id = u.user_id`
}

/** The full upload of a row selected by selectFullUpload. */
export const fullUploadOf = async (db: Executor, row: UploadRow) => toFullUpload(row, await tagsFrom(db, row.tag_ids))

export type FullUpload = NonNullable<Awaited<ReturnType<typeof getUploadForViewer>>>

/** POST /api/upload and /api/v1/upload: a link, an uploaded image or an image fetched from a URL. */
export async function createUpload(db: Executor, actor: Actor, input: UploadFields, file: ReceivedFile | undefined, options: MediaOptions, keep?: KeepAnswer) {
  if (input.upload_type === 'link') return createLink(db, actor, input, keep)
  if (input.upload_type === 'image') {
    if (!file) throw badRequest('File is required')
    const image = await processImage(file.path, { received: file.received, beforeDecode: sha256 => refuseKnownBytes(db, actor.id, sha256) })
    return storeImage(db, actor, input, image, originalFileName(file.filename), options, keep)
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
    const image = await processImage(download, { beforeDecode: sha256 => refuseKnownBytes(db, actor.id, sha256) })
    return storeImage(db, actor, input, image, lastPathSegment(input.image_url), options, keep)
  }
  finally {
    await rm(download, { force: true })
  }
}

/**
 * A new upload's row, its revision 1 and its tags, inside its transaction:
 * the tags resolved first, the row inserted with their ids (`insert` given
 * its `tag_ids`) and its revision (one statement on PostgreSQL), the tags
 * linked last (upload-tags.ts, resolveNewTags).
 */
async function insertNewUpload(tx: Executor, upload: { id: string, userId: string, description: string, externalUrl: string | null, rating: ContentRating, tags: string[] }, insert: (tagIds: string) => Query) {
  const tags = await resolveNewTags(tx, upload.tags)
  const created = { ...upload, tags: tags.tags.map(tag => tag.slug) }
  if (tx.dialect === 'postgres') {
    await tx.run(sql`WITH inserted AS (${insert(newTagIds(tags))} RETURNING id, created_at) ${creationRevision(created, 'inserted')}`)
  }
  else {
    await tx.run(insert(newTagIds(tags)))
    await tx.run(creationRevision(created, 'row'))
  }
  await linkNewTags(tx, upload.id, tags)
}

async function createLink(db: Executor, actor: Actor, input: Extract<UploadFields, { upload_type: 'link' }>, keep?: KeepAnswer) {
  const id = randomUUID()
  const answer = createdUpload({ id, userId: actor.id, filename: null, originalName: input.external_url, description: input.description, uploadType: 'link', externalUrl: input.external_url, isPrivate: input.is_private, rating: input.rating })
  await db.transaction(async (tx) => {
    await insertNewUpload(tx, { ...input, id, userId: actor.id, externalUrl: input.external_url }, tagIds =>
      sql`INSERT INTO uploads (id, user_id, filename, original_name, description, upload_type, external_url, is_private, rating, tag_ids)
        VALUES (${id}, ${actor.id}, NULL, ${input.external_url}, ${input.description}, 'link', ${input.external_url}, ${input.is_private}, ${input.rating}, ${tagIds})`)
    await keep?.(tx, answer)
  })
  return answer
}

/**
 * Duplicate check → image and thumbnail written atomically → row and tags in
 * one transaction; undone on any failure (at once, or by the media sweep
 * once a failing store answers again). A listed upload always has both
 * files. Until the row commits, `pending/<id>` names the upload, so files that
 * a crash left without a row are removed at the next start
 * (reclaimUnfinishedUploads). Once committed, the other sizes are queued to
 * be made in the background; the answer does not wait for them.
 */
async function storeImage(db: Executor, actor: Actor, input: { description: string, tags: string[], is_private: boolean, rating: ContentRating }, image: ProcessedImage, originalName: string, options: MediaOptions, keep?: KeepAnswer) {
  await refuseKnownImage(db, actor.id, image)
  const { store } = options
  const id = randomUUID()
  const filename = `${id}.${image.ext}`
  const answer = createdUpload({ id, userId: actor.id, filename, originalName, description: input.description, uploadType: 'image', externalUrl: null, isPrivate: input.is_private, rating: input.rating })
  const keys = [mediaKeys.original(filename), mediaKeys.thumb(id)] as const
  const pending = mediaKeys.pending(id)
  let written = false
  try {
    await store.put(pending, Buffer.from(filename), 'text/plain')
    await Promise.all([store.put(keys[0], image.data, image.mime), store.put(keys[1], image.thumbnail, 'image/webp')])
    written = true
    await db.transaction(async (tx) => {
      // Image inserts take turns (across instances too), and a concurrent upload
      // of the same image may have won meanwhile: check again holding the turn.
      await tx.lock('uploads:images')
      await refuseKnownImage(tx, actor.id, image)
      await insertNewUpload(tx, { ...input, id, userId: actor.id, externalUrl: null }, tagIds =>
        sql`INSERT INTO uploads (id, user_id, filename, original_name, description, upload_type, external_url,
            mime_type, width, height, size_bytes, sha256, source_sha256, phash, is_private, rating, tag_ids)
          VALUES (${id}, ${actor.id}, ${filename}, ${originalName}, ${input.description}, 'image', NULL, ${image.mime}, ${image.width},
            ${image.height}, ${image.data.length}, ${image.sha256}, ${image.inputSha256}, ${image.phash}, ${input.is_private}, ${input.rating}, ${tagIds})`)
      await keep?.(tx, answer)
    })
  }
  catch (error) {
    await discardFailedUpload(db, store, id, filename, written)
    throw error
  }
  // Committed: a marker left behind now only costs the next start a look-up.
  await store.remove([pending]).catch(() => {})
  makeDerivativesAhead(store, id, filename, () => uploadExists(db, id))
  return answer
}

/**
 * Removes what a failed upload wrote, its marker last. When a write to the
 * store itself failed (a stalled bucket gives up after its answer time, but
 * may still carry the write out when it wakes) or the removal fails, the
 * removal is also recorded for the sweep, due once any late write has
 * landed, so nothing stays behind once the store answers again.
 */
async function discardFailedUpload(db: Executor, store: MediaStore, id: string, filename: string, written: boolean): Promise<void> {
  // A store that failed a write is not asked again now: a stalled one would hold the answer another while.
  if (written) {
    const removed = await store.remove(uploadMediaKeys(id, filename)).then(() => store.remove([mediaKeys.pending(id)])).then(() => true, (cleanup: unknown) => {
      console.warn(`[upload] could not remove the files of failed upload ${id} yet: ${(cleanup as Error).message}`)
      return false
    })
    if (removed) return
  }
  // The marker stays if this fails too (the database is down as well): a start reclaims it.
  // Due once a write the store was sent can have landed (its answer time).
  await recordMediaDeletion(db, id, filename, store.answerMs).catch((error: unknown) => {
    console.warn(`[upload] could not record the removal of failed upload ${id}: ${(error as Error).message}`)
  })
}

/** Whether an upload row with this id exists (asked after writing a derivative). */
async function uploadExists(db: Executor, id: string): Promise<boolean> {
  return (await db.get(sql`SELECT id FROM uploads WHERE id = ${id}`)) !== undefined
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|gif|webp)$/

/**
 * At start, before any request: the uploads a crash interrupted between
 * writing their files and committing their row (`pending/<id>`). Files whose
 * row never committed are removed; a committed one keeps them. Markers
 * younger than `olderThanMs` are left alone: on a store that several
 * instances share, they may belong to an upload still in flight elsewhere.
 * Answers how many uploads' files were removed.
 */
export async function reclaimUnfinishedUploads(db: Executor, store: MediaStore, olderThanMs = 0): Promise<number> {
  const markers = await store.list('pending/')
  let removed = 0
  for (const { key, modified } of markers) {
    if (Date.now() - modified.getTime() < olderThanMs) continue
    const id = key.slice('pending/'.length)
    if (UUID.test(id)) {
      const filename = (await store.read(key).catch(() => null))?.toString('utf8').trim() ?? ''
      const row = await db.get(sql`SELECT id FROM uploads WHERE id = ${id}`)
      if (!row) {
        await store.remove([mediaKeys.thumb(id), ...(STORED_NAME.test(filename) && filename.startsWith(id) ? [mediaKeys.original(filename)] : [])])
        removed++
      }
    }
    await store.remove([key])
  }
  return removed
}

/** Bits that differ between a stored perceptual hash and `hash` (both 64-bit, 16 hex digits). */
export const phashDistance = (hash: string) => dialects({
  sqlite: sql`phash_distance(u.phash, ${hash})`,
  postgres: sql`bit_count(('x' || u.phash)::bit(64) # ('x' || ${hash})::bit(64))`,
})

/** The four indexed 16-bit bands of `uploads.phash` (generated columns, 4 hex digits each). */
const PHASH_BANDS = ['phash_band0', 'phash_band1', 'phash_band2', 'phash_band3'] as const

/**
 * For each of the hash's four 16-bit bands, the band itself and its 16
 * one-bit neighbours. Two hashes at most PHASH_MAX_DISTANCE (6) bits apart
 * differ in at most one bit in at least one band (were every band 2 or more
 * bits apart, they would differ in 8 or more), so every near duplicate has a
 * band among these 4 × 17 values. (An exact band match alone would catch only
 * distances up to 3: 6 bits spread 2/2/1/1 leave no band equal.)
 */
export function phashBandCandidates(hash: string): string[][] {
  const bands: string[][] = []
  for (let band = 0; band < 4; band++) {
    const value = Number.parseInt(hash.slice(band * 4, band * 4 + 4), 16)
    const values = [value]
    for (let bit = 0; bit < 16; bit++) values.push(value ^ (1 << bit))
    bands.push(values.map(v => v.toString(16).padStart(4, '0')))
  }
  return bands
}

/**
 * Rows of `table` (uploads, or banned_media) whose hash shares a band with
 * `hash` within one bit, as `u` with `columns`: four index look-ups (17
 * values each), so the distance is then computed on a few candidates (about
 * 4 × 17 × N / 65,536 rows for N evenly spread hashes) instead of on every
 * image row.
 */
export const nearPhash = (hash: string, table: 'uploads' | 'banned_media' = 'uploads', columns = 'id, user_id, is_private, phash, created_at') => {
  const lookups = phashBandCandidates(hash).map((values, band) => sql`SELECT ${sql.raw(columns)}
    FROM ${sql.raw(table)} WHERE ${sql.raw(PHASH_BANDS[band]!)} ${inList(values)}`)
  return sql`(${sql.join(lookups, ' UNION ')}) u`
}

/**
 * The oldest upload visible to `userId` (public, or their own) whose
 * perceptual hash is within PHASH_MAX_DISTANCE bits of `hash`.
 */
export async function findSimilarUpload(db: Executor, userId: string, hash: string): Promise<{ id: string } | undefined> {
  return db.get<{ id: string }>(similarUpload(userId, hash))
}

const similarUpload = (userId: string, hash: string) => sql`SELECT u.id FROM ${nearPhash(hash)} WHERE ${visibleTo({ id: userId, isAdmin: false })}
  AND ${phashDistance(hash)} <= ${PHASH_MAX_DISTANCE} ORDER BY u.created_at LIMIT 1`

const duplicateConflict = (existingUploadId: string) => conflict('This image has already been uploaded', { duplicate: true, existingUploadId })

/** Before decoding: 451 for banned bytes, then 409 for a duplicate, so neither costs image processing. */
async function refuseKnownBytes(db: Executor, userId: string, sha256: string): Promise<void> {
  await refuseBannedBytes(db, sha256)
  await refuseExactDuplicate(db, userId, sha256)
}

/**
 * Before decoding: 409 when these exact bytes were uploaded before (as
 * received, or as stored), publicly or by the caller, so a repeat costs no
 * image processing.
 */
async function refuseExactDuplicate(db: Executor, userId: string, sha256: string): Promise<void> {
  const found = await db.get<{ id: string }>(sameBytesUpload(userId, sha256, sha256))
  if (found) throw duplicateConflict(found.id)
}

/** The oldest upload visible to `userId` stored as `stored` or received as `received` (hex SHA-256s). */
const sameBytesUpload = (userId: string, stored: string, received: string) => sql`SELECT u.id FROM uploads u
  WHERE (u.sha256 = ${stored} OR u.source_sha256 = ${received}) AND ${visibleTo({ id: userId, isAdmin: false })} ORDER BY u.created_at LIMIT 1`

/**
 * After decoding: 451 when the picture is banned (banned-media.ts), else 409
 * when the same picture is already a public upload or one of the caller's
 * own: both asked in one statement, as an image upload asks twice (before
 * its files are written, and again holding the image inserts' turn).
 */
async function refuseKnownImage(db: Executor, userId: string, image: ProcessedImage): Promise<void> {
  const exact = sameBytesUpload(userId, image.sha256, image.inputSha256)
  const similar = image.phash === null ? sql`NULL` : sql`(${similarUpload(userId, image.phash)})`
  const known = (await db.get<{ banned: number, duplicate: string | null }>(sql`SELECT
    CASE WHEN ${bannedImageMatch(image)} THEN 1 ELSE 0 END AS banned, coalesce((${exact}), ${similar}) AS duplicate`))!
  if (known.banned) throw bannedImage()
  if (known.duplicate) throw duplicateConflict(known.duplicate)
}

/** PATCH /api/upload/{id}/privacy: the owner toggles; anyone else (or no such upload) gets 404. */
export async function toggleUploadPrivacy(db: Executor, id: string, actor: Actor) {
  const toggled = await db.get<{ is_private: number }>(sql`UPDATE uploads SET is_private = 1 - is_private
    WHERE id = ${id} AND user_id = ${actor.id} RETURNING is_private`)
  if (toggled === undefined) throw notFound('Upload not found')
  return { success: true as const, upload: (await getUploadForViewer(db, id, actor))!, is_private: toggled.is_private }
}

/** How an upload is removed: by its owner (or with their account), or by an admin, who bans its image unless `ban` is false. */
export type Removal = { by: 'owner' } | { by: 'admin', reason: string | null, ban: boolean }

/**
 * Removes an upload (docs/behaviour.md, "Curation"): in one transaction its
 * tombstone goes in and its row goes (votes and tag links cascade, its
 * reports stay), with the record that its media must go
 * (media-deletions.ts), so a crash leaves the upload or its tombstone, never
 * both nor neither; then the media themselves. An owner's removal keeps only
 * the id and when; an admin's keeps the description, uploader, type and
 * reason, and bans the image unless told not to. The owner, or an admin:
 * anyone else gets 404.
 */
export async function deleteUpload(db: Executor, id: string, actor: Actor, store: MediaStore, removal: Removal = { by: 'owner' }) {
  const deleted = await db.transaction(async (tx) => {
    const row = await tx.get<Pick<Row<typeof uploads>, 'user_id' | 'filename' | 'description' | 'upload_type' | 'sha256' | 'source_sha256' | 'phash'>>(sql`
      SELECT user_id, filename, description, upload_type, sha256, source_sha256, phash FROM uploads
      WHERE id = ${id} AND (user_id = ${actor.id} OR ${actor.isAdmin ? 1 : 0} = 1)${FOR_UPDATE}`)
    if (row === undefined) throw notFound('Upload not found')
    const removedAt = new Date().toISOString()
    if (removal.by === 'admin') {
      if (removal.ban && row.sha256 !== null) {
        // Image inserts take this turn to check bans: one under way now sees this ban or has committed before it.
        await tx.lock('uploads:images')
        await banUploadImage(tx, actor.id, { id, sha256: row.sha256, source_sha256: row.source_sha256, phash: row.phash }, removal.reason)
      }
      await tx.run(sql`INSERT INTO removed_uploads (id, description, uploader_id, upload_type, removed_at, removed_by, reason)
        VALUES (${id}, ${row.description}, ${row.user_id}, ${row.upload_type}, ${removedAt}, 'admin', ${removal.reason})`)
    }
    else {
      await tx.run(sql`INSERT INTO removed_uploads (id, removed_at, removed_by) VALUES (${id}, ${removedAt}, 'owner')`)
    }
    await tx.run(sql`DELETE FROM uploads WHERE id = ${id}`)
    if (row.filename) await recordMediaDeletion(tx, id, row.filename, claimMs(store))
    return row
  })
  if (deleted.filename) await removeDeletedMedia(db, store, id, deleted.filename)
  return { success: true as const }
}

/**
 * The stored file behind GET /api/image/{id} (any visibility: the address is
 * the secret), or 404; remembered per id and size (image-file-cache.ts), so a
 * repeated request costs no query.
 */
export async function imageFileOf(db: Executor, id: string, store: MediaStore, size: ImageSize | 'full'): Promise<ImageFile> {
  const known = knownImageFile(id, size)
  if (known) return known
  const row = await db.get<{ filename: string, mime_type: string, sha256: string }>(sql`SELECT filename, mime_type, sha256 FROM uploads
    WHERE id = ${id} AND upload_type = 'image' AND filename IS NOT NULL`)
  if (!row) throw notFound('Image not found')
  if (size === 'full') return rememberImageFile(id, size, { key: mediaKeys.original(row.filename), contentType: row.mime_type, etag: `"${row.sha256}"` })
  // A derivative is made from the original when it is missing: small, medium and display
  // sizes on their first request, a thumbnail lost in a crash window.
  return rememberImageFile(id, size, {
    key: mediaKeys[size](id),
    contentType: 'image/webp',
    etag: `"${row.sha256}-${size}"`,
    remake: () => makeDerivative(store, id, row.filename, size, { stillExists: () => uploadExists(db, id) }),
  })
}

/**
 * The bytes of `image` as a stream with their length, the derivative made
 * first when it is missing; null when there is no file (404). Its length is
 * kept with the file, so the next open needs no stat.
 */
export async function openImageFile(store: MediaStore, image: ImageFile): Promise<{ body: Readable, size: number } | null> {
  let stored = await store.open(image.key, image.bytes)
  if (!stored && image.remake) {
    // Queue full or store unavailable: its 503 goes out. Original unreadable: null (404).
    await image.remake().catch((error: unknown) => {
      if (typeof (error as { statusCode?: unknown })?.statusCode === 'number') throw error
    })
    stored = await store.open(image.key)
  }
  if (stored) image.bytes = stored.size
  return stored
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
