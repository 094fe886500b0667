import type { Executor } from '../database/port'
import { inList, sql } from '../database/sql'

/**
 * Whether some upload's counts wait for its links' copies, as a column of
 * the statement that reads a page from the copies (totalAndPage's `copies`):
 * read in the page's own snapshot, it says whether that page can have missed
 * a vote, without a round trip of its own before every page.
 */
export const COPIES_PENDING = sql`EXISTS (SELECT 1 FROM rank_copies_pending)`

/**
 * The counts of uploads voted on since their links' copies were written
 * (rank_copies_pending, filled by a trigger when the counts alone change),
 * copied to every link of theirs, in one transaction. A tag's ranked page
 * reads these copies, so a page read while some were pending (COPIES_PENDING)
 * calls this and is read again: a vote then writes its upload's row only, not
 * each of its links in four ranking indexes, and no page misses it.
 * Concurrent callers each take the pending rows they delete; one that finds
 * a row another is deleting waits for that commit, so when this returns,
 * every vote acknowledged before the call is in the copies. Cheap when
 * nothing is pending (one indexed probe).
 */
export async function flushRankCopies(db: Executor): Promise<void> {
  if (!await db.get(sql`SELECT upload_id FROM rank_copies_pending LIMIT 1`)) return
  await db.transaction(async (tx) => {
    const ids = (await tx.all<{ upload_id: string }>(sql`DELETE FROM rank_copies_pending RETURNING upload_id`)).map(row => row.upload_id)
    if (ids.length === 0) return
    // In upload order, so two flushes and the triggers that rewrite one upload's links take them alike.
    ids.sort()
    await tx.run(sql`UPDATE upload_tags SET upload_upvotes = u.upvotes, upload_downvote_count = u.downvote_count,
        upload_hot_score = u.hot_score, upload_best_score = u.best_score, upload_divisive_score = u.divisive_score
      FROM uploads u WHERE u.id = upload_tags.upload_id AND upload_tags.upload_id ${inList(ids)}`)
  })
}
