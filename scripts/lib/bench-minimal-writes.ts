/**
 * The write references of `npm run bench`: the least each write of the site
 * can cost on the same engine, served by node:http with no framework. Per
 * request a signed-in write verifies the caller (the HS256 JWT in the
 * `auth-token` cookie, with jose, then its session row: not revoked, not
 * expired), and then in one transaction does only what the write must:
 *
 * - a vote (POST /api/vote): lock the upload's row, read the caller's earlier
 *   vote, upsert it and move the upload's two counters;
 * - a withdrawn vote (DELETE /api/vote): lock the upload's row, delete the
 *   vote and take it off the counters;
 * - an anonymous vote (POST /api/vote/anonymous, no JWT): the visitor's key
 *   as the site makes it (the keyed hash of the address, of the user agent),
 *   then lock the upload's row, insert the vote unless one of the two
 *   unique keys (upload and address, upload and fingerprint) has one (409),
 *   and move a counter;
 * - a favourite (PUT and DELETE /api/upload/{id}/favourite): lock the
 *   upload's row, insert or keep / delete the favourite and move the
 *   upload's favourite counter when it changed, answering
 *   `{ favourited, favourites }`;
 * - a comment (POST /api/upload/{id}/comments): lock the upload's row,
 *   insert the comment with its body, bump the upload's comment counter and
 *   answer the row;
 * - a comment vote (PUT /api/comments/{id}/vote): lock the comment's row,
 *   read the earlier vote, upsert it and move the comment's score;
 * - a judgement (POST /api/duel): check the duel id's HMAC, judge and
 *   expiry, lock the pair's rows in id order, insert the judgement keyed by
 *   the duel id and unique per judge and pair (a used id is refused, 400)
 *   and move the two counters;
 * - an edit (PATCH /api/upload/{id}, a description and the complete tag
 *   list): lock the upload's row (the caller's own, else 403), read its
 *   tags, take out the links of those gone and add those new (each tag's
 *   row made or counted, in slug order), write the description and the next
 *   revision number, keep the revision with what changed, and answer the
 *   upload with its tags.
 *
 * Its tables are its own and minimal, with as many uploads as the seeded
 * site, ten votes each and the site's comments (their ids), so an index as
 * large as ours is walked: a file beside the site's on SQLite (WAL,
 * synchronous=NORMAL, as ours), a schema `bench_minimal` in the same
 * database on PostgreSQL (a pool of 10, as ours). Nothing of ours runs in it:
 * it is what the engine and node:http can do, the number our writes are held
 * to (docs/performance.md).
 */
import { createHmac, hkdfSync, randomUUID, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'
import { freePort } from '../../tests/support/server'
import { pgTransaction, Refusal, verifiedCaller, type Session, type TransactionQuery } from './bench-minimal-common'
import { startChildServer } from './child-server'

export interface MinimalWritesSetup {
  /** PostgreSQL URL of the site's database, or undefined for SQLite. */
  databaseUrl?: string
  /** The site's data dir (SQLite: the reference's file goes beside app.sqlite). */
  dataDir: string
  /** The site's session secret (which signed the bench user's cookie and keys the duel ids) and the key of its visitors' hashes. */
  secret: string
  ipHashSecret: string
  /** The bench user's session row. */
  session: { id: string, userId: string, expiresAt: string }
  /** Every upload id of the site: the reference keeps the same number of rows. */
  uploadIds: string[]
  /** Every comment of the site (id and upload): the comment votes' comments among them. */
  comments: { id: string, uploadId: string }[]
  /** The uploads the edits change (the bench user's), with their tag names in order; only these carry tags here. */
  edited: { id: string, tags: string[] }[]
}

const SQLITE_FILE = 'bench-minimal-writes.sqlite'
const SCHEMA = 'bench_minimal'
/** The tables of the reference, for VACUUM between runs on PostgreSQL (scripts/bench.ts). */
export const MINIMAL_TABLES = ['uploads', 'votes', 'anonymous_votes', 'favourites', 'comments', 'comment_votes', 'duel_judgements', 'tags', 'upload_tags', 'revisions'].map(table => `${SCHEMA}.${table}`)

/** Creates (afresh) and fills the reference's tables, then starts it in a process of its own. */
export async function startMinimalWrites(setup: MinimalWritesSetup): Promise<{ url: string, stop: () => Promise<void> }> {
  if (setup.databaseUrl) await fillPostgres(setup.databaseUrl, setup)
  else fillSqlite(join(setup.dataDir, SQLITE_FILE), setup)
  const port = await freePort()
  const target = setup.databaseUrl ?? join(setup.dataDir, SQLITE_FILE)
  return startChildServer('minimal write reference', [import.meta.filename, target, String(port)], {
    ...process.env,
    BENCH_MINIMAL_SECRET: setup.secret,
    BENCH_MINIMAL_IP_SECRET: setup.ipHashSecret,
  })
}

/** The tables, in either engine's words (`$int`, `$text`, `$small`, `$rowid` filled in). */
const TABLES = `
  CREATE TABLE $s.uploads (id $text PRIMARY KEY, upvotes $int NOT NULL DEFAULT 0, downvotes $int NOT NULL DEFAULT 0,
    favourites $int NOT NULL DEFAULT 0, comments $int NOT NULL DEFAULT 0, duel_wins $int NOT NULL DEFAULT 0, duel_losses $int NOT NULL DEFAULT 0,
    user_id $text, description $text NOT NULL DEFAULT '', revision $int NOT NULL DEFAULT 1);
  CREATE TABLE $s.votes (user_id $text NOT NULL, upload_id $text NOT NULL, value $small NOT NULL, PRIMARY KEY (user_id, upload_id))$rowid;
  CREATE TABLE $s.anonymous_votes (id $text PRIMARY KEY, upload_id $text NOT NULL, ip_hash $text NOT NULL, fingerprint $text NOT NULL,
    user_agent_hash $text, value $small NOT NULL, UNIQUE (upload_id, ip_hash), UNIQUE (upload_id, fingerprint));
  CREATE TABLE $s.favourites (user_id $text NOT NULL, upload_id $text NOT NULL, created_at $text NOT NULL, PRIMARY KEY (user_id, upload_id))$rowid;
  CREATE TABLE $s.comments (id $text PRIMARY KEY, upload_id $text NOT NULL, author_id $text NOT NULL, body $text NOT NULL,
    created_at $text NOT NULL, score $int NOT NULL DEFAULT 0);
  CREATE INDEX comments_upload ON $s.comments (upload_id, created_at);
  CREATE TABLE $s.comment_votes (comment_id $text NOT NULL, user_id $text NOT NULL, value $small NOT NULL, PRIMARY KEY (comment_id, user_id))$rowid;
  CREATE TABLE $s.duel_judgements (id $text PRIMARY KEY, low_id $text NOT NULL, high_id $text NOT NULL, user_id $text NOT NULL, winner $text NOT NULL,
    UNIQUE (user_id, low_id, high_id));
  CREATE TABLE $s.tags (id $text PRIMARY KEY, slug $text NOT NULL UNIQUE, name $text NOT NULL, uploads $int NOT NULL DEFAULT 0);
  CREATE TABLE $s.upload_tags (upload_id $text NOT NULL, tag_id $text NOT NULL, position $int NOT NULL, PRIMARY KEY (upload_id, tag_id))$rowid;
  CREATE INDEX upload_tags_tag ON $s.upload_tags (tag_id, upload_id);
  CREATE TABLE $s.revisions (upload_id $text NOT NULL, revision $int NOT NULL, actor_id $text NOT NULL, changes $text NOT NULL,
    created_at $text NOT NULL, PRIMARY KEY (upload_id, revision))$rowid;
  CREATE TABLE $s.sessions (id $text PRIMARY KEY, user_id $text NOT NULL, expires_at $text NOT NULL, revoked_at $text);`

function tablesFor(postgres: boolean): string {
  return TABLES
    .replaceAll('$s.', postgres ? `${SCHEMA}.` : '')
    .replaceAll('$text', postgres ? 'text' : 'TEXT')
    .replaceAll('$int', postgres ? 'integer' : 'INTEGER')
    .replaceAll('$small', postgres ? 'smallint' : 'INTEGER')
    .replaceAll('$rowid', postgres ? '' : ' WITHOUT ROWID')
}

const DROP = ['revisions', 'upload_tags', 'tags', 'sessions', 'duel_judgements', 'comment_votes', 'comments', 'favourites', 'anonymous_votes', 'votes', 'uploads']

function fillSqlite(file: string, setup: MinimalWritesSetup) {
  const db = new BetterSqlite3(file)
  db.pragma('journal_mode = WAL')
  db.exec(DROP.map(table => `DROP TABLE IF EXISTS ${table};`).join(' ') + tablesFor(false))
  db.transaction(() => {
    const upload = db.prepare('INSERT INTO uploads (id, upvotes, downvotes) VALUES (?, 5, 5)')
    const vote = db.prepare('INSERT INTO votes (user_id, upload_id, value) VALUES (?, ?, ?)')
    for (const id of setup.uploadIds) {
      for (let voter = 0; voter < 10; voter++) vote.run(`voter-${voter}`, id, voter % 2 ? 1 : -1)
      upload.run(id)
    }
    const comment = db.prepare('INSERT INTO comments (id, upload_id, author_id, body, created_at) VALUES (?, ?, ?, ?, ?)')
    for (const row of setup.comments) comment.run(row.id, row.uploadId, setup.session.userId, 'A comment.', new Date().toISOString())
    db.prepare('INSERT INTO sessions (id, user_id, expires_at) VALUES (?, ?, ?)').run(setup.session.id, setup.session.userId, setup.session.expiresAt)
    const own = db.prepare('UPDATE uploads SET user_id = ? WHERE id = ?')
    const tag = db.prepare<[string, string, string], { id: string }>(`INSERT INTO tags (id, slug, name, uploads) VALUES (?, ?, ?, 1)
      ON CONFLICT (slug) DO UPDATE SET uploads = uploads + 1 RETURNING id`)
    const link = db.prepare('INSERT INTO upload_tags (upload_id, tag_id, position) VALUES (?, ?, ?)')
    for (const upload of setup.edited) {
      own.run(setup.session.userId, upload.id)
      upload.tags.forEach((name, position) => link.run(upload.id, tag.get(randomUUID(), slugOf(name), name)!.id, position))
    }
  })()
  db.close()
}

async function fillPostgres(url: string, setup: MinimalWritesSetup) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; CREATE SCHEMA ${SCHEMA}; ${tablesFor(true)}`)
    await client.query(`INSERT INTO ${SCHEMA}.uploads (id, upvotes, downvotes) SELECT unnest($1::text[]), 5, 5`, [setup.uploadIds])
    await client.query(`INSERT INTO ${SCHEMA}.votes (user_id, upload_id, value)
      SELECT 'voter-' || v, u.id, CASE WHEN v % 2 = 1 THEN 1 ELSE -1 END FROM ${SCHEMA}.uploads u CROSS JOIN generate_series(0, 9) v`)
    await client.query(`INSERT INTO ${SCHEMA}.comments (id, upload_id, author_id, body, created_at)
      SELECT unnest($1::text[]), unnest($2::text[]), $3, 'A comment.', now()::text`, [setup.comments.map(c => c.id), setup.comments.map(c => c.uploadId), setup.session.userId])
    await client.query(`INSERT INTO ${SCHEMA}.sessions (id, user_id, expires_at) VALUES ($1, $2, $3)`, [setup.session.id, setup.session.userId, setup.session.expiresAt])
    await client.query(`UPDATE ${SCHEMA}.uploads SET user_id = $1 WHERE id = ANY($2::text[])`, [setup.session.userId, setup.edited.map(upload => upload.id)])
    const links = setup.edited.flatMap(upload => upload.tags.map((name, position) => ({ upload: upload.id, slug: slugOf(name), name, position })))
    const names = new Map(links.map(link => [link.slug, link.name]))
    await client.query(`INSERT INTO ${SCHEMA}.tags (id, slug, name, uploads) SELECT gen_random_uuid()::text, unnest($1::text[]), unnest($2::text[]), unnest($3::int[])`,
      [[...names.keys()], [...names.values()], [...names.keys()].map(slug => links.filter(link => link.slug === slug).length)])
    await client.query(`INSERT INTO ${SCHEMA}.upload_tags (upload_id, tag_id, position)
      SELECT l.upload_id, t.id, l.position FROM unnest($1::text[], $2::text[], $3::int[]) AS l(upload_id, slug, position) JOIN ${SCHEMA}.tags t ON t.slug = l.slug`,
    [links.map(link => link.upload), links.map(link => link.slug), links.map(link => link.position)])
    await client.query(`VACUUM ANALYZE ${[...MINIMAL_TABLES, `${SCHEMA}.sessions`].join(', ')}`)
  }
  finally {
    await client.end()
  }
}

type Counts = { upvotes: number, downvotes: number }
type CommentRow = { id: string, upload_id: string, author_id: string, body: string, created_at: string, score: number }
type Standing = { id: string, duel_wins: number, duel_losses: number }
type Edited = { id: string, description: string, tags: string[], revision: number }

/** A tag's slug as this reference keeps it: its name in lower case, spaces as dashes. */
const slugOf = (name: string) => name.trim().toLowerCase().replace(/\s+/g, '-')

/** What an edit changes: the tags to take out (their ids) and to add (name and slug), and the revision's record of it. */
function tagChanges(current: { id: string, slug: string, name: string }[], wanted: string[]) {
  const want = new Map(wanted.map(name => [slugOf(name), name]))
  const had = new Set(current.map(tag => tag.slug))
  const removed = current.filter(tag => !want.has(tag.slug))
  const added = [...want].filter(([slug]) => !had.has(slug)).map(([slug, name]) => ({ slug, name }))
  return { removed, added, record: { tagsAdded: added.map(tag => tag.slug), tagsRemoved: removed.map(tag => tag.slug) } }
}

/** What each write does in its one transaction; undefined when the upload (or comment) is not there, null when a unique key refused it. */
interface Engine {
  session: (id: string) => Promise<Session | undefined>
  vote: (userId: string, uploadId: string, value: 1 | -1) => Promise<Counts | undefined>
  unvote: (userId: string, uploadId: string) => Promise<Counts | undefined>
  anonymousVote: (key: { uploadId: string, ipHash: string, fingerprint: string, userAgentHash: string | null }, value: 1 | -1) => Promise<Counts | null | undefined>
  favourite: (userId: string, uploadId: string, on: boolean) => Promise<{ favourites: number } | undefined>
  comment: (userId: string, uploadId: string, body: string) => Promise<CommentRow | undefined>
  commentVote: (userId: string, commentId: string, value: 1 | -1) => Promise<{ score: number } | undefined>
  judge: (userId: string, duel: { id: string, low: string, high: string, winner: 'low' | 'high' }) => Promise<Standing[] | null | undefined>
  /** null: not the caller's upload. */
  edit: (userId: string, uploadId: string, description: string, tags: string[]) => Promise<Edited | null | undefined>
}

/** [upvotes, downvotes] moved when a vote goes from `before` to `after` (1 up, -1 down, 0 none). */
const moves = (before: number, after: number) => [(after === 1 ? 1 : 0) - (before === 1 ? 1 : 0), (after === -1 ? 1 : 0) - (before === -1 ? 1 : 0)] as const

function sqliteEngine(file: string): Engine {
  const db = new BetterSqlite3(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 5000')
  const session = db.prepare<[string], Session>('SELECT user_id, expires_at, revoked_at FROM sessions WHERE id = ?')
  const upload = db.prepare<[string], { id: string }>('SELECT id FROM uploads WHERE id = ?')
  const earlier = db.prepare<[string, string], { value: number }>('SELECT value FROM votes WHERE user_id = ? AND upload_id = ?')
  const upsert = db.prepare('INSERT INTO votes (user_id, upload_id, value) VALUES (?, ?, ?) ON CONFLICT (user_id, upload_id) DO UPDATE SET value = excluded.value')
  const removeVote = db.prepare<[string, string], { value: number }>('DELETE FROM votes WHERE user_id = ? AND upload_id = ? RETURNING value')
  const move = db.prepare<[number, number, string], Counts>('UPDATE uploads SET upvotes = upvotes + ?, downvotes = downvotes + ? WHERE id = ? RETURNING upvotes, downvotes')
  const counts = db.prepare<[string], Counts>('SELECT upvotes, downvotes FROM uploads WHERE id = ?')
  const anonymous = db.prepare<[string, string, string, string, string | null, number], { id: string }>(`INSERT INTO anonymous_votes (id, upload_id, ip_hash, fingerprint, user_agent_hash, value)
    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`)
  const addFavourite = db.prepare('INSERT INTO favourites (user_id, upload_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
  const removeFavourite = db.prepare('DELETE FROM favourites WHERE user_id = ? AND upload_id = ?')
  const moveFavourites = db.prepare<[number, string], { favourites: number }>('UPDATE uploads SET favourites = favourites + ? WHERE id = ? RETURNING favourites')
  const insertComment = db.prepare<[string, string, string, string, string], CommentRow>(`INSERT INTO comments (id, upload_id, author_id, body, created_at)
    VALUES (?, ?, ?, ?, ?) RETURNING id, upload_id, author_id, body, created_at, score`)
  const bumpComments = db.prepare('UPDATE uploads SET comments = comments + 1 WHERE id = ?')
  const comment = db.prepare<[string], { id: string }>('SELECT id FROM comments WHERE id = ?')
  const earlierCommentVote = db.prepare<[string, string], { value: number }>('SELECT value FROM comment_votes WHERE comment_id = ? AND user_id = ?')
  const upsertCommentVote = db.prepare('INSERT INTO comment_votes (comment_id, user_id, value) VALUES (?, ?, ?) ON CONFLICT (comment_id, user_id) DO UPDATE SET value = excluded.value')
  const moveScore = db.prepare<[number, string], { score: number }>('UPDATE comments SET score = score + ? WHERE id = ? RETURNING score')
  const pair = db.prepare<[string, string], { id: string }>('SELECT id FROM uploads WHERE id IN (?, ?)')
  const insertJudgement = db.prepare<[string, string, string, string, string], { id: string }>(`INSERT INTO duel_judgements (id, low_id, high_id, user_id, winner)
    VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`)
  const win = db.prepare<[string], Standing>('UPDATE uploads SET duel_wins = duel_wins + 1 WHERE id = ? RETURNING id, duel_wins, duel_losses')
  const lose = db.prepare<[string], Standing>('UPDATE uploads SET duel_losses = duel_losses + 1 WHERE id = ? RETURNING id, duel_wins, duel_losses')
  const editedUpload = db.prepare<[string], { user_id: string | null, description: string }>('SELECT user_id, description FROM uploads WHERE id = ?')
  const tagsOf = db.prepare<[string], { id: string, slug: string, name: string, position: number }>(`SELECT t.id, t.slug, t.name, ut.position
    FROM upload_tags ut JOIN tags t ON t.id = ut.tag_id WHERE ut.upload_id = ? ORDER BY ut.position`)
  const countTag = db.prepare<[string, string, string], { id: string }>(`INSERT INTO tags (id, slug, name, uploads) VALUES (?, ?, ?, 1)
    ON CONFLICT (slug) DO UPDATE SET uploads = uploads + 1 RETURNING id`)
  const uncountTag = db.prepare('UPDATE tags SET uploads = uploads - 1 WHERE id = ?')
  const unlink = db.prepare('DELETE FROM upload_tags WHERE upload_id = ? AND tag_id = ?')
  const link = db.prepare('INSERT INTO upload_tags (upload_id, tag_id, position) VALUES (?, ?, ?)')
  const rewrite = db.prepare<[string, string], { revision: number }>('UPDATE uploads SET description = ?, revision = revision + 1 WHERE id = ? RETURNING revision')
  const revise = db.prepare('INSERT INTO revisions (upload_id, revision, actor_id, changes, created_at) VALUES (?, ?, ?, ?, ?)')
  // One connection and a synchronous driver: each transaction is the function run, as ours.
  const immediate = <A extends unknown[], R>(fn: (...args: A) => R) => {
    const tx = db.transaction(fn)
    return async (...args: A) => tx.immediate(...args)
  }
  return {
    session: async id => session.get(id),
    vote: immediate((userId: string, uploadId: string, value: 1 | -1) => {
      if (!upload.get(uploadId)) return undefined
      const before = earlier.get(userId, uploadId)?.value ?? 0
      if (before !== value) upsert.run(userId, uploadId, value)
      const [up, down] = moves(before, value)
      return move.get(up, down, uploadId)
    }),
    unvote: immediate((userId: string, uploadId: string) => {
      if (!upload.get(uploadId)) return undefined
      const removed = removeVote.get(userId, uploadId)
      if (!removed) return counts.get(uploadId)
      const [up, down] = moves(removed.value, 0)
      return move.get(up, down, uploadId)
    }),
    anonymousVote: immediate((key: { uploadId: string, ipHash: string, fingerprint: string, userAgentHash: string | null }, value: 1 | -1) => {
      if (!upload.get(key.uploadId)) return undefined
      if (!anonymous.get(randomUUID(), key.uploadId, key.ipHash, key.fingerprint, key.userAgentHash, value)) return null
      const [up, down] = moves(0, value)
      return move.get(up, down, key.uploadId)
    }),
    favourite: immediate((userId: string, uploadId: string, on: boolean) => {
      if (!upload.get(uploadId)) return undefined
      const changed = on ? addFavourite.run(userId, uploadId, new Date().toISOString()).changes : removeFavourite.run(userId, uploadId).changes
      return moveFavourites.get(changed ? (on ? 1 : -1) : 0, uploadId)
    }),
    comment: immediate((userId: string, uploadId: string, body: string) => {
      if (!upload.get(uploadId)) return undefined
      const row = insertComment.get(randomUUID(), uploadId, userId, body, new Date().toISOString())
      bumpComments.run(uploadId)
      return row
    }),
    commentVote: immediate((userId: string, commentId: string, value: 1 | -1) => {
      if (!comment.get(commentId)) return undefined
      const before = earlierCommentVote.get(commentId, userId)?.value ?? 0
      if (before !== value) upsertCommentVote.run(commentId, userId, value)
      return moveScore.get(value - before, commentId)
    }),
    judge: immediate((userId: string, duel: { id: string, low: string, high: string, winner: 'low' | 'high' }) => {
      if (pair.all(duel.low, duel.high).length !== 2) return undefined
      if (!insertJudgement.get(duel.id, duel.low, duel.high, userId, duel.winner)) return null
      const [winner, loser] = duel.winner === 'low' ? [duel.low, duel.high] : [duel.high, duel.low]
      return [win.get(winner)!, lose.get(loser)!]
    }),
    edit: immediate((userId: string, uploadId: string, description: string, tags: string[]) => {
      const row = editedUpload.get(uploadId)
      if (!row) return undefined
      if (row.user_id !== userId) return null
      const current = tagsOf.all(uploadId)
      const { removed, added, record } = tagChanges(current, tags)
      let position = Math.max(-1, ...current.map(tag => tag.position)) + 1
      for (const tag of removed) {
        unlink.run(uploadId, tag.id)
        uncountTag.run(tag.id)
      }
      for (const tag of added) link.run(uploadId, countTag.get(randomUUID(), tag.slug, tag.name)!.id, position++)
      const { revision } = rewrite.get(description, uploadId)!
      revise.run(uploadId, revision, userId, JSON.stringify({ description: { from: row.description, to: description }, ...record }), new Date().toISOString())
      return { id: uploadId, description, tags: tagsOf.all(uploadId).map(tag => tag.name), revision }
    }),
  }
}

function postgresEngine(url: string): Engine {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  const s = SCHEMA
  const transaction = <R>(work: (query: TransactionQuery) => Promise<R>) => pgTransaction(pool, work)
  // The upload's row first: concurrent writes on one upload queue there, and a first vote (or favourite) cannot be counted twice.
  const lockUpload = `SELECT 1 FROM ${s}.uploads WHERE id = $1 FOR UPDATE`
  const move = `UPDATE ${s}.uploads SET upvotes = upvotes + $1, downvotes = downvotes + $2 WHERE id = $3 RETURNING upvotes, downvotes`
  return {
    session: async id => (await pool.query<Session>({ name: 'session', text: `SELECT user_id, expires_at, revoked_at FROM ${s}.sessions WHERE id = $1`, values: [id] })).rows[0],
    vote: (userId, uploadId, value) => transaction(async (query) => {
      if (!(await query('lock', lockUpload, [uploadId])).rowCount) return undefined
      const before = (await query<{ value: number }>('earlier', `SELECT value FROM ${s}.votes WHERE user_id = $1 AND upload_id = $2`, [userId, uploadId])).rows[0]?.value ?? 0
      if (before !== value) await query('upsert', `INSERT INTO ${s}.votes (user_id, upload_id, value) VALUES ($1, $2, $3) ON CONFLICT (user_id, upload_id) DO UPDATE SET value = excluded.value`, [userId, uploadId, value])
      const [up, down] = moves(before, value)
      return (await query<Counts>('move', move, [up, down, uploadId])).rows[0]
    }),
    unvote: (userId, uploadId) => transaction(async (query) => {
      if (!(await query('lock', lockUpload, [uploadId])).rowCount) return undefined
      const removed = (await query<{ value: number }>('unvote', `DELETE FROM ${s}.votes WHERE user_id = $1 AND upload_id = $2 RETURNING value`, [userId, uploadId])).rows[0]
      const [up, down] = moves(removed?.value ?? 0, 0)
      return (await query<Counts>('move', move, [up, down, uploadId])).rows[0]
    }),
    anonymousVote: (key, value) => transaction(async (query) => {
      if (!(await query('lock', lockUpload, [key.uploadId])).rowCount) return undefined
      const inserted = await query('anonymous', `INSERT INTO ${s}.anonymous_votes (id, upload_id, ip_hash, fingerprint, user_agent_hash, value)
        VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING id`, [randomUUID(), key.uploadId, key.ipHash, key.fingerprint, key.userAgentHash, value])
      if (!inserted.rowCount) return null
      const [up, down] = moves(0, value)
      return (await query<Counts>('move', move, [up, down, key.uploadId])).rows[0]
    }),
    favourite: (userId, uploadId, on) => transaction(async (query) => {
      if (!(await query('lock', lockUpload, [uploadId])).rowCount) return undefined
      const changed = on
        ? await query('favourite', `INSERT INTO ${s}.favourites (user_id, upload_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [userId, uploadId, new Date().toISOString()])
        : await query('unfavourite', `DELETE FROM ${s}.favourites WHERE user_id = $1 AND upload_id = $2`, [userId, uploadId])
      return (await query<{ favourites: number }>('favourites', `UPDATE ${s}.uploads SET favourites = favourites + $1 WHERE id = $2 RETURNING favourites`, [changed.rowCount ? (on ? 1 : -1) : 0, uploadId])).rows[0]
    }),
    comment: (userId, uploadId, body) => transaction(async (query) => {
      if (!(await query('lock', lockUpload, [uploadId])).rowCount) return undefined
      const row = (await query<CommentRow>('comment', `INSERT INTO ${s}.comments (id, upload_id, author_id, body, created_at) VALUES ($1, $2, $3, $4, $5)
        RETURNING id, upload_id, author_id, body, created_at, score`, [randomUUID(), uploadId, userId, body, new Date().toISOString()])).rows[0]
      await query('comments', `UPDATE ${s}.uploads SET comments = comments + 1 WHERE id = $1`, [uploadId])
      return row
    }),
    commentVote: (userId, commentId, value) => transaction(async (query) => {
      // The comment's row first: its score moves one vote after another.
      if (!(await query('lock comment', `SELECT 1 FROM ${s}.comments WHERE id = $1 FOR UPDATE`, [commentId])).rowCount) return undefined
      const before = (await query<{ value: number }>('earlier comment vote', `SELECT value FROM ${s}.comment_votes WHERE comment_id = $1 AND user_id = $2`, [commentId, userId])).rows[0]?.value ?? 0
      if (before !== value) await query('comment vote', `INSERT INTO ${s}.comment_votes (comment_id, user_id, value) VALUES ($1, $2, $3) ON CONFLICT (comment_id, user_id) DO UPDATE SET value = excluded.value`, [commentId, userId, value])
      return (await query<{ score: number }>('score', `UPDATE ${s}.comments SET score = score + $1 WHERE id = $2 RETURNING score`, [value - before, commentId])).rows[0]
    }),
    judge: (userId, duel) => transaction(async (query) => {
      // Both rows in id order, so judgements sharing an image cannot deadlock.
      if ((await query('lock pair', `SELECT 1 FROM ${s}.uploads WHERE id IN ($1, $2) ORDER BY id FOR UPDATE`, [duel.low, duel.high])).rowCount !== 2) return undefined
      const inserted = await query('judgement', `INSERT INTO ${s}.duel_judgements (id, low_id, high_id, user_id, winner) VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT DO NOTHING RETURNING id`, [duel.id, duel.low, duel.high, userId, duel.winner])
      if (!inserted.rowCount) return null
      const [winner, loser] = duel.winner === 'low' ? [duel.low, duel.high] : [duel.high, duel.low]
      return (await query<Standing>('standings', `UPDATE ${s}.uploads SET duel_wins = duel_wins + CASE WHEN id = $1 THEN 1 ELSE 0 END,
        duel_losses = duel_losses + CASE WHEN id = $2 THEN 1 ELSE 0 END WHERE id IN ($1, $2) RETURNING id, duel_wins, duel_losses`, [winner, loser])).rows
    }),
    edit: (userId, uploadId, description, tags) => transaction(async (query) => {
      const row = (await query<{ user_id: string | null, description: string }>('lock edited', `SELECT user_id, description FROM ${s}.uploads WHERE id = $1 FOR UPDATE`, [uploadId])).rows[0]
      if (!row) return undefined
      if (row.user_id !== userId) return null
      const tagsOf = `SELECT t.id, t.slug, t.name, ut.position FROM ${s}.upload_tags ut JOIN ${s}.tags t ON t.id = ut.tag_id WHERE ut.upload_id = $1 ORDER BY ut.position`
      const current = (await query<{ id: string, slug: string, name: string, position: number }>('tags of', tagsOf, [uploadId])).rows
      const { removed, added, record } = tagChanges(current, tags)
      let position = Math.max(-1, ...current.map(tag => tag.position)) + 1
      // Every tag row moved in slug order, so two edits sharing tags cannot wait on each other in a circle.
      const moved = [...removed.map(tag => ({ ...tag, gone: true })), ...added.map(tag => ({ ...tag, id: '', gone: false }))].sort((a, b) => a.slug < b.slug ? -1 : 1)
      for (const tag of moved) {
        if (tag.gone) {
          await query('uncount tag', `UPDATE ${s}.tags SET uploads = uploads - 1 WHERE id = $1`, [tag.id])
          await query('unlink', `DELETE FROM ${s}.upload_tags WHERE upload_id = $1 AND tag_id = $2`, [uploadId, tag.id])
          continue
        }
        const { id } = (await query<{ id: string }>('count tag', `INSERT INTO ${s}.tags (id, slug, name, uploads) VALUES ($1, $2, $3, 1)
          ON CONFLICT (slug) DO UPDATE SET uploads = ${s}.tags.uploads + 1 RETURNING id`, [randomUUID(), tag.slug, tag.name])).rows[0]!
        await query('link', `INSERT INTO ${s}.upload_tags (upload_id, tag_id, position) VALUES ($1, $2, $3)`, [uploadId, id, position++])
      }
      const { revision } = (await query<{ revision: number }>('rewrite', `UPDATE ${s}.uploads SET description = $1, revision = revision + 1 WHERE id = $2 RETURNING revision`, [description, uploadId])).rows[0]!
      await query('revise', `INSERT INTO ${s}.revisions (upload_id, revision, actor_id, changes, created_at) VALUES ($1, $2, $3, $4, $5)`,
        [uploadId, revision, userId, JSON.stringify({ description: { from: row.description, to: description }, ...record }), new Date().toISOString()])
      return { id: uploadId, description, tags: (await query<{ name: string }>('tags of', tagsOf, [uploadId])).rows.map(tag => tag.name), revision }
    }),
  }
}

/** A duel id's claims when its HMAC (the site's key, derived from the session secret) holds, it is for `judge` and unexpired. */
function openDuel(key: Buffer, duelId: unknown, judge: string) {
  const [payload, mac] = typeof duelId === 'string' ? duelId.split('.') : []
  const expected = payload ? createHmac('sha256', key).update(payload).digest() : undefined
  const given = mac ? Buffer.from(mac, 'base64url') : undefined
  if (!expected || !given || given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Refusal(400, 'Invalid duel')
  const [id, left, right, judgeOf, expires] = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as [string, string, string, string, number]
  if (judgeOf !== judge || expires <= Date.now()) throw new Refusal(400, 'Invalid duel')
  return { id, left, right }
}

async function serve(target: string, port: number, secret: string, ipHashSecret: string) {
  const engine = target.startsWith('postgres') ? postgresEngine(target) : sqliteEngine(target)
  const key = new TextEncoder().encode(secret)
  const duelKey = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'does-it-fuck duel id v1', 32))
  const hash = (value: string) => createHmac('sha256', ipHashSecret).update(value).digest('hex')
  const answer = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  const uuid = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i

  const caller = (req: IncomingMessage) => verifiedCaller(req, key, engine.session)
  const found = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Refusal(404, `${what} not found`)
    return value
  }

  async function handle(req: IncomingMessage, res: ServerResponse, text: string) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>
    const route = `${req.method} ${url.pathname}`
    let match: RegExpExecArray | null
    if (route === 'POST /api/vote') {
      const userId = await caller(req)
      if (typeof body.uploadId !== 'string' || (body.vote !== 'fucks' && body.vote !== 'does_not_fuck')) throw new Refusal(400, 'Invalid vote')
      const counts = found(await engine.vote(userId, body.uploadId, body.vote === 'fucks' ? 1 : -1), 'Upload')
      return answer(res, 200, { success: true, vote: body.vote, upvotes: counts.upvotes, downvotes: counts.downvotes })
    }
    if (route === 'DELETE /api/vote') {
      const userId = await caller(req)
      const uploadId = url.searchParams.get('uploadId') ?? ''
      if (!uuid.test(uploadId)) throw new Refusal(400, 'Invalid upload ID')
      found(await engine.unvote(userId, uploadId), 'Upload')
      return answer(res, 200, { success: true, vote: null })
    }
    if (route === 'POST /api/vote/anonymous') {
      const { uploadId, vote, clientFingerprint } = body
      if (typeof uploadId !== 'string' || (vote !== 'upvote' && vote !== 'downvote') || typeof clientFingerprint !== 'string' || clientFingerprint.length < 8 || clientFingerprint.length > 256) {
        throw new Refusal(400, 'Invalid vote')
      }
      const address = (req.headers['x-forwarded-for'] as string | undefined)?.split(',')[0]!.trim() || req.socket.remoteAddress || 'unknown'
      const userAgent = req.headers['user-agent']
      const counted = await engine.anonymousVote({ uploadId, ipHash: hash(address), fingerprint: clientFingerprint, userAgentHash: userAgent ? hash(`ua:${userAgent}`) : null }, vote === 'upvote' ? 1 : -1)
      if (counted === null) throw new Refusal(409, 'You have already voted on this upload')
      found(counted, 'Upload')
      return answer(res, 200, { success: true, alreadyVoted: false, vote })
    }
    if ((match = /^(PUT|DELETE) \/api\/upload\/([^/]+)\/favourite$/.exec(route))) {
      const userId = await caller(req)
      const on = match[1] === 'PUT'
      const row = found(await engine.favourite(userId, match[2]!, on), 'Upload')
      return answer(res, 200, { favourited: on, favourites: row.favourites })
    }
    if ((match = /^POST \/api\/upload\/([^/]+)\/comments$/.exec(route))) {
      const userId = await caller(req)
      if (typeof body.body !== 'string' || body.body.trim() === '' || body.body.length > 10_000) throw new Refusal(400, 'Invalid body')
      const row = found(await engine.comment(userId, match[1]!, body.body), 'Upload')
      return answer(res, 201, { comment: row })
    }
    if ((match = /^PUT \/api\/comments\/([^/]+)\/vote$/.exec(route))) {
      const userId = await caller(req)
      if (body.vote !== 'up' && body.vote !== 'down') throw new Refusal(400, 'Invalid vote')
      const row = found(await engine.commentVote(userId, match[1]!, body.vote === 'up' ? 1 : -1), 'Comment')
      return answer(res, 200, { score: row.score, myVote: body.vote })
    }
    if (route === 'POST /api/duel') {
      const userId = await caller(req)
      if (body.winner !== 'left' && body.winner !== 'right') throw new Refusal(400, 'Invalid winner')
      const duel = openDuel(duelKey, body.duelId, `u:${userId}`)
      const [low, high] = duel.left < duel.right ? [duel.left, duel.right] : [duel.right, duel.left]
      const winnerId = body.winner === 'left' ? duel.left : duel.right
      const standings = await engine.judge(userId, { id: duel.id, low, high, winner: winnerId === low ? 'low' : 'high' })
      if (!standings) throw new Refusal(400, 'Invalid duel')
      const of = (id: string) => standings.find(row => row.id === id)!
      return answer(res, 200, { left: of(duel.left), right: of(duel.right) })
    }
    if ((match = /^PATCH \/api\/upload\/([^/]+)$/.exec(route))) {
      const userId = await caller(req)
      const { description, tags } = body
      if (typeof description !== 'string' || description.length > 2000) throw new Refusal(400, 'Invalid description')
      if (!Array.isArray(tags) || tags.length > 10 || !tags.every(tag => typeof tag === 'string' && slugOf(tag) !== '')) throw new Refusal(400, 'Invalid tags')
      const edited = found(await engine.edit(userId, match[1]!, description, tags as string[]), 'Upload')
      if (edited === null) throw new Refusal(403, 'Not your upload')
      return answer(res, 200, { upload: edited, revision: edited.revision })
    }
    throw new Refusal(404, 'Not found')
  }

  createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString()).catch((error: unknown) => error instanceof Refusal
        ? answer(res, error.status, { statusMessage: error.message })
        : answer(res, 500, { statusMessage: 'Internal error' }))
    })
  }).listen(port, '127.0.0.1', () => console.info(`listening ${port}`))
}

if (process.argv[1] === import.meta.filename) {
  const [target, port] = process.argv.slice(2) as [string, string]
  await serve(target, Number(port), process.env.BENCH_MINIMAL_SECRET!, process.env.BENCH_MINIMAL_IP_SECRET!)
}
