import { randomUUID } from 'node:crypto'
import type Database from 'better-sqlite3'
import { MAX_TAGS_PER_UPLOAD, parseTagName, TAG_NAME_MESSAGE } from '../../shared/utils/tags'
import { apiError } from '../utils/errors'
import type { Actor } from './sessions'

export interface TagRow { id: string, name: string, slug: string }

/** The tags of one upload, in the order they were added. */
export function tagsOf(sqlite: Database.Database, uploadId: string): TagRow[] {
  return sqlite.prepare(`SELECT t.id, t.name, t.slug FROM upload_tags ut JOIN tags t ON t.id = ut.tag_id
    WHERE ut.upload_id = ? ORDER BY ut.rowid`).all(uploadId) as TagRow[]
}

/**
 * Links tags (by name) to an upload, creating one shared tag row per slug.
 * Tags already on the upload, and repeats within `names`, are skipped. 400 on
 * an invalid name or when the upload would carry more than 10 tags. Runs in
 * one transaction (a savepoint inside the caller's); returns how many were added.
 */
export function attachTags(sqlite: Database.Database, uploadId: string, names: string[]): number {
  const wanted = new Map<string, string>()
  for (const raw of names) {
    const tag = parseTagName(raw)
    if (!tag) throw apiError(400, TAG_NAME_MESSAGE)
    if (!wanted.has(tag.slug)) wanted.set(tag.slug, tag.name)
  }
  return sqlite.transaction(() => {
    const existing = new Set((sqlite.prepare(`SELECT t.slug FROM upload_tags ut JOIN tags t ON t.id = ut.tag_id WHERE ut.upload_id = ?`)
      .all(uploadId) as { slug: string }[]).map(row => row.slug))
    const fresh = [...wanted].filter(([slug]) => !existing.has(slug))
    if (existing.size + fresh.length > MAX_TAGS_PER_UPLOAD) throw apiError(400, `An upload can have at most ${MAX_TAGS_PER_UPLOAD} tags`)
    const upsertTag = sqlite.prepare(`INSERT INTO tags (id, name, slug) VALUES (?, ?, ?)
      ON CONFLICT (slug) DO UPDATE SET slug = excluded.slug RETURNING id`)
    const link = sqlite.prepare('INSERT INTO upload_tags (upload_id, tag_id) VALUES (?, ?)')
    for (const [slug, name] of fresh) {
      const { id } = upsertTag.get(randomUUID(), name, slug) as { id: string }
      link.run(uploadId, id)
    }
    return fresh.length
  }).immediate()
}

/** An upload the actor may see: public, their own, or any when admin. 404 otherwise. */
function visibleUpload(sqlite: Database.Database, actor: Actor | null, uploadId: string): { user_id: string } {
  const upload = sqlite.prepare(`SELECT user_id FROM uploads WHERE id = ? AND (is_private = 0 OR user_id = ? OR ?)`)
    .get(uploadId, actor?.id ?? null, actor?.isAdmin ? 1 : 0) as { user_id: string } | undefined
  if (!upload) throw apiError(404, 'Upload not found')
  return upload
}

/** GET /api/uploads/{id}/tags */
export function listUploadTags(sqlite: Database.Database, actor: Actor | null, uploadId: string) {
  visibleUpload(sqlite, actor, uploadId)
  return { tags: tagsOf(sqlite, uploadId) }
}

/** POST /api/uploads/{id}/tags: owner or admin only. */
export function addUploadTags(sqlite: Database.Database, actor: Actor, uploadId: string, names: string[]) {
  const upload = visibleUpload(sqlite, actor, uploadId)
  if (upload.user_id !== actor.id && !actor.isAdmin) throw apiError(403, 'Only the owner or an admin can add tags')
  const added = attachTags(sqlite, uploadId, names)
  return { success: true as const, tags: tagsOf(sqlite, uploadId), added }
}

/** GET /api/tags: tags on public uploads whose slug starts with `q`, most used first. */
export function searchTags(sqlite: Database.Database, query: { q: string, limit: number }) {
  const prefix = query.q.toLowerCase().replace(/ +/g, '-').replace(/[\\%_]/g, '\\$&')
  const tags = sqlite.prepare(`SELECT t.id, t.name, t.slug, count(*) AS count
    FROM tags t JOIN upload_tags ut ON ut.tag_id = t.id JOIN uploads u ON u.id = ut.upload_id AND u.is_private = 0
    WHERE t.slug LIKE ? ESCAPE '\\'
    GROUP BY t.id ORDER BY count DESC, t.slug LIMIT ?`).all(`${prefix}%`, query.limit) as (TagRow & { count: number })[]
  return { tags }
}
