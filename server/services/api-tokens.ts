import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import type { Executor, Row } from '../database/port'
import type { apiTokens } from '../database/schema-postgres'
import { sql } from '../database/sql'
import { apiError } from './errors'
import { toActor, type Actor, type ActorRow } from './sessions'

export const API_TOKEN_PATTERN = /^[0-9a-f]{64}$/

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/**
 * The actor behind a raw API token, or null when it is malformed, unknown,
 * expired or revoked (revoked tokens are deleted). Marks the token used.
 */
export async function actorFromApiToken(db: Executor, token: string, adminEmails: string[], nowMs = Date.now()): Promise<(Actor & { tokenId: string }) | null> {
  if (!API_TOKEN_PATTERN.test(token)) return null
  const hash = hashApiToken(token)
  const now = new Date(nowMs).toISOString()
  const row = await db.get<ActorRow & { token_id: string, token_hash: string }>(sql`
    SELECT t.id AS token_id, t.token_hash, u.id, u.username, u.email, u.is_admin, u.email_verified, u.shadow_banned
    FROM api_tokens t JOIN users u ON u.id = t.user_id
    WHERE t.token_hash = ${hash} AND t.expires_at > ${now}`)
  if (!row || !timingSafeEqual(Buffer.from(row.token_hash), Buffer.from(hash))) return null
  await db.run(sql`UPDATE api_tokens SET last_used_at = ${now} WHERE id = ${row.token_id}`)
  return { ...toActor(row, adminEmails), tokenId: row.token_id }
}

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Creates an API token: the raw value (32 random bytes as 64 hex characters)
 * is returned once; only its SHA-256 hash is stored.
 */
export async function generateApiToken(db: Executor, userId: string, input: { name: string, expiresInDays: number }, now = Date.now()) {
  const id = randomUUID()
  const token = randomBytes(32).toString('hex')
  const expiresAt = new Date(now + input.expiresInDays * DAY_MS).toISOString()
  await db.run(sql`INSERT INTO api_tokens (id, user_id, name, token_hash, created_at, expires_at)
    VALUES (${id}, ${userId}, ${input.name}, ${hashApiToken(token)}, ${new Date(now).toISOString()}, ${expiresAt})`)
  return { id, token, name: input.name, expiresAt }
}

/** The caller's tokens, newest first, never their values. */
export async function listApiTokens(db: Executor, userId: string) {
  const rows = await db.all<Pick<Row<typeof apiTokens>, 'id' | 'name' | 'created_at' | 'expires_at' | 'last_used_at'>>(sql`
    SELECT id, name, created_at, expires_at, last_used_at FROM api_tokens
    WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC`)
  return {
    tokens: rows.map(row => ({ id: row.id, name: row.name, createdAt: row.created_at, expiresAt: row.expires_at, lastUsedAt: row.last_used_at })),
  }
}

/** Deletes one of the caller's tokens; another user's or an unknown id is a 404. */
export async function revokeApiToken(db: Executor, userId: string, tokenId: string) {
  const result = await db.run(sql`DELETE FROM api_tokens WHERE id = ${tokenId} AND user_id = ${userId}`)
  if (result.changes === 0) throw apiError(404, 'Token not found')
  return { success: true as const }
}
