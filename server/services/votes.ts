import { createHmac } from 'node:crypto'
import type { Executor } from '../database/port'
import { FOR_SHARE, FOR_UPDATE, inList, sql, type Query } from '../database/sql'
import { apiError, unlessGone } from './errors'
import type { Actor, Caller } from './sessions'
import { visibleTo } from './upload-queries'
import { orderedId } from './ordered-ids'

export type VoteValue = 'fucks' | 'does_not_fuck'
export type AnonymousVoteValue = 'upvote' | 'downvote'

/** How a vote moves the counters: [upvotes, downvote_count]. */
const DELTA: Record<VoteValue, [number, number]> = { fucks: [1, 0], does_not_fuck: [0, 1] }

/**
 * Who casts or withdraws a vote (server/services/sessions.ts `Caller`). A
 * session looked up by the vote's first statement locks the user row with the
 * same statement, where looking the session up first and then locking the
 * user took a statement more (on PostgreSQL a round trip).
 */
export type Voter = Caller

/**
 * Locks, in one fixed order, what a vote's counter change depends on: the
 * voter's user row (so a concurrent shadow-ban waits, and is waited for),
 * then the upload row (so votes on one upload apply one after another).
 * Answers who votes, whether they are shadow-banned (as read under the lock)
 * and whether the upload is visible to them (to anyone with `anyUpload`).
 * SQLite needs no locks: its transactions are serial.
 */
async function lockVoteRows(tx: Executor, uploadId: string, voter: Voter, options: { anyUpload?: boolean } = {}) {
  let actor: Actor
  let shadowBanned: boolean
  if (typeof voter === 'function') {
    actor = await voter(tx)
    shadowBanned = actor.shadowBanned
  }
  else {
    actor = voter
    shadowBanned = (await tx.get<{ shadow_banned: number }>(sql`SELECT shadow_banned FROM users WHERE id = ${actor.id}${FOR_SHARE}`))?.shadow_banned === 1
  }
  const visible = await lockUpload(tx, uploadId, options.anyUpload ? { id: actor.id, isAdmin: true } : actor)
  return { actor, shadowBanned, visible }
}

/** Locks an upload row if `viewer` may see it (null: a visitor, public uploads only): whether it did. */
async function lockUpload(tx: Executor, uploadId: string, viewer: Pick<Actor, 'id' | 'isAdmin'> | null): Promise<boolean> {
  return await tx.get(sql`SELECT id FROM uploads u WHERE u.id = ${uploadId} AND ${visibleTo(viewer)}${FOR_UPDATE}`) !== undefined
}

/** Moves an upload's counters (not for a shadow-banned voter, whose votes are not counted). */
async function moveCounts(tx: Executor, uploadId: string, [up, down]: [number, number]): Promise<void> {
  if (up === 0 && down === 0) return
  await tx.run(movedCounts(uploadId, sql`${up}`, sql`${down}`))
}

/** The UPDATE that adds `up` and `down` to an upload's counters (if `when` holds): a statement, or on PostgreSQL a step of one. */
function movedCounts(uploadId: string, up: Query, down: Query, when?: Query): Query {
  return sql`UPDATE uploads SET upvotes = upvotes + ${up}, downvote_count = downvote_count + ${down} WHERE id = ${uploadId}${when ? sql` AND ${when}` : sql.raw('')}`
}

/**
 * POST /api/vote: records or replaces the caller's vote and moves the counts
 * in the same transaction. The same value again changes nothing.
 */
export function castVote(db: Executor, voter: Voter, input: { uploadId: string, vote: VoteValue }) {
  return db.transaction(async (tx) => {
    const { actor, shadowBanned, visible } = await lockVoteRows(tx, input.uploadId, voter)
    if (!visible) throw apiError(400, 'Invalid upload ID')
    const write = tx.dialect === 'postgres' ? writeVoteInOne : writeVote
    const voteId = await write(tx, { userId: actor.id, ...input }, !shadowBanned)
    return { vote: { voteId, userId: actor.id, uploadId: input.uploadId, vote: input.vote } }
  })
}

interface VoteWrite { userId: string, uploadId: string, vote: VoteValue }

/**
 * The caller's vote written (inserted, changed, or left as it is when the
 * value is the same) and, when `counts`, the upload's counters moved; the
 * vote's id. Runs after `lockVoteRows`, so no other vote on the upload
 * changes in between.
 */
async function writeVote(tx: Executor, { userId, uploadId, vote }: VoteWrite, counts: boolean): Promise<string> {
  const previous = await tx.get<{ id: string, vote: VoteValue }>(sql`SELECT id, vote FROM votes WHERE user_id = ${userId} AND upload_id = ${uploadId}`)
  if (!previous) {
    const voteId = orderedId()
    await tx.run(sql`INSERT INTO votes (id, user_id, upload_id, vote) VALUES (${voteId}, ${userId}, ${uploadId}, ${vote})`)
    if (counts) await moveCounts(tx, uploadId, DELTA[vote])
    return voteId
  }
  if (previous.vote !== vote) {
    await tx.run(sql`UPDATE votes SET vote = ${vote}, updated_at = ${new Date().toISOString()} WHERE id = ${previous.id}`)
    const [oldUp, oldDown] = DELTA[previous.vote]
    const [newUp, newDown] = DELTA[vote]
    if (counts) await moveCounts(tx, uploadId, [newUp - oldUp, newDown - oldDown])
  }
  return previous.id
}

/**
 * `writeVote` as one PostgreSQL statement: reading the previous vote,
 * writing the new one and moving the counters were three round trips, each
 * made while the upload row stayed locked. A vote cost PostgreSQL about
 * 400 µs of CPU and the transaction held its lock for four round trips;
 * of two votes on one upload close together (the bench sends them in
 * pairs), the second waited for all four. Now the lock is held over this
 * statement and the COMMIT. The statement runs after the lock was taken, so
 * its snapshot holds every vote committed on the upload before, as the
 * separate SELECT's did. SQLite has no writes inside WITH, and its round
 * trips are calls in this process: it keeps the steps.
 */
async function writeVoteInOne(tx: Executor, { userId, uploadId, vote }: VoteWrite, counts: boolean): Promise<string> {
  const [up, down] = DELTA[vote]
  const row = await tx.get<{ id: string }>(sql`WITH previous AS (
      SELECT id, vote FROM votes WHERE user_id = ${userId} AND upload_id = ${uploadId}
    ), inserted AS (
      INSERT INTO votes (id, user_id, upload_id, vote) SELECT ${orderedId()}, ${userId}, ${uploadId}, ${vote}
      WHERE NOT EXISTS (SELECT 1 FROM previous) RETURNING id
    ), changed AS (
      UPDATE votes SET vote = ${vote}, updated_at = ${new Date().toISOString()} FROM previous
      WHERE votes.id = previous.id AND previous.vote <> ${vote} RETURNING previous.vote AS was
    ), counted AS (${movedCounts(uploadId,
      sql`${up} - (SELECT count(*) FROM changed WHERE was = 'fucks')`,
      sql`${down} - (SELECT count(*) FROM changed WHERE was = 'does_not_fuck')`,
      sql`${counts ? 1 : 0} = 1 AND (EXISTS (SELECT 1 FROM inserted) OR EXISTS (SELECT 1 FROM changed))`)})
    SELECT id FROM previous UNION ALL SELECT id FROM inserted`)
  return row!.id
}

/** GET /api/vote: the caller's vote on one upload, or null. */
export async function voteOf(db: Executor, actor: Actor, uploadId: string) {
  const row = await db.get<{ vote: VoteValue }>(sql`SELECT vote FROM votes WHERE user_id = ${actor.id} AND upload_id = ${uploadId}`)
  return { vote: row?.vote ?? null }
}

/** DELETE /api/vote: removes the caller's vote (if any) and its share of the counts. */
export async function removeVote(db: Executor, voter: Voter, uploadId: string) {
  await db.transaction(async (tx) => {
    const { actor, shadowBanned } = await lockVoteRows(tx, uploadId, voter, { anyUpload: true })
    if (tx.dialect === 'postgres') {
      // As `writeVoteInOne`: the delete and the counters in one round trip under the upload's lock.
      await tx.run(sql`WITH removed AS (
          DELETE FROM votes WHERE user_id = ${actor.id} AND upload_id = ${uploadId} RETURNING vote
        ) ${movedCounts(uploadId,
          sql`-(SELECT count(*) FROM removed WHERE vote = 'fucks')`,
          sql`-(SELECT count(*) FROM removed WHERE vote = 'does_not_fuck')`,
          sql`${shadowBanned ? 0 : 1} = 1 AND EXISTS (SELECT 1 FROM removed)`)}`)
      return
    }
    const removed = await tx.get<{ vote: VoteValue }>(sql`DELETE FROM votes WHERE user_id = ${actor.id} AND upload_id = ${uploadId} RETURNING vote`)
    if (removed && !shadowBanned) {
      const [up, down] = DELTA[removed.vote]
      await moveCounts(tx, uploadId, [-up, -down])
    }
  })
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
 * carrying the earlier vote. Check, insert and count run in one transaction;
 * on PostgreSQL in one statement (`anonymousVoteInOne`).
 */
export async function castAnonymousVote(db: Executor, voter: AnonymousVoter, input: { uploadId: string, vote: AnonymousVoteValue, clientFingerprint: string }) {
  const ipHash = hashSignal(voter.secret, voter.ip)
  const userAgentHash = voter.userAgent ? hashSignal(voter.secret, `ua:${voter.userAgent}`) : null
  // The two unique indexes (upload + IP hash, upload + fingerprint) decide:
  // of concurrent first votes exactly one row goes in, the others insert nothing.
  const insert = (from?: Query) => sql`INSERT INTO anonymous_votes (id, upload_id, ip_hash, fingerprint, user_agent_hash, vote)
    SELECT ${orderedId()}, ${input.uploadId}, ${ipHash}, ${input.clientFingerprint}, ${userAgentHash}, ${input.vote}${from ?? sql.raw('')}
    ON CONFLICT DO NOTHING RETURNING id`
  const [up, down]: [number, number] = input.vote === 'upvote' ? [1, 0] : [0, 1]
  const inserted = db.dialect === 'postgres'
    ? await anonymousVoteInOne(db, input.uploadId, insert(sql` FROM target`), [up, down])
    : await db.transaction(async (tx) => {
        if (!await lockUpload(tx, input.uploadId, null)) throw apiError(400, 'Invalid upload ID')
        const row = await tx.get(insert())
        if (row) await moveCounts(tx, input.uploadId, [up, down])
        return row !== undefined
      })
  if (!inserted) {
    const earlier = await db.get<{ vote: AnonymousVoteValue }>(sql`SELECT vote FROM anonymous_votes
      WHERE upload_id = ${input.uploadId} AND (ip_hash = ${ipHash} OR fingerprint = ${input.clientFingerprint})
      ORDER BY CASE WHEN ip_hash = ${ipHash} THEN 0 ELSE 1 END LIMIT 1`)
    throw apiError(409, 'You have already voted on this upload', { success: false, alreadyVoted: true, existingVote: earlier?.vote ?? input.vote })
  }
  return { success: true as const, alreadyVoted: false as const, vote: input.vote }
}

/**
 * The anonymous vote as one PostgreSQL statement outside a transaction: the
 * upload read as public, the vote inserted unless a unique index has one, the
 * counters moved when it went in. It was four round trips (BEGIN, the upload
 * locked, the insert with its count, COMMIT) holding the upload row locked
 * over three of them. Nothing here needs that lock: the unique indexes decide
 * between concurrent votes, and an UPDATE adds to the latest counters even when
 * another vote moved them after this statement's snapshot. An upload made
 * private as the vote lands may still take it, as it would have a moment
 * before; one deleted under it fails the vote's foreign key: 400 as unknown.
 * Whether the vote went in; 400 when there is no such public upload.
 */
async function anonymousVoteInOne(db: Executor, uploadId: string, insert: Query, [up, down]: [number, number]): Promise<boolean> {
  const row = await unlessGone(db.get<{ visible: number, inserted: number }>(sql`WITH target AS (
      SELECT u.id FROM uploads u WHERE u.id = ${uploadId} AND ${visibleTo(null)}
    ), inserted AS (${insert}), counted AS (${movedCounts(uploadId, sql`${up}`, sql`${down}`, sql`EXISTS (SELECT 1 FROM inserted)`)})
    SELECT (SELECT count(*) FROM target)::int AS visible, (SELECT count(*) FROM inserted)::int AS inserted`), () => apiError(400, 'Invalid upload ID'))
  if (!row || row.visible === 0) throw apiError(400, 'Invalid upload ID')
  return row.inserted === 1
}

/** Counted votes of one kind on `uploads.id`: users not shadow-banned plus anonymous votes. */
const counted = (userVote: VoteValue, anonymousVote: AnonymousVoteValue) => sql`
  (SELECT count(*) FROM votes v JOIN users us ON us.id = v.user_id
    WHERE v.upload_id = uploads.id AND v.vote = ${userVote} AND us.shadow_banned = 0)
  + (SELECT count(*) FROM anonymous_votes a WHERE a.upload_id = uploads.id AND a.vote = ${anonymousVote})`

/** Uploads locked and recounted per batch; between two batches, other work on the event loop runs. */
const RECOUNT_BATCH = 500

/**
 * Sets every counter of the given uploads from the vote rows (the one
 * recount, used by shadow-ban and account deletion). `uploadIds` selects
 * each upload id once, in a column named `id`. Inside the caller's
 * transaction, in batches of 500 uploads taken in id order (read through
 * an index when `uploadIds` has one): the batch's upload rows are locked
 * first, so votes in flight on them finish before the count and later ones
 * wait for it, then one set-based UPDATE counts them from a snapshot taken
 * after the locks. Each batch takes milliseconds and the event loop runs in
 * between: on SQLite one UPDATE over 30,000 uploads held the main thread
 * for about half a second. The counts stay exact, as every upload is
 * counted after its lock, in the one transaction.
 */
export async function recountUploads(tx: Executor, uploadIds: Query): Promise<void> {
  let after = ''
  for (;;) {
    const batch = (await tx.all<{ id: string }>(sql`SELECT chosen.id FROM (${uploadIds}) chosen WHERE chosen.id > ${after}
      ORDER BY chosen.id LIMIT ${RECOUNT_BATCH}`)).map(row => row.id)
    if (batch.length === 0) return
    await tx.all(sql`SELECT id FROM uploads WHERE id ${inList(batch)} ORDER BY id${FOR_UPDATE}`)
    await tx.run(sql`UPDATE uploads SET upvotes = ${counted('fucks', 'upvote')}, downvote_count = ${counted('does_not_fuck', 'downvote')}
      WHERE id ${inList(batch)}`)
    if (batch.length < RECOUNT_BATCH) return
    after = batch.at(-1)!
    await new Promise(resolve => setImmediate(resolve))
  }
}

/** GET /api/vote/mine: the caller's votes on the given uploads, by upload id (those not voted on left out). */
export async function votesOf(db: Executor, actor: Actor, uploadIds: string[]) {
  const rows = await db.all<{ upload_id: string, vote: VoteValue }>(sql`SELECT upload_id, vote FROM votes
    WHERE user_id = ${actor.id} AND upload_id ${inList(uploadIds)}`)
  return { votes: Object.fromEntries(rows.map(row => [row.upload_id, row.vote])) }
}
