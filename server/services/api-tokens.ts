import { createHash, timingSafeEqual } from 'node:crypto'
import type Database from 'better-sqlite3'
import { toActor, type Actor } from './sessions'

export const API_TOKEN_PATTERN = /^[0-9a-f]{64}$/

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/**
 * The actor behind a raw API token, or null when it is malformed, unknown,
 * expired or revoked (revoked tokens are deleted). Marks the token used.
 */
export function actorFromApiToken(sqlite: Database.Database, token: string, adminEmails: string[]): (Actor & { tokenId: string }) | null {
  if (!API_TOKEN_PATTERN.test(token)) return null
  const hash = hashApiToken(token)
  const now = new Date().toISOString()
  const row = sqlite.prepare(`SELECT t.id AS token_id, t.token_hash, u.id, u.username, u.email, u.is_admin, u.shadow_banned
    FROM api_tokens t JOIN users u ON u.id = t.user_id
    WHERE t.token_hash = ? AND t.expires_at > ?`).get(hash, now) as
    { token_id: string, token_hash: string, id: string, username: string, email: string | null, is_admin: number, shadow_banned: number } | undefined
  if (!row || !timingSafeEqual(Buffer.from(row.token_hash), Buffer.from(hash))) return null
  sqlite.prepare('UPDATE api_tokens SET last_used_at = ? WHERE id = ?').run(now, row.token_id)
  return { ...toActor(row, adminEmails), tokenId: row.token_id }
}
