/**
 * The write reference of `npm run bench`: the least a signed-in vote can cost
 * on the same engine, served by node:http with no framework. Per request it
 * verifies the caller (the HS256 JWT in the `auth-token` cookie, with jose,
 * then its session row: not revoked, not expired), and in one transaction
 * locks the upload's row, reads the caller's earlier vote, upserts the vote
 * and moves the upload's two counters; it answers the counts as JSON.
 *
 * Its tables are its own and minimal (uploads with two counters, votes with
 * one key, sessions), with as many uploads as the seeded site and ten votes
 * each, so an index as large as ours is walked: a file beside the site's on
 * SQLite (WAL, synchronous=NORMAL, as ours), a schema `bench_minimal` in the
 * same database on PostgreSQL (a pool of 10, as ours). Nothing of ours runs in
 * it: it is what the engine and node:http can do, the number our vote is held
 * to (docs/performance.md).
 */
import { createServer } from 'node:http'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { jwtVerify } from 'jose'
import pg from 'pg'
import { freePort } from '../../tests/support/server'
import { startChildServer } from './child-server'

export interface MinimalVoteSetup {
  /** PostgreSQL URL of the site's database, or undefined for SQLite. */
  databaseUrl?: string
  /** The site's data dir (SQLite: the reference's file goes beside app.sqlite). */
  dataDir: string
  /** The site's session secret, which signed the bench user's cookie. */
  secret: string
  /** The bench user's session row. */
  session: { id: string, userId: string, expiresAt: string }
  /** Every upload id of the site: the reference keeps the same number of rows. */
  uploadIds: string[]
}

const SQLITE_FILE = 'bench-minimal-vote.sqlite'
const SCHEMA = 'bench_minimal'

/** Creates (afresh) and fills the reference's tables, then starts it in a process of its own. */
export async function startMinimalVote(setup: MinimalVoteSetup): Promise<{ url: string, stop: () => Promise<void> }> {
  if (setup.databaseUrl) await fillPostgres(setup.databaseUrl, setup)
  else fillSqlite(join(setup.dataDir, SQLITE_FILE), setup)
  const port = await freePort()
  const target = setup.databaseUrl ?? join(setup.dataDir, SQLITE_FILE)
  return startChildServer('minimal vote reference', [import.meta.filename, target, String(port)], { ...process.env, BENCH_MINIMAL_SECRET: setup.secret })
}

function fillSqlite(file: string, setup: MinimalVoteSetup) {
  const db = new BetterSqlite3(file)
  db.pragma('journal_mode = WAL')
  db.exec(`DROP TABLE IF EXISTS votes; DROP TABLE IF EXISTS uploads; DROP TABLE IF EXISTS sessions;
    CREATE TABLE uploads (id TEXT PRIMARY KEY, upvotes INTEGER NOT NULL DEFAULT 0, downvotes INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE votes (user_id TEXT NOT NULL, upload_id TEXT NOT NULL, value INTEGER NOT NULL, PRIMARY KEY (user_id, upload_id)) WITHOUT ROWID;
    CREATE TABLE sessions (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, expires_at TEXT NOT NULL, revoked_at TEXT);`)
  db.transaction(() => {
    const upload = db.prepare('INSERT INTO uploads (id, upvotes, downvotes) VALUES (?, 5, 5)')
    const vote = db.prepare('INSERT INTO votes (user_id, upload_id, value) VALUES (?, ?, ?)')
    for (const id of setup.uploadIds) {
      for (let voter = 0; voter < 10; voter++) vote.run(`voter-${voter}`, id, voter % 2 ? 1 : -1)
      upload.run(id)
    }
    db.prepare('INSERT INTO sessions (id, user_id, expires_at) VALUES (?, ?, ?)').run(setup.session.id, setup.session.userId, setup.session.expiresAt)
  })()
  db.close()
}

async function fillPostgres(url: string, setup: MinimalVoteSetup) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; CREATE SCHEMA ${SCHEMA};
      CREATE TABLE ${SCHEMA}.uploads (id text PRIMARY KEY, upvotes integer NOT NULL DEFAULT 0, downvotes integer NOT NULL DEFAULT 0);
      CREATE TABLE ${SCHEMA}.votes (user_id text NOT NULL, upload_id text NOT NULL, value smallint NOT NULL, PRIMARY KEY (user_id, upload_id));
      CREATE TABLE ${SCHEMA}.sessions (id text PRIMARY KEY, user_id text NOT NULL, expires_at text NOT NULL, revoked_at text);`)
    await client.query(`INSERT INTO ${SCHEMA}.uploads (id, upvotes, downvotes) SELECT unnest($1::text[]), 5, 5`, [setup.uploadIds])
    await client.query(`INSERT INTO ${SCHEMA}.votes (user_id, upload_id, value)
      SELECT 'voter-' || v, u.id, CASE WHEN v % 2 = 1 THEN 1 ELSE -1 END FROM ${SCHEMA}.uploads u CROSS JOIN generate_series(0, 9) v`)
    await client.query(`INSERT INTO ${SCHEMA}.sessions (id, user_id, expires_at) VALUES ($1, $2, $3)`, [setup.session.id, setup.session.userId, setup.session.expiresAt])
    await client.query(`VACUUM ANALYZE ${SCHEMA}.uploads, ${SCHEMA}.votes, ${SCHEMA}.sessions`)
  }
  finally {
    await client.end()
  }
}

type CastVote = (userId: string, uploadId: string, value: 1 | -1) => Promise<{ upvotes: number, downvotes: number } | null>
type FindSession = (id: string) => Promise<{ user_id: string, expires_at: string, revoked_at: string | null } | undefined>

function sqliteEngine(file: string): { cast: CastVote, session: FindSession } {
  const db = new BetterSqlite3(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 5000')
  const session = db.prepare<[string], { user_id: string, expires_at: string, revoked_at: string | null }>('SELECT user_id, expires_at, revoked_at FROM sessions WHERE id = ?')
  const earlier = db.prepare<[string, string], { value: number }>('SELECT value FROM votes WHERE user_id = ? AND upload_id = ?')
  const upsert = db.prepare('INSERT INTO votes (user_id, upload_id, value) VALUES (?, ?, ?) ON CONFLICT (user_id, upload_id) DO UPDATE SET value = excluded.value')
  const move = db.prepare<[number, number, string], { upvotes: number, downvotes: number }>('UPDATE uploads SET upvotes = upvotes + ?, downvotes = downvotes + ? WHERE id = ? RETURNING upvotes, downvotes')
  // One connection and a synchronous driver: the transaction is the statement run, as ours.
  const vote = db.transaction((userId: string, uploadId: string, value: 1 | -1) => {
    const before = earlier.get(userId, uploadId)?.value ?? 0
    if (before !== value) upsert.run(userId, uploadId, value)
    const up = (value === 1 ? 1 : 0) - (before === 1 ? 1 : 0)
    const down = (value === -1 ? 1 : 0) - (before === -1 ? 1 : 0)
    return move.get(up, down, uploadId) ?? null
  })
  return { cast: async (userId, uploadId, value) => vote.immediate(userId, uploadId, value), session: async id => session.get(id) }
}

function postgresEngine(url: string): { cast: CastVote, session: FindSession } {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  return {
    session: async id => (await pool.query<{ user_id: string, expires_at: string, revoked_at: string | null }>({ name: 'session', text: `SELECT user_id, expires_at, revoked_at FROM ${SCHEMA}.sessions WHERE id = $1`, values: [id] })).rows[0],
    cast: async (userId, uploadId, value) => {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        // The upload's row first: concurrent votes on one upload queue there, and a first vote cannot be counted twice.
        const locked = await client.query({ name: 'lock', text: `SELECT 1 FROM ${SCHEMA}.uploads WHERE id = $1 FOR UPDATE`, values: [uploadId] })
        if (!locked.rowCount) {
          await client.query('ROLLBACK')
          return null
        }
        const earlier = await client.query<{ value: number }>({ name: 'earlier', text: `SELECT value FROM ${SCHEMA}.votes WHERE user_id = $1 AND upload_id = $2`, values: [userId, uploadId] })
        const before = earlier.rows[0]?.value ?? 0
        if (before !== value) {
          await client.query({ name: 'upsert', text: `INSERT INTO ${SCHEMA}.votes (user_id, upload_id, value) VALUES ($1, $2, $3) ON CONFLICT (user_id, upload_id) DO UPDATE SET value = excluded.value`, values: [userId, uploadId, value] })
        }
        const up = (value === 1 ? 1 : 0) - (before === 1 ? 1 : 0)
        const down = (value === -1 ? 1 : 0) - (before === -1 ? 1 : 0)
        const moved = await client.query<{ upvotes: number, downvotes: number }>({ name: 'move', text: `UPDATE ${SCHEMA}.uploads SET upvotes = upvotes + $1, downvotes = downvotes + $2 WHERE id = $3 RETURNING upvotes, downvotes`, values: [up, down, uploadId] })
        await client.query('COMMIT')
        return moved.rows[0] ?? null
      }
      catch (error) {
        await client.query('ROLLBACK').catch(() => {})
        throw error
      }
      finally {
        client.release()
      }
    },
  }
}

async function serve(target: string, port: number, secret: string) {
  const engine = target.startsWith('postgres') ? postgresEngine(target) : sqliteEngine(target)
  const key = new TextEncoder().encode(secret)
  const answer = (res: import('node:http').ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      void (async () => {
        const token = /(?:^|;\s*)auth-token=([^;]+)/.exec(req.headers.cookie ?? '')?.[1]
        if (req.method !== 'POST' || req.url !== '/api/vote' || !token) return answer(res, 401, { statusMessage: 'Authentication required' })
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['sub', 'sid', 'exp'] })
        const session = await engine.session(payload.sid as string)
        if (!session || session.revoked_at || session.user_id !== payload.sub || session.expires_at < new Date().toISOString()) return answer(res, 401, { statusMessage: 'Authentication required' })
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { uploadId?: unknown, vote?: unknown }
        if (typeof body.uploadId !== 'string' || (body.vote !== 'fucks' && body.vote !== 'does_not_fuck')) return answer(res, 400, { statusMessage: 'Invalid vote' })
        const counts = await engine.cast(session.user_id, body.uploadId, body.vote === 'fucks' ? 1 : -1)
        if (!counts) return answer(res, 404, { statusMessage: 'Upload not found' })
        answer(res, 200, { success: true, vote: body.vote, upvotes: counts.upvotes, downvotes: counts.downvotes })
      })().catch(() => answer(res, 500, { statusMessage: 'Internal error' }))
    })
  }).listen(port, '127.0.0.1', () => console.info(`listening ${port}`))
}

if (process.argv[1] === import.meta.filename) {
  const [target, port] = process.argv.slice(2) as [string, string]
  await serve(target, Number(port), process.env.BENCH_MINIMAL_SECRET!)
}
