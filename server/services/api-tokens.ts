import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import type Database from 'better-sqlite3'
import { apiError } from '../utils/errors'
import { toActor, type Actor } from './sessions'

export const API_TOKEN_PATTERN = /^[0-9a-f]{64}$/

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/**
 * The actor behind a raw API token, or null when it is malformed, unknown,
 * expired or revoked (revoked tokens are deleted). Marks the token used.
 */
export function actorFromApiToken(sqlite: Database.Database, token: string, adminEmails: string[], nowMs = Date.now()): (Actor & { tokenId: string }) | null {
  if (!API_TOKEN_PATTERN.test(token)) return null
  const hash = hashApiToken(token)
  const now = new Date(nowMs).toISOString()
  const row = sqlite.prepare(`SELECT t.id AS token_id, t.token_hash, u.id, u.username, u.email, u.is_admin, u.shadow_banned
    FROM api_tokens t JOIN users u ON u.id = t.user_id
    WHERE t.token_hash = ? AND t.expires_at > ?`).get(hash, now) as
    { token_id: string, token_hash: string, id: string, username: string, email: string | null, is_admin: number, shadow_banned: number } | undefined
  if (!row || !timingSafeEqual(Buffer.from(row.token_hash), Buffer.from(hash))) return null
  sqlite.prepare('UPDATE api_tokens SET last_used_at = ? WHERE id = ?').run(now, row.token_id)
  return { ...toActor(row, adminEmails), tokenId: row.token_id }
}

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Creates an API token: the raw value (32 random bytes as 64 hex characters)
 * is returned once; only its SHA-256 hash is stored.
 */
export function generateApiToken(sqlite: Database.Database, userId: string, input: { name: string, expiresInDays: number }, now = Date.now()) {
  const id = randomUUID()
  const token = randomBytes(32).toString('hex')
  const expiresAt = new Date(now + input.expiresInDays * DAY_MS).toISOString()
  sqlite.prepare('INSERT INTO api_tokens (id, user_id, name, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(id, userId, input.name, hashApiToken(token), new Date(now).toISOString(), expiresAt)
  return { id, token, name: input.name, expiresAt }
}

/** The caller's tokens, newest first, never their values. */
export function listApiTokens(sqlite: Database.Database, userId: string) {
  const rows = sqlite.prepare(`SELECT id, name, created_at, expires_at, last_used_at FROM api_tokens
    WHERE user_id = ? ORDER BY created_at DESC, rowid DESC`).all(userId) as
    { id: string, name: string, created_at: string, expires_at: string, last_used_at: string | null }[]
  return {
    tokens: rows.map(row => ({ id: row.id, name: row.name, createdAt: row.created_at, expiresAt: row.expires_at, lastUsedAt: row.last_used_at })),
  }
}

/** Deletes one of the caller's tokens; another user's or an unknown id is a 404. */
export function revokeApiToken(sqlite: Database.Database, userId: string, tokenId: string) {
  const result = sqlite.prepare('DELETE FROM api_tokens WHERE id = ? AND user_id = ?').run(tokenId, userId)
  if (result.changes === 0) throw apiError(404, 'Token not found')
  return { success: true as const }
}
