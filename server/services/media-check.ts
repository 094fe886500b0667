import type { Executor } from '../database/port'
import { sql } from '../database/sql'
import { MEDIA_KEY, mediaKeys, type MediaStore } from './media-store'

/** The folders of a store's keys (a bucket lists them all under ''; a folder store lists one level). */
const PREFIXES = ['', 'small/', 'thumbs/', 'medium/', 'display/', 'pending/']
/** A `pending/` marker younger than this belongs to an upload that may still be in flight. */
export const IN_FLIGHT_MS = 15 * 60_000

export interface MediaCheck {
  /** Keys no upload row owns (and no upload in flight), sorted. */
  orphans: string[]
  /** Keys of uploads still in flight (a recent `pending/` marker): left alone. */
  inFlight: string[]
  /** Uploads whose stored image is missing: they cannot be served. */
  missingOriginals: { id: string, key: string }[]
  /** Uploads without their thumbnail (made again on its first request). */
  missingThumbnails: string[]
  /** Small, medium and display sizes not made yet (made on request, or ahead after an upload): not a fault. */
  missingSizes: number
  /** Orphans removed (with `fix`). */
  removed: number
}

/** The upload id a key of this site belongs to. */
const idOf = (key: string) => key.replace(/^(small|thumbs|medium|display|pending)\//, '').slice(0, 36)

/**
 * Compares the store with the upload rows: keys that no upload owns (with
 * `fix`, removed, `pending/` markers last) and uploads whose media are
 * missing. Keys of an upload still in flight are left alone.
 */
export async function checkMedia(db: Executor, store: MediaStore, options: { fix?: boolean, now?: number } = {}): Promise<MediaCheck> {
  const now = options.now ?? Date.now()
  const found = new Map<string, Date>()
  for (const prefix of store.shared ? [''] : PREFIXES) {
    for (const { key, modified } of await store.list(prefix)) {
      if (MEDIA_KEY.test(key)) found.set(key, modified)
    }
  }
  const rows = await db.all<{ id: string, filename: string }>(sql`SELECT id, filename FROM uploads
    WHERE upload_type = 'image' AND filename IS NOT NULL ORDER BY id`)
  const owned = new Set<string>()
  const check: MediaCheck = { orphans: [], inFlight: [], missingOriginals: [], missingThumbnails: [], missingSizes: 0, removed: 0 }
  for (const row of rows) {
    const keys = { original: mediaKeys.original(row.filename), thumb: mediaKeys.thumb(row.id), others: [mediaKeys.small(row.id), mediaKeys.medium(row.id), mediaKeys.display(row.id)] }
    for (const key of [keys.original, keys.thumb, ...keys.others]) owned.add(key)
    if (!found.has(keys.original)) check.missingOriginals.push({ id: row.id, key: keys.original })
    if (!found.has(keys.thumb)) check.missingThumbnails.push(row.id)
    check.missingSizes += keys.others.filter(key => !found.has(key)).length
  }
  const inFlight = new Set([...found].filter(([key, modified]) => key.startsWith('pending/') && now - modified.getTime() < IN_FLIGHT_MS).map(([key]) => idOf(key)))
  for (const key of [...found.keys()].sort()) {
    if (owned.has(key)) continue
    if (inFlight.has(idOf(key))) check.inFlight.push(key)
    else check.orphans.push(key)
  }
  if (options.fix && check.orphans.length) {
    const markers = check.orphans.filter(key => key.startsWith('pending/'))
    await store.remove(check.orphans.filter(key => !key.startsWith('pending/')))
    await store.remove(markers)
    check.removed = check.orphans.length
  }
  return check
}
