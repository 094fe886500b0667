import { randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { MAX_IMAGE_BYTES } from '../../shared/utils/upload-limits'
import type { Executor } from '../database/port'
import { inList, sql } from '../database/sql'
import { badRequest } from './errors'
import { fetchImageToFile, ImageFetchError } from './image-fetch'
import { PHASH_MAX_DISTANCE, processImage, type ProcessedImage } from './media'
import type { Actor } from './sessions'
import { visibleTo } from './upload-queries'
import { nearPhash, phashDistance, type MediaOptions, type ReceivedFile } from './uploads'
import { ENTRY_COLUMNS, withTags, type ListRow } from './lists'

/** Matches one search answers at most. */
const MAX_MATCHES = 20

/**
 * POST /api/search/image (docs/behaviour.md, "Curation"): the uploads whose
 * picture is within the duplicate distance of the one sent (a file, or an
 * image fetched as for an upload), nearest first, an exact copy at distance
 * 0. Public uploads and the caller's own, as the duplicate check sees them;
 * nothing is stored.
 */
export async function searchByImage(db: Executor, actor: Actor | null, source: { file: ReceivedFile } | { imageUrl: string }, options: MediaOptions) {
  if ('file' in source) return { matches: await matchesOf(db, actor, await processImage(source.file.path, { received: source.file.received })) }
  const download = join(options.tmpDir, `search-${randomUUID()}`)
  try {
    try {
      await fetchImageToFile(source.imageUrl, download, { allowPrivate: options.allowPrivateFetch, maxBytes: MAX_IMAGE_BYTES })
    }
    catch (error) {
      if (!(error instanceof ImageFetchError)) throw error
      console.warn(`[search] imageUrl refused or failed: ${error.message}`)
      throw badRequest('Could not fetch image')
    }
    return { matches: await matchesOf(db, actor, await processImage(download)) }
  }
  finally {
    await rm(download, { force: true })
  }
}

async function matchesOf(db: Executor, actor: Actor | null, image: ProcessedImage) {
  // What the caller could see as a duplicate: public uploads and their own, whatever their role.
  const viewer = actor ? { id: actor.id, isAdmin: false } : null
  const hashes = [image.sha256, image.inputSha256]
  const [exact, near] = await Promise.all([
    db.all<{ id: string }>(sql`SELECT u.id FROM uploads u
      WHERE (u.sha256 ${inList(hashes)} OR u.source_sha256 ${inList(hashes)}) AND ${visibleTo(viewer)} LIMIT ${MAX_MATCHES}`),
    image.phash === null
      ? Promise.resolve([])
      : db.all<{ id: string, distance: number | string }>(sql`SELECT c.id, c.distance FROM (
          SELECT u.id, u.created_at, ${phashDistance(image.phash)} AS distance FROM ${nearPhash(image.phash)} WHERE ${visibleTo(viewer)}) c
        WHERE c.distance <= ${PHASH_MAX_DISTANCE} ORDER BY c.distance, c.created_at, c.id LIMIT ${MAX_MATCHES}`),
  ])
  const distance = new Map<string, number>()
  for (const row of near) distance.set(row.id, Number(row.distance))
  for (const row of exact) distance.set(row.id, 0)
  const ids = [...distance.keys()]
  if (ids.length === 0) return []
  const rows = await db.all<ListRow & { created_at: string }>(sql`SELECT ${ENTRY_COLUMNS}, us.username FROM uploads u
    JOIN users us ON us.id = u.user_id WHERE u.id ${inList(ids)}`)
  const entries = await withTags(db, rows)
  return entries
    .map(upload => ({ upload, distance: distance.get(upload.id)! }))
    .sort((a, b) => a.distance - b.distance || a.upload.created_at.localeCompare(b.upload.created_at) || a.upload.id.localeCompare(b.upload.id))
    .slice(0, MAX_MATCHES)
}
