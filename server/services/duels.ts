import { createHmac, hkdfSync, randomUUID, timingSafeEqual } from 'node:crypto'
import { eloAfter } from '../../shared/utils/elo'
import { periodStart, type Period } from '../../shared/utils/ranking'
import { slugify } from '../../shared/utils/tags'
import type { Database, Executor } from '../database/port'
import { dialects, FOR_SHARE, inList, sql, type Query } from '../database/sql'
import { apiError } from './errors'
import { cachedList, type DataVersion } from './list-cache'
import { resolveSlugsIn } from './tag-rules'
import { ENTRY_COLUMNS, filterKey, filtering, NO_FILTER, withTags, type CallerFilter, type ListRow, type Paging } from './lists'
import { liveSessionQuery, noteSessionUse, type SessionClaims } from './sessions'
import { hashSignal } from './votes'

/**
 * Who judges a duel (docs/behaviour.md, This or That): an account, or a
 * visitor known by the fingerprint they send and the keyed hash of their IP,
 * as anonymous votes are. A pair judged under either signal counts as judged.
 * An account judging with a cookie comes with the session's checked claims:
 * the judgement reads the session itself and is a 401 when it is not live.
 */
export type DuelJudge
  = | { userId: string, session?: SessionClaims }
    | { ipHash: string, fingerprint: string }

/** How long a duel may be judged after it was handed out. */
export const DUEL_TTL_MS = 3600_000

/** What a duel's id carries, signed: its own id, the pair as shown, who it was given to, and until when. */
export interface DuelClaims { id: string, left: string, right: string, judge: string, expires: number }

/** The key of the duels' HMAC, derived from the session secret so that every instance shares it. */
export function duelKey(sessionSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionSecret, Buffer.alloc(0), 'does-it-fuck duel id v1', 32))
}

/** The judge as a duel's id names it; a visitor by their fingerprint's keyed hash, never the fingerprint itself. */
function judgeName(key: Buffer, judge: DuelJudge): string {
  return 'userId' in judge ? `u:${judge.userId}` : `f:${hashSignal(key.toString('base64url'), judge.fingerprint)}`
}

const signature = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest()

/** A duel's id: the claims as base64url JSON, a dot, and their HMAC-SHA-256. */
export function signDuel(key: Buffer, claims: DuelClaims): string {
  const payload = Buffer.from(JSON.stringify([claims.id, claims.left, claims.right, claims.judge, claims.expires])).toString('base64url')
  return `${payload}.${signature(key, payload).toString('base64url')}`
}

const invalidDuel = () => apiError(400, 'Invalid duel')

/** The claims of a duel id signed with `key`, unexpired and given to `judge`; 400 `Invalid duel` otherwise. */
export function openDuel(key: Buffer, duelId: string, judge: DuelJudge, now = Date.now()): DuelClaims {
  const [payload, mac, ...rest] = duelId.split('.')
  if (!payload || !mac || rest.length > 0) throw invalidDuel()
  const expected = signature(key, payload)
  const given = Buffer.from(mac, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidDuel()
  let fields: unknown
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString())
  }
  catch {
    throw invalidDuel()
  }
  if (!Array.isArray(fields) || fields.length !== 5) throw invalidDuel()
  const [id, left, right, judgeOf, expires] = fields as [string, string, string, string, number]
  if (typeof expires !== 'number' || expires <= now || judgeOf !== judgeName(key, judge)) throw invalidDuel()
  return { id, left, right, judge: judgeOf, expires }
}

/**
 * The pool of a duel: public images, by their standing `s` (a row of
 * duel_standings, one per image, `in_pool` while it is public). The pool's
 * walks read the caller's filter by the standing's id (`filtering` with an
 * id: a lookup of the upload per row looked at), never as a join: PostgreSQL
 * planned the join as a scan of both tables, 12 ms for `next` at 100,000
 * images. STANDINGS, with the upload `u`, is for the rows answered.
 */
const POOL = sql`s.in_pool = 1`

/** Locks the standings (`s`) a judgement reads, not the judge's row it holds FOR SHARE. */
const FOR_UPDATE_OF_STANDINGS = dialects({ sqlite: '', postgres: ' FOR UPDATE OF s' })

const STANDINGS = sql`duel_standings s JOIN uploads u ON u.id = s.upload_id`
const STANDING_ID = sql`s.upload_id`

/** ` AND` the pair (`a`, `b`, upload ids in either order) has not been judged by `judge`. */
function notJudged(judge: DuelJudge, a: Query, b: Query): Query {
  const pair = sql`j.low_id = CASE WHEN ${a} < ${b} THEN ${a} ELSE ${b} END AND j.high_id = CASE WHEN ${a} < ${b} THEN ${b} ELSE ${a} END`
  if ('userId' in judge) return sql` AND NOT EXISTS (SELECT 1 FROM duel_judgements j WHERE j.user_id = ${judge.userId} AND ${pair})`
  return sql` AND NOT EXISTS (SELECT 1 FROM duel_judgements j WHERE j.fingerprint = ${judge.fingerprint} AND ${pair})
    AND NOT EXISTS (SELECT 1 FROM duel_judgements j WHERE j.ip_hash = ${judge.ipHash} AND ${pair})`
}

/** Opponents looked at on each side of an image in strength order. */
export const DUEL_NEIGHBOURS = 8
/** Random images tried before the pairs are walked in id order. */
const DUEL_TRIES = 4

interface Standing { id: string, strength: number }

/**
 * The opponent for an image of strength `strength` among its nearest unjudged
 * neighbours: the `DUEL_NEIGHBOURS` closest in strength, one of them at
 * random, so a close pair is likelier than a distant one without the same
 * pair coming up for everyone.
 */
export function pickOpponent(strength: number, neighbours: readonly Standing[], random = Math.random): Standing | null {
  if (neighbours.length === 0) return null
  const nearest = [...neighbours].sort((a, b) => Math.abs(a.strength - strength) - Math.abs(b.strength - strength)).slice(0, DUEL_NEIGHBOURS)
  return nearest[Math.floor(random() * nearest.length)]!
}

/**
 * A random image of the pool that `filter` leaves in: the first by id from
 * a random id on (wrapping round), through the primary key. Upload ids are
 * random UUIDs, so each image is about as likely.
 */
async function randomImage(db: Executor, filter: CallerFilter): Promise<Standing | undefined> {
  const from = randomUUID()
  const first = (bound: Query) => db.get<Standing>(sql`SELECT s.upload_id AS id, s.strength FROM duel_standings s
    WHERE ${POOL}${bound}${filtering(filter, STANDING_ID)} ORDER BY s.upload_id LIMIT 1`)
  return await first(sql` AND s.upload_id >= ${from}`) ?? await first(sql``)
}

/**
 * The image's nearest neighbours in strength order (strength, then id) that the
 * judge has not compared it with, up to DUEL_NEIGHBOURS on each side: two
 * ranges of duel_standings_pool_idx, read until each has its count.
 */
function neighboursOf(db: Executor, judge: DuelJudge, filter: CallerFilter, image: Standing): Promise<Standing[]> {
  const side = (after: boolean) => sql`SELECT * FROM (SELECT s.upload_id AS id, s.strength FROM duel_standings s
    WHERE ${POOL} AND (s.strength, s.upload_id) ${sql.raw(after ? '>' : '<')} (${image.strength}, ${image.id})${
      filtering(filter, STANDING_ID)}${notJudged(judge, STANDING_ID, sql`${image.id}`)}
    ORDER BY s.strength ${sql.raw(after ? 'ASC' : 'DESC')}, s.upload_id ${sql.raw(after ? 'ASC' : 'DESC')} LIMIT ${sql.raw(String(DUEL_NEIGHBOURS))}) n`
  return db.all<Standing>(sql`${side(true)} UNION ALL ${side(false)}`)
}

/**
 * The first pair in id order the judge has not compared: the last resort once
 * random images found none, so that `null` means none is left. Every pair it
 * passes over is one the judge has judged, so its cost follows their judgements.
 */
function firstUnjudgedPair(db: Executor, judge: DuelJudge, filter: CallerFilter): Promise<{ a: string, b: string } | undefined> {
  return db.get(sql`SELECT s.upload_id AS a, t.upload_id AS b FROM duel_standings s JOIN duel_standings t ON t.upload_id > s.upload_id AND t.in_pool = 1
    WHERE ${POOL}${filtering(filter, STANDING_ID)}${filtering(filter, sql`t.upload_id`)}${notJudged(judge, STANDING_ID, sql`t.upload_id`)}
    ORDER BY s.upload_id, t.upload_id LIMIT 1`)
}

/** The columns of a duel entry (from STANDINGS and the owner `us`): a list entry's, the owner's name, and the standing. */
const DUEL_ENTRY_COLUMNS = sql`${ENTRY_COLUMNS}, us.username, s.strength, s.wins, s.losses`

type DuelRow = ListRow & { strength: number, wins: number, losses: number }

/** The one mapping of a row to a duel entry: the list entry with its strength, wins and losses. */
async function duelEntries(db: Executor, rows: DuelRow[]) {
  const entries = await withTags(db, rows)
  return entries.map((entry, i) => ({ ...entry, strength: rows[i]!.strength, wins: rows[i]!.wins, losses: rows[i]!.losses }))
}

/**
 * GET /api/duel/next: two public images the judge has not compared, the
 * second among the nearest in strength to the first, shown in random order,
 * with a signed duel id; `{ duelId: null }` when no pair is left. `filter`
 * narrows the pool as the judge's lists are narrowed: the ratings shown and
 * the hidden tags (docs/behaviour.md, This or That).
 */
export async function nextDuel(db: Executor, key: Buffer, judge: DuelJudge, filter: CallerFilter = NO_FILTER, now = Date.now()) {
  let pair: [string, string] | null = null
  for (let i = 0; i < DUEL_TRIES && !pair; i++) {
    const image = await randomImage(db, filter)
    if (!image) return { duelId: null }
    const opponent = pickOpponent(image.strength, await neighboursOf(db, judge, filter, image))
    if (opponent) pair = [image.id, opponent.id]
  }
  if (!pair) {
    const found = await firstUnjudgedPair(db, judge, filter)
    if (!found) return { duelId: null }
    pair = [found.a, found.b]
  }
  if (Math.random() < 0.5) pair.reverse()
  const rows = await db.all<DuelRow>(sql`SELECT ${DUEL_ENTRY_COLUMNS} FROM ${STANDINGS} JOIN users us ON us.id = u.user_id
    WHERE u.id ${inList(pair)}`)
  const [left, right] = await duelEntries(db, pair.map(id => rows.find(row => row.id === id)!))
  const duelId = signDuel(key, { id: randomUUID(), left: pair[0], right: pair[1], judge: judgeName(key, judge), expires: now + DUEL_TTL_MS })
  return { duelId, left: left!, right: right! }
}

interface Locked { id: string, strength: number, wins: number, losses: number }

const standing = (row: Locked) => ({ id: row.id, strength: row.strength, wins: row.wins, losses: row.losses })

/**
 * POST /api/duel: the judge's verdict on a duel handed out to them (its
 * claims opened with `openDuel`, so a bad id is refused before the
 * transaction). The duel's id becomes the judgement's, so it is used once
 * (400 `Invalid duel` after that); one judgement per judge and pair (409
 * `Already judged`), a skip included. Locks, in the lock order (docs/behaviour.md, This or That):
 * the judge's user row (a shadow-ban waits for it, and its judgements move
 * nothing), then both images' standings in id order, reads their strengths
 * under the lock and writes both, so judgements of one image apply one after
 * another on every engine and instance.
 */
export function judgeDuel(db: Executor, judge: DuelJudge, duel: DuelClaims, choice: 'left' | 'right' | 'skip') {
  const [low, high] = duel.left < duel.right ? [duel.left, duel.right] : [duel.right, duel.left]
  return db.transaction(async (tx) => {
    let counts = choice !== 'skip'
    const nowMs = Date.now()
    const userId = 'userId' in judge ? judge.userId : null
    const session = 'userId' in judge ? judge.session : undefined
    // The judge's row held FOR SHARE (with its session's, when it came with one), then the pair's
    // standings locked in id order (docs/database.md, "Locks and their order"); on PostgreSQL in
    // one round trip: the standings' filter needs the judge's row, so it is locked before them.
    const judgeRow = userId === null
      ? sql`SELECT 0 AS shadow_banned, NULL AS last_seen_at`
      : session
        ? liveSessionQuery(session, nowMs, { lockUser: true })
        : sql`SELECT shadow_banned, NULL AS last_seen_at FROM users WHERE id = ${userId}${FOR_SHARE}`
    const rows = await tx.all<Locked & { shadow_banned: number, last_seen_at: string | null }>(sql`WITH judge AS MATERIALIZED (${judgeRow})
      SELECT s.upload_id AS id, s.strength, s.wins, s.losses, (SELECT shadow_banned FROM judge) AS shadow_banned, (SELECT last_seen_at FROM judge) AS last_seen_at
      FROM duel_standings s WHERE s.upload_id ${inList([low, high])} AND ${POOL} AND EXISTS (SELECT 1 FROM judge)
      ORDER BY s.upload_id${FOR_UPDATE_OF_STANDINGS}`)
    const lowRow = rows.find(row => row.id === low)
    const highRow = rows.find(row => row.id === high)
    if (!lowRow || !highRow) {
      if (userId !== null && !await tx.get(session ? liveSessionQuery(session, nowMs) : sql`SELECT id FROM users WHERE id = ${userId}`)) throw apiError(401, 'Invalid or expired token')
      // An image deleted or made private since the duel was handed out.
      throw invalidDuel()
    }
    if (lowRow.shadow_banned === 1) counts = false
    const winnerId = choice === 'skip' ? null : choice === 'left' ? duel.left : duel.right
    const who = 'userId' in judge ? { user: judge.userId, fingerprint: null, ip: null } : { user: null, fingerprint: judge.fingerprint, ip: judge.ipHash }
    const insert = sql`INSERT INTO duel_judgements (id, low_id, high_id, user_id, fingerprint, ip_hash, winner, counted)
      VALUES (${duel.id}, ${low}, ${high}, ${who.user}, ${who.fingerprint}, ${who.ip}, ${winnerId === null ? 'skip' : winnerId === low ? 'low' : 'high'}, ${counts ? 1 : 0})
      ON CONFLICT DO NOTHING RETURNING id`
    let moved: Query | undefined
    if (counts && winnerId !== null) {
      const [winner, loser] = winnerId === low ? [lowRow, highRow] : [highRow, lowRow]
      const [winnerStrength, loserStrength] = eloAfter(winner.strength, loser.strength)
      winner.strength = winnerStrength
      winner.wins += 1
      loser.strength = loserStrength
      loser.losses += 1
      // Both rows in one statement.
      const of = (column: 'strength' | 'wins' | 'losses') => {
        const type = sql.raw(column === 'strength' ? 'double precision' : 'integer')
        return sql`CASE WHEN upload_id = ${low} THEN CAST(${lowRow[column]} AS ${type}) ELSE CAST(${highRow[column]} AS ${type}) END`
      }
      moved = sql`UPDATE duel_standings SET strength = ${of('strength')}, wins = ${of('wins')}, losses = ${of('losses')}
        WHERE upload_id ${inList([low, high])}`
    }
    // On PostgreSQL the standings move in the judgement's statement, when it went in; SQLite has no writing WITH.
    const inserted = tx.dialect === 'postgres' && moved
      ? await tx.get(sql`WITH inserted AS (${insert}), moved AS (${moved} AND EXISTS (SELECT 1 FROM inserted)) SELECT id FROM inserted`)
      : await tx.get(insert)
    if (!inserted) {
      const used = await tx.get(sql`SELECT id FROM duel_judgements WHERE id = ${duel.id}`)
      throw used ? invalidDuel() : apiError(409, 'Already judged')
    }
    if (moved && tx.dialect === 'sqlite') await tx.run(moved)
    if (session) await noteSessionUse(tx, session.sid, lowRow.last_seen_at, nowMs)
    const byId = (id: string) => standing(id === low ? lowRow : highRow)
    return { left: byId(duel.left), right: byId(duel.right) }
  })
}

/** Judgements an image needs to appear on the leaderboard. */
export const LEADERBOARD_MIN_JUDGEMENTS = 5

/**
 * The leaderboard's total counts its images up to this many: counting them all
 * read every ranked row (on SQLite a scan of the whole table, the main thread
 * held), and no one pages that deep.
 */
export const LEADERBOARD_TOTAL_MAX = 10_000

/**
 * GET /api/duels/leaderboard: public images judged at least five times,
 * strongest first (ties: newest id first), optionally of one tag and of
 * uploads created within the period (the period is the upload's, as the
 * other lists take it), with the total (up to LEADERBOARD_TOTAL_MAX). `filter`
 * leaves out what the caller's lists leave out (`rating=`, an account's hidden
 * ratings and tags), as for the pool of GET /api/duel/next; it is part of the
 * cache key. Read in the order of duel_standings_ranked_idx.
 */
export function duelLeaderboard(db: Database, query: Paging & { tag?: string, period: Period }, filter: CallerFilter = NO_FILTER, at?: DataVersion) {
  const slug = query.tag === undefined ? '' : slugify(query.tag)
  const since = periodStart(query.period)
  return cachedList(db, `duels ${query.page} ${query.limit} ${slug} ${since ?? ''} ${filterKey(filter)}`, async () => {
    const where = sql`${POOL} AND s.wins + s.losses >= ${sql.raw(String(LEADERBOARD_MIN_JUDGEMENTS))}${
      since === null ? sql`` : sql` AND u.created_at >= ${since}`}${filtering(filter, STANDING_ID)}${
      slug === '' ? sql`` : sql` AND s.upload_id IN (SELECT ut.upload_id FROM upload_tags ut JOIN tags t ON t.id = ut.tag_id WHERE t.slug = ${(await resolveSlugsIn(db, [slug]))[0]!})`}`
    const order = sql`ORDER BY s.strength DESC, s.upload_id DESC`
    // The count reads the upload's row only for a period: up to 10,000 lookups it would not need otherwise.
    const total = Number((await db.get<{ total: number }>(sql`SELECT count(*) AS total FROM (SELECT s.upload_id FROM ${since === null ? sql`duel_standings s` : STANDINGS}
      WHERE ${where} ${order} LIMIT ${sql.raw(String(LEADERBOARD_TOTAL_MAX))}) ranked`))!.total)
    const rows = await db.all<DuelRow>(sql`SELECT ${DUEL_ENTRY_COLUMNS} FROM ${STANDINGS} JOIN users us ON us.id = u.user_id
      WHERE ${where} ${order} LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}`)
    return { uploads: await duelEntries(db, rows), total, page: query.page, limit: query.limit }
  }, at)
}
