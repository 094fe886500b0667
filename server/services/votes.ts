import { createHmac, randomUUID } from 'node:crypto'
import type Database from 'better-sqlite3'
import { prepared } from '../database/statements'
import { apiError } from '../utils/errors'
import type { Actor } from './sessions'

export type VoteValue = 'fucks' | 'does_not_fuck'
export type AnonymousVoteValue = 'upvote' | 'downvote'

/** How a vote moves the counters: [upvotes, downvote_count]. */
const DELTA: Record<VoteValue, [number, number]> = { fucks: [1, 0], does_not_fuck: [0, 1] }

/**
 * Moves an upload's counters, unless the voter is shadow-banned (read inside
 * the same transaction, so a concurrent ban cannot be missed).
 */
function moveCounts(sqlite: Database.Database, uploadId: string, userId: string | null, [up, down]: [number, number]): void {
  if (up === 0 && down === 0) return
  prepared(sqlite, `UPDATE uploads SET upvotes = upvotes + ?, downvote_count = downvote_count + ?
    WHERE id = ? AND NOT coalesce((SELECT shadow_banned FROM users WHERE id = ?), 0)`).run(up, down, uploadId, userId)
}

/** 400 `Invalid upload ID` unless the upload exists and is public, the actor's own, or the actor is an admin. */
function assertVotable(sqlite: Database.Database, actor: Actor, uploadId: string): void {
  const found = prepared(sqlite, 'SELECT 1 FROM uploads WHERE id = ? AND (is_private = 0 OR user_id = ? OR ?)')
    .get(uploadId, actor.id, actor.isAdmin ? 1 : 0)
  if (!found) throw apiError(400, 'Invalid upload ID')
}

/**
 * POST /api/vote: records or replaces the caller's vote and moves the counts
 * in the same transaction. The same value again changes nothing.
 */
export function castVote(sqlite: Database.Database, actor: Actor, input: { uploadId: string, vote: VoteValue }) {
  return sqlite.transaction(() => {
    assertVotable(sqlite, actor, input.uploadId)
    const previous = prepared(sqlite, 'SELECT id, vote FROM votes WHERE user_id = ? AND upload_id = ?')
      .get(actor.id, input.uploadId) as { id: string, vote: VoteValue } | undefined
    let voteId = previous?.id
    if (!previous) {
      voteId = randomUUID()
      prepared(sqlite, 'INSERT INTO votes (id, user_id, upload_id, vote) VALUES (?, ?, ?, ?)').run(voteId, actor.id, input.uploadId, input.vote)
      moveCounts(sqlite, input.uploadId, actor.id, DELTA[input.vote])
    }
    else if (previous.vote !== input.vote) {
      prepared(sqlite, `UPDATE votes SET vote = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?`).run(input.vote, previous.id)
      const [oldUp, oldDown] = DELTA[previous.vote]
      const [newUp, newDown] = DELTA[input.vote]
      moveCounts(sqlite, input.uploadId, actor.id, [newUp - oldUp, newDown - oldDown])
    }
    return { vote: { voteId: voteId!, userId: actor.id, uploadId: input.uploadId, vote: input.vote } }
  }).immediate()
}

/** GET /api/vote: the caller's vote on one upload, or null. */
export function voteOf(sqlite: Database.Database, actor: Actor, uploadId: string) {
  const row = prepared(sqlite, 'SELECT vote FROM votes WHERE user_id = ? AND upload_id = ?').get(actor.id, uploadId) as { vote: VoteValue } | undefined
  return { vote: row?.vote ?? null }
}

/** DELETE /api/vote: removes the caller's vote (if any) and its share of the counts. */
export function removeVote(sqlite: Database.Database, actor: Actor, uploadId: string) {
  sqlite.transaction(() => {
    const removed = prepared(sqlite, 'DELETE FROM votes WHERE user_id = ? AND upload_id = ? RETURNING vote')
      .get(actor.id, uploadId) as { vote: VoteValue } | undefined
    if (removed) {
      const [up, down] = DELTA[removed.vote]
      moveCounts(sqlite, uploadId, actor.id, [-up, -down])
    }
  }).immediate()
  return { success: true as const, vote: null }
}

/** A keyed SHA-256 (HMAC) of a visitor signal; the plain value is never stored. */
export function hashSignal(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('hex')
}

export interface AnonymousVoter {
  ip: string
  userAgent: string | undefined
  /** Key of the HMAC that stands in for the IP and user agent. */
  secret: string
}

/**
 * POST /api/vote/anonymous: one vote per visitor and upload. The hashed IP is
 * checked first, then the fingerprint on its own; either match is a 409
 * carrying the earlier vote. Check, insert and count run in one transaction.
 */
export function castAnonymousVote(sqlite: Database.Database, voter: AnonymousVoter, input: { uploadId: string, vote: AnonymousVoteValue, clientFingerprint: string }) {
  const ipHash = hashSignal(voter.secret, voter.ip)
  const userAgentHash = voter.userAgent ? hashSignal(voter.secret, `ua:${voter.userAgent}`) : null
  return sqlite.transaction(() => {
    if (!prepared(sqlite, 'SELECT 1 FROM uploads WHERE id = ? AND is_private = 0').get(input.uploadId)) {
      throw apiError(400, 'Invalid upload ID')
    }
    const earlier = (prepared(sqlite, 'SELECT vote FROM anonymous_votes WHERE upload_id = ? AND ip_hash = ? LIMIT 1').get(input.uploadId, ipHash)
      ?? prepared(sqlite, 'SELECT vote FROM anonymous_votes WHERE upload_id = ? AND fingerprint = ? LIMIT 1').get(input.uploadId, input.clientFingerprint)) as { vote: AnonymousVoteValue } | undefined
    if (earlier) {
      throw apiError(409, 'You have already voted on this upload', { success: false, alreadyVoted: true, existingVote: earlier.vote })
    }
    prepared(sqlite, 'INSERT INTO anonymous_votes (id, upload_id, ip_hash, fingerprint, user_agent_hash, vote) VALUES (?, ?, ?, ?, ?, ?)')
      .run(randomUUID(), input.uploadId, ipHash, input.clientFingerprint, userAgentHash, input.vote)
    moveCounts(sqlite, input.uploadId, null, input.vote === 'upvote' ? [1, 0] : [0, 1])
    return { success: true as const, alreadyVoted: false as const, vote: input.vote }
  }).immediate()
}

/**
 * Sets every counter of the given uploads from the vote rows: votes of users
 * who are not shadow-banned plus the anonymous votes. `uploadIds` is SQL
 * selecting upload ids (with its parameters).
 */
export function recountUploads(sqlite: Database.Database, uploadIds: string, params: unknown[]): void {
  const count = (userVote: VoteValue, anonymousVote: AnonymousVoteValue) => `
    (SELECT count(*) FROM votes v JOIN users us ON us.id = v.user_id
      WHERE v.upload_id = uploads.id AND v.vote = '${userVote}' AND us.shadow_banned = 0)
    + (SELECT count(*) FROM anonymous_votes a WHERE a.upload_id = uploads.id AND a.vote = '${anonymousVote}')`
  sqlite.prepare(`UPDATE uploads SET upvotes = ${count('fucks', 'upvote')}, downvote_count = ${count('does_not_fuck', 'downvote')}
    WHERE id IN (${uploadIds})`).run(...params)
}
