import type { ContentRating } from '../../shared/utils/content-rating'
import type { RevisionChanges } from '../../shared/schemas/upload-edits'
import type { Executor } from '../database/port'
import { sql } from '../database/sql'

/**
 * Revision 1 of a new upload, in the transaction that inserts it (after its
 * tags): everything it has, as added by its owner at its creation.
 */
export async function recordCreation(tx: Executor, upload: { id: string, userId: string, description: string, externalUrl: string | null, rating: ContentRating }): Promise<void> {
  const slugs = await tx.all<{ slug: string }>(sql`SELECT t.slug FROM upload_tags ut JOIN tags t ON t.id = ut.tag_id
    WHERE ut.upload_id = ${upload.id} ORDER BY ut.position`)
  const changes: RevisionChanges = {
    description: { from: null, to: upload.description },
    ...(upload.externalUrl === null ? {} : { externalUrl: { from: null, to: upload.externalUrl } }),
    // Safe is every upload's default, as a link's URL is absent for an image: said only when chosen otherwise.
    ...(upload.rating === 'safe' ? {} : { rating: { from: null, to: upload.rating } }),
    tagsAdded: slugs.map(row => row.slug),
    tagsRemoved: [],
  }
  await tx.run(sql`INSERT INTO upload_revisions (upload_id, revision, actor_id, changes, reason, created_at)
    VALUES (${upload.id}, 1, ${upload.userId}, ${JSON.stringify(changes)}, NULL, (SELECT created_at FROM uploads WHERE id = ${upload.id}))`)
}
