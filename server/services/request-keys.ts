import { createHash } from 'node:crypto'
import type { Executor } from '../database/port'
import { sql } from '../database/sql'
import { apiError } from './errors'

/** How long a keyed request's answer is kept for a retry. */
export const REQUEST_KEY_TTL_MS = 24 * 60 * 60 * 1000

/**
 * A create sent with an `Idempotency-Key` (docs/behaviour.md, Sending again):
 * the account, its key, and the fingerprint of what it sent.
 */
export interface KeyedRequest { userId: string, key: string, fingerprint: string }

/** Hands a create's answer to its transaction, to be kept with the key (keepAnswer). */
export type KeepAnswer = (tx: Executor, answer: unknown) => Promise<void>

/** Thrown by keepAnswer when the key's answer was kept meanwhile, by the same request sent twice at once. */
export class RequestKeyTaken extends Error {}

export const REUSED_KEY_MESSAGE = 'This Idempotency-Key was sent with a different request'
export const reusedKeyError = () => apiError(409, REUSED_KEY_MESSAGE)

/** The fingerprint of a request: its method, its path (no query) and what it sent, validated. */
export function requestFingerprint(method: string, path: string, sent: unknown): string {
  return createHash('sha256').update(`${method} ${path.split('?')[0]}\n${JSON.stringify(sent)}`).digest('hex')
}

const cutoff = () => new Date(Date.now() - REQUEST_KEY_TTL_MS).toISOString()

/**
 * The answer kept for `request`'s key (undefined when there is none, or it
 * is a day old); 409 when the key was sent before with another request.
 */
export async function keptAnswer(db: Executor, request: KeyedRequest): Promise<unknown> {
  const row = await db.get<{ fingerprint: string, answer: string }>(sql`SELECT fingerprint, answer FROM request_keys
    WHERE user_id = ${request.userId} AND key = ${request.key} AND created_at >= ${cutoff()}`)
  if (!row) return undefined
  if (row.fingerprint !== request.fingerprint) throw reusedKeyError()
  return JSON.parse(row.answer) as unknown
}

/** Whether `userId`'s `key` has an answer kept (less than a day old), whatever request it was for. */
export async function keyKept(db: Executor, userId: string, key: string): Promise<boolean> {
  return (await db.get(sql`SELECT 1 AS kept FROM request_keys WHERE user_id = ${userId} AND key = ${key} AND created_at >= ${cutoff()}`)) !== undefined
}

/**
 * Keeps `answer` for `request`'s key inside the create's transaction, so the
 * answer and what it created commit together. The account's day-old keys go
 * first. When the same request, sent twice at once, kept its answer first
 * (PostgreSQL waits here for that transaction), throws RequestKeyTaken: the
 * caller rolls back and replays that answer.
 */
export async function keepAnswer(tx: Executor, request: KeyedRequest, answer: unknown): Promise<void> {
  await tx.run(sql`DELETE FROM request_keys WHERE user_id = ${request.userId} AND created_at < ${cutoff()}`)
  const { changes } = await tx.run(sql`INSERT INTO request_keys (user_id, key, fingerprint, answer, created_at)
    VALUES (${request.userId}, ${request.key}, ${request.fingerprint}, ${JSON.stringify(answer)}, ${new Date().toISOString()})
    ON CONFLICT (user_id, key) DO NOTHING`)
  if (changes === 0) throw new RequestKeyTaken()
}
