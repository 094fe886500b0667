import { randomUUID } from 'node:crypto'
import type { Executor, Row } from '../database/port'
import type { bannedMedia } from '../database/schema-postgres'
import { sql, type Query } from '../database/sql'
import { apiError } from './errors'
import { PHASH_MAX_DISTANCE } from './media'
import { logModeration } from './modlog'
import { nearPhash, phashDistance } from './uploads'

/**
 * Images an admin removed are banned unless the admin says otherwise
 * (docs/behaviour.md, "Curation"). The check reads the database on every
 * upload, so a ban holds on every instance the moment it commits; it costs
 * what the duplicate check costs: the hash indexes and the four indexed
 * perceptual-hash bands, never a scan.
 */

export const bannedImage = () => apiError(451, 'This image is not allowed here')

/** Before decoding: 451 when these exact bytes were banned (as received, or as stored). */
export async function refuseBannedBytes(db: Executor, sha256: string): Promise<void> {
  const found = await db.get(sql`SELECT id FROM banned_media WHERE sha256 = ${sha256}
    UNION ALL SELECT id FROM banned_media WHERE source_sha256 = ${sha256} LIMIT 1`)
  if (found) throw bannedImage()
}

/**
 * After decoding: whether the picture matches a ban exactly or within the
 * duplicate distance, as a condition (true or false) another statement asks
 * beside its own (uploads.ts, refuseKnownImage).
 */
export function bannedImageMatch(image: { sha256: string, inputSha256: string, phash: string | null }): Query {
  const exact = sql`EXISTS (SELECT 1 FROM banned_media WHERE sha256 = ${image.sha256} OR sha256 = ${image.inputSha256})
    OR EXISTS (SELECT 1 FROM banned_media WHERE source_sha256 = ${image.sha256} OR source_sha256 = ${image.inputSha256})`
  if (image.phash === null) return sql`(${exact})`
  return sql`(${exact} OR EXISTS (SELECT 1 FROM ${nearPhash(image.phash, 'banned_media', 'id, phash')}
    WHERE ${phashDistance(image.phash)} <= ${PHASH_MAX_DISTANCE}))`
}

/**
 * Bans the image of the upload being removed, in the removal's transaction
 * and before its row goes (the log entry takes the upload's description).
 */
export async function banUploadImage(tx: Executor, actorId: string, upload: { id: string, sha256: string, source_sha256: string | null, phash: string | null }, reason: string | null): Promise<void> {
  await tx.run(sql`INSERT INTO banned_media (id, sha256, source_sha256, phash, upload_id, reason, created_by, created_at)
    VALUES (${randomUUID()}, ${upload.sha256}, ${upload.source_sha256}, ${upload.phash}, ${upload.id}, ${reason}, ${actorId}, ${new Date().toISOString()})`)
  await logModeration(tx, { actorId, action: 'media_banned', targetType: 'upload', targetId: upload.id, note: reason })
}

type BanRow = Pick<Row<typeof bannedMedia>, 'id' | 'sha256' | 'upload_id' | 'reason' | 'created_at' | 'created_by'> & { creator_username: string | null }

/** GET /api/admin/banned-media: newest first. */
export async function listBannedMedia(db: Executor, query: { page: number, limit: number }) {
  const { total } = (await db.get<{ total: number }>(sql`SELECT count(*) AS total FROM banned_media`))!
  const rows = await db.all<BanRow>(sql`SELECT b.id, b.sha256, b.upload_id, b.reason, b.created_at, b.created_by, us.username AS creator_username
    FROM banned_media b LEFT JOIN users us ON us.id = b.created_by
    ORDER BY b.created_at DESC, b.id DESC LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}`)
  return {
    items: rows.map(row => ({
      id: row.id,
      sha256: row.sha256,
      uploadId: row.upload_id,
      reason: row.reason,
      createdAt: row.created_at,
      createdBy: row.created_by !== null && row.creator_username !== null ? { id: row.created_by, username: row.creator_username } : null,
    })),
    total: Number(total),
    page: query.page,
    limit: query.limit,
  }
}

/** DELETE /api/admin/banned-media/{id}: lifts a ban, logged in the same transaction. */
export function liftBan(db: Executor, actor: { id: string }, id: string) {
  return db.transaction(async (tx) => {
    const ban = await tx.get<{ upload_id: string | null }>(sql`DELETE FROM banned_media WHERE id = ${id} RETURNING upload_id`)
    if (!ban) throw apiError(404, 'Ban not found')
    await logModeration(tx, { actorId: actor.id, action: 'media_unbanned', targetType: 'upload', targetId: ban.upload_id ?? id })
    return { success: true as const }
  })
}
