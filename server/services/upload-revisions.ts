import type { ContentRating } from '../../shared/utils/content-rating'
import type { RevisionChanges } from '../../shared/schemas/upload-edits'
import type { Executor } from '../database/port'
import { sql } from '../database/sql'

/**
 * Revision 1 of a new upload, in the transaction that inserts it: everything
 * it has, as added by its owner at its creation; `tags` are its tags' slugs in
 * link order.
 */
export async function recordCreation(tx: Executor, upload: { id: string, userId: string, description: string, externalUrl: string | null, rating: ContentRating, tags: readonly string[] }): Promise<void> {
  const changes: RevisionChanges = {
    description: { from: null, to: upload.description },
    ...(upload.externalUrl === null ? {} : { externalUrl: { from: null, to: upload.externalUrl } }),
    // Safe is every upload's default, as a link's URL is absent for an image: said only when chosen otherwise.
    ...(upload.rating === 'safe' ? {} : { rating: { from: null, to: upload.rating } }),
    tagsAdded: [...upload.tags],
    tagsRemoved: [],
  }
  await tx.run(sql`INSERT INTO upload_revisions (upload_id, revision, actor_id, changes, reason, created_at)
    VALUES (${upload.id}, 1, ${upload.userId}, ${JSON.stringify(changes)}, NULL, (SELECT created_at FROM uploads WHERE id = ${upload.id}))`)
}
