import type { ContentRating } from '../../shared/utils/content-rating'
import type { RevisionChanges } from '../../shared/schemas/upload-edits'
import { sql, type Query } from '../database/sql'

/**
 * Revision 1 of a new upload, to be run in the transaction that inserts it:
 * everything it has, as added by its owner at its creation; `tags` are its
 * tags' slugs in link order. The revision's date is the upload's, read from
 * its row, or on PostgreSQL from `inserted`, a `WITH` of the statement that
 * inserts the row (`RETURNING created_at`), so both go in one round trip.
 */
export function creationRevision(upload: { id: string, userId: string, description: string, externalUrl: string | null, rating: ContentRating, tags: readonly string[] }, from: 'row' | 'inserted'): Query {
  const changes: RevisionChanges = {
    description: { from: null, to: upload.description },
    ...(upload.externalUrl === null ? {} : { externalUrl: { from: null, to: upload.externalUrl } }),
    // Safe is every upload's default, as a link's URL is absent for an image: said only when chosen otherwise.
    ...(upload.rating === 'safe' ? {} : { rating: { from: null, to: upload.rating } }),
    tagsAdded: [...upload.tags],
    tagsRemoved: [],
  }
  return sql`INSERT INTO upload_revisions (upload_id, revision, actor_id, changes, reason, created_at)
    SELECT ${upload.id}, 1, ${upload.userId}, ${JSON.stringify(changes)}, NULL, created_at FROM ${sql.raw(from === 'row' ? 'uploads' : 'inserted')} WHERE id = ${upload.id}`
}
