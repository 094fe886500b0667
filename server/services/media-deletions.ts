import type { Executor } from '../database/port'
import { sql } from '../database/sql'
import { forgetImageFiles } from './image-file-cache'
import { MEDIA_KEY, mediaKeys, uploadMediaKeys, type MediaStore } from './media-store'

/**
 * Media outlive their row only until the store confirms their removal
 * (docs/behaviour.md "Uploads and media"). A row of `media_deletions` is
 * written in the same transaction that deletes an upload (or, for an upload
 * that failed after writing files, right after the failure), so neither a
 * store that is down nor a kill -9 loses it; it goes once the store has
 * removed every key. Failed removals are retried, with a growing delay, by
 * the periodic sweep of whichever instance claims the row first.
 */

/** First retry after a failed removal; each later one waits twice as long, up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 5_000
const RETRY_MAX_MS = 10 * 60_000
/**
 * A removal being tried now: no other instance claims its row before this has
 * passed, the store's answer time and a margin (20 s for a bucket's default 15 s).
 */
export const claimMs = (store: MediaStore) => store.answerMs + 5_000
/** Rows one sweep claims at most. */
const SWEEP_BATCH = 20

const at = (ms: number) => new Date(ms).toISOString()
const retryDelay = (attempts: number) => Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.max(0, attempts - 1))

/**
 * Records that the media of `uploadId` must go. Inside the transaction that
 * deletes its row; `dueInMs` is when the sweep may try: after the caller's own
 * attempt has had its time (`claimMs`), or a late write its chance to land.
 */
export async function recordMediaDeletion(db: Executor, uploadId: string, filename: string, dueInMs: number): Promise<void> {
  await db.run(sql`INSERT INTO media_deletions (upload_id, filename, next_attempt_at) VALUES (${uploadId}, ${filename}, ${at(Date.now() + dueInMs)})
    ON CONFLICT (upload_id) DO NOTHING`)
}

/**
 * Removes the recorded media of `uploadId` now (the caller has just committed
 * the record): every key an upload may have, its `pending/` marker last. The
 * record goes once the store confirms; a failure is logged and left to the
 * sweep. An upload row with that id (never the case for a deleted or failed
 * upload) keeps its media, and the record is dropped.
 */
export async function removeRecordedMedia(db: Executor, store: MediaStore, uploadId: string, filename: string): Promise<boolean> {
  forgetImageFiles(uploadId)
  try {
    if (!await db.get(sql`SELECT id FROM uploads WHERE id = ${uploadId}`)) {
      // Only keys this site writes: a damaged record never names the whole folder.
      await store.remove(uploadMediaKeys(uploadId, filename).filter(key => MEDIA_KEY.test(key)))
      await store.remove([mediaKeys.pending(uploadId)])
    }
    await db.run(sql`DELETE FROM media_deletions WHERE upload_id = ${uploadId}`)
    return true
  }
  catch (error) {
    console.warn(`[media] could not remove the files of upload ${uploadId} yet (retried later): ${(error as Error).message}`)
    return false
  }
}

/** The caller's own attempt failed: the sweep tries again after the first delay. */
async function retrySoon(db: Executor, uploadId: string): Promise<void> {
  await db.run(sql`UPDATE media_deletions SET attempts = attempts + 1, next_attempt_at = ${at(Date.now() + RETRY_FIRST_MS)}
    WHERE upload_id = ${uploadId}`).catch(() => { /* the record's own due time stands */ })
}

/** Removes the media of an upload whose deletion (and its record) has just committed. */
export async function removeDeletedMedia(db: Executor, store: MediaStore, uploadId: string, filename: string): Promise<void> {
  if (!await removeRecordedMedia(db, store, uploadId, filename)) await retrySoon(db, uploadId)
}

/**
 * One pass of the sweep: claims the removals that are due (a conditional
 * update per row, so two instances never try the same one at once), pushing
 * each one's next attempt back before trying it, and tries them. One indexed
 * query when nothing is due. `everything`: every recorded removal, due or
 * not (at start on a store no other instance uses: none can be in flight).
 * Answers how many uploads' media were removed.
 */
export async function sweepMediaDeletions(db: Executor, store: MediaStore, options: { everything?: boolean } = {}): Promise<number> {
  const now = Date.now()
  const dueBy = options.everything ? '9999' : at(now)
  const due = await db.all<{ upload_id: string, filename: string | null, attempts: number }>(sql`SELECT upload_id, filename, attempts
    FROM media_deletions WHERE next_attempt_at <= ${dueBy} ORDER BY next_attempt_at LIMIT ${SWEEP_BATCH}`)
  let removed = 0
  for (const row of due) {
    const attempts = Number(row.attempts) + 1
    const claimed = await db.run(sql`UPDATE media_deletions SET attempts = ${attempts}, next_attempt_at = ${at(now + Math.max(claimMs(store), retryDelay(attempts)))}
      WHERE upload_id = ${row.upload_id} AND attempts = ${row.attempts}`)
    if (claimed.changes !== 1) continue
    if (await removeRecordedMedia(db, store, row.upload_id, row.filename ?? '')) removed++
    else await db.run(sql`UPDATE media_deletions SET next_attempt_at = ${at(Date.now() + retryDelay(attempts))} WHERE upload_id = ${row.upload_id}`)
  }
  // Everything: the next batch too, while each one went through whole.
  if (options.everything && due.length === SWEEP_BATCH && removed === SWEEP_BATCH) removed += await sweepMediaDeletions(db, store, options)
  return removed
}
