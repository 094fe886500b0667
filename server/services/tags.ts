import { randomUUID } from 'node:crypto'
import type Database from 'better-sqlite3'
import { slugify } from '../../shared/utils/tags'

export interface TagRow { id: string, name: string, slug: string }

/**
 * Links tags (already valid names) to an upload, creating each tag once per
 * slug (tags are shared by uploads). Names already on the upload are skipped.
 * Runs inside the caller's transaction; returns how many links were added.
 */
export function attachTags(sqlite: Database.Database, uploadId: string, names: string[]): number {
  const insertTag = sqlite.prepare('INSERT INTO tags (id, name, slug) VALUES (?, ?, ?) ON CONFLICT (slug) DO NOTHING')
  const findTag = sqlite.prepare('SELECT id FROM tags WHERE slug = ?').pluck()
  const link = sqlite.prepare('INSERT OR IGNORE INTO upload_tags (upload_id, tag_id) VALUES (?, ?)')
  let added = 0
  for (const name of names) {
    const slug = slugify(name)
    insertTag.run(randomUUID(), name, slug)
    added += link.run(uploadId, findTag.get(slug) as string).changes
  }
  return added
}

/** The tags of one upload, in the order they were added. */
export function tagsOfUpload(sqlite: Database.Database, uploadId: string): TagRow[] {
  return sqlite.prepare(`SELECT t.id, t.name, t.slug FROM upload_tags ut JOIN tags t ON t.id = ut.tag_id
    WHERE ut.upload_id = ? ORDER BY ut.rowid`).all(uploadId) as TagRow[]
}
