import type { Executor } from '../database/port'
import { sql, type Query } from '../database/sql'

/**
 * Rows that no request can use any more, removed so that no table grows
 * with time alone (docs/database.md, "Housekeeping"): sessions that ended
 * (expired or signed out) more than 30 days ago, the 30 days staying in the
 * account's data export as its recent sign-ins; password-reset and e-mail
 * links past their expiry; passkey challenges past theirs; Idempotency-Keys
 * past their day. What each is checked against at use (its expiry) already
 * refuses them, so removing one changes no answer.
 */

/** How long an ended session stays, listed in the account's data export. */
export const ENDED_SESSION_KEPT_MS = 30 * 24 * 60 * 60 * 1000

/** Rows one statement removes at most: each is a short write, so no request waits long for the lock. */
const BATCH = 1000

const at = (ms: number) => new Date(ms).toISOString()

/** The statements, by table: each removes up to BATCH rows that are due at `nowMs`. */
function dueRows(nowMs: number): Record<string, Query> {
  const now = at(nowMs)
  const ended = at(nowMs - ENDED_SESSION_KEPT_MS)
  const keyCutoff = at(nowMs - 24 * 60 * 60 * 1000)
  return {
    sessions: sql`DELETE FROM sessions WHERE id IN (SELECT id FROM sessions
      WHERE expires_at < ${ended} OR revoked_at < ${ended} LIMIT ${BATCH})`,
    password_reset_tokens: sql`DELETE FROM password_reset_tokens WHERE id IN (SELECT id FROM password_reset_tokens
      WHERE expires_at < ${now} LIMIT ${BATCH})`,
    email_verification_tokens: sql`DELETE FROM email_verification_tokens WHERE id IN (SELECT id FROM email_verification_tokens
      WHERE expires_at < ${now} LIMIT ${BATCH})`,
    webauthn_challenges: sql`DELETE FROM webauthn_challenges WHERE challenge IN (SELECT challenge FROM webauthn_challenges
      WHERE expires_at <= ${now} LIMIT ${BATCH})`,
    request_keys: sql`DELETE FROM request_keys WHERE (user_id, key) IN (SELECT user_id, key FROM request_keys
      WHERE created_at < ${keyCutoff} LIMIT ${BATCH})`,
  }
}

/** Removes every row due at `nowMs`, a batch at a time; answers how many went from each table (tables with none left out). */
export async function sweepEndedRows(db: Executor, nowMs = Date.now()): Promise<Record<string, number>> {
  const removed: Record<string, number> = {}
  for (const [table, statement] of Object.entries(dueRows(nowMs))) {
    let changes: number
    do {
      changes = (await db.run(statement)).changes
      if (changes > 0) removed[table] = (removed[table] ?? 0) + changes
    } while (changes === BATCH)
  }
  return removed
}
