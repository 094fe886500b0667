/**
 * The upload references of scripts/bench-uploads.ts: the least each kind of
 * upload can cost on this machine, with nothing of ours running in them.
 *
 * - A link (POST /api/upload, `upload_type` link): node:http with no
 *   framework. Per request it verifies the caller as the write references do
 *   (scripts/lib/bench-minimal-writes.ts: the HS256 JWT in the `auth-token`
 *   cookie with jose, then its session row: not revoked, not expired), reads
 *   the multipart form with busboy (as ours), checks the fields, and in one
 *   transaction inserts the upload row, takes each tag row (the upsert by
 *   slug, in slug order) and links it; it answers the created row as JSON
 *   (201). Its tables are its own and minimal, filled with the site's uploads,
 *   tags and tag links, so indexes as large as ours are walked: a file beside
 *   the site's on SQLite (WAL, synchronous=NORMAL, as ours), a schema
 *   `bench_minimal_uploads` in the same database on PostgreSQL (a pool of 10,
 *   as ours).
 * - An image: sharp alone, in a process of its own (started per run with the
 *   server's MALLOC_ARENA_MAX), doing to the same bytes in memory what our
 *   pipeline does before its 201 (server/services/media.ts, decodeAndNormalise):
 *   read the header, decode, auto-orient, re-encode in the same format with
 *   no metadata (JPEG quality 90), make the 480×480 WebP thumbnail from the
 *   result and the perceptual hash's 72×64 grey from the thumbnail. The other
 *   sizes are made after the 201 (makeDerivativesAhead), so neither side
 *   counts them. `concurrency` jobs run at once for `seconds`.
 */
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import busboy from 'busboy'
import pg from 'pg'
import sharp from 'sharp'
import { freePort } from '../../tests/support/server'
import { pgTransaction, Refusal, verifiedCaller, type Session } from './bench-minimal-common'
import { startChildServer } from './child-server'

export interface MinimalUploadsSetup {
  /** PostgreSQL URL of the site's database, or undefined for SQLite. */
  databaseUrl?: string
  /** The site's data dir (SQLite: the reference's file goes beside app.sqlite). */
  dataDir: string
  /** The site's session secret, which signed the bench user's cookie. */
  secret: string
  /** The bench user's session row. */
  session: { id: string, userId: string, expiresAt: string }
  /** The site's uploads, tags and tag links: the reference keeps as many rows. */
  uploadIds: string[]
  tags: { id: string, name: string, slug: string }[]
  links: { uploadId: string, tagId: string, position: number }[]
}

const SQLITE_FILE = 'bench-minimal-uploads.sqlite'
const SCHEMA = 'bench_minimal_uploads'
/** The tables a link upload writes, for VACUUM between runs on PostgreSQL. */
export const MINIMAL_UPLOAD_TABLES = ['uploads', 'tags', 'upload_tags'].map(table => `${SCHEMA}.${table}`)

/** Creates (afresh) and fills the link reference's tables, then starts it in a process of its own. */
export async function startMinimalUploads(setup: MinimalUploadsSetup): Promise<{ url: string, stop: () => Promise<void> }> {
  if (setup.databaseUrl) await fillPostgres(setup.databaseUrl, setup)
  else fillSqlite(join(setup.dataDir, SQLITE_FILE), setup)
  const port = await freePort()
  return startChildServer('minimal upload reference', [import.meta.filename, 'serve', setup.databaseUrl ?? join(setup.dataDir, SQLITE_FILE), String(port)], {
    ...process.env,
    BENCH_MINIMAL_SECRET: setup.secret,
  })
}

/** The tables, in either engine's words. */
function tablesFor(postgres: boolean): string {
  const s = postgres ? `${SCHEMA}.` : ''
  return `
    CREATE TABLE ${s}uploads (id text PRIMARY KEY, user_id text NOT NULL, original_name text NOT NULL, description text NOT NULL,
      upload_type text NOT NULL, external_url text, is_private integer NOT NULL DEFAULT 0, rating text NOT NULL DEFAULT 'safe', created_at text NOT NULL);
    CREATE INDEX uploads_created ON ${s}uploads (created_at);
    CREATE TABLE ${s}tags (id text PRIMARY KEY, name text NOT NULL, slug text NOT NULL UNIQUE);
    CREATE TABLE ${s}upload_tags (upload_id text NOT NULL, tag_id text NOT NULL, position integer NOT NULL, PRIMARY KEY (upload_id, tag_id))${postgres ? '' : ' WITHOUT ROWID'};
    CREATE INDEX upload_tags_tag ON ${s}upload_tags (tag_id);
    CREATE TABLE ${s}sessions (id text PRIMARY KEY, user_id text NOT NULL, expires_at text NOT NULL, revoked_at text);`
}

const DROP = ['sessions', 'upload_tags', 'tags', 'uploads']

function fillSqlite(file: string, setup: MinimalUploadsSetup) {
  const db = new BetterSqlite3(file)
  db.pragma('journal_mode = WAL')
  db.exec(DROP.map(table => `DROP TABLE IF EXISTS ${table};`).join(' ') + tablesFor(false))
  db.transaction(() => {
    const created = new Date().toISOString()
    const upload = db.prepare(`INSERT INTO uploads (id, user_id, original_name, description, upload_type, created_at) VALUES (?, ?, 'seeded', 'Seeded', 'image', ?)`)
    for (const id of setup.uploadIds) upload.run(id, setup.session.userId, created)
    const tag = db.prepare('INSERT INTO tags (id, name, slug) VALUES (?, ?, ?)')
    for (const row of setup.tags) tag.run(row.id, row.name, row.slug)
    const link = db.prepare('INSERT INTO upload_tags (upload_id, tag_id, position) VALUES (?, ?, ?)')
    for (const row of setup.links) link.run(row.uploadId, row.tagId, row.position)
    db.prepare('INSERT INTO sessions (id, user_id, expires_at) VALUES (?, ?, ?)').run(setup.session.id, setup.session.userId, setup.session.expiresAt)
  })()
  db.close()
}

async function fillPostgres(url: string, setup: MinimalUploadsSetup) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; CREATE SCHEMA ${SCHEMA}; ${tablesFor(true)}`)
    await client.query(`INSERT INTO ${SCHEMA}.uploads (id, user_id, original_name, description, upload_type, created_at)
      SELECT unnest($1::text[]), $2, 'seeded', 'Seeded', 'image', now()::text`, [setup.uploadIds, setup.session.userId])
    await client.query(`INSERT INTO ${SCHEMA}.tags (id, name, slug) SELECT unnest($1::text[]), unnest($2::text[]), unnest($3::text[])`,
      [setup.tags.map(t => t.id), setup.tags.map(t => t.name), setup.tags.map(t => t.slug)])
    await client.query(`INSERT INTO ${SCHEMA}.upload_tags (upload_id, tag_id, position) SELECT unnest($1::text[]), unnest($2::text[]), unnest($3::int[])`,
      [setup.links.map(l => l.uploadId), setup.links.map(l => l.tagId), setup.links.map(l => l.position)])
    await client.query(`INSERT INTO ${SCHEMA}.sessions (id, user_id, expires_at) VALUES ($1, $2, $3)`, [setup.session.id, setup.session.userId, setup.session.expiresAt])
    await client.query(`VACUUM ANALYZE ${[...MINIMAL_UPLOAD_TABLES, `${SCHEMA}.sessions`].join(', ')}`)
  }
  finally {
    await client.end()
  }
}

interface Link { userId: string, url: string, description: string, isPrivate: boolean, rating: string, tags: { name: string, slug: string }[] }
type UploadRow = { id: string, user_id: string, original_name: string, description: string, upload_type: string, external_url: string, is_private: number, rating: string, created_at: string }

interface Engine {
  session: (id: string) => Promise<Session | undefined>
  /** The row and its tag links in one transaction; the tags are taken in slug order. */
  link: (link: Link) => Promise<UploadRow>
}

const bySlug = (a: { slug: string }, b: { slug: string }) => Buffer.compare(Buffer.from(a.slug), Buffer.from(b.slug))

function sqliteEngine(file: string): Engine {
  const db = new BetterSqlite3(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 5000')
  const session = db.prepare<[string], Session>('SELECT user_id, expires_at, revoked_at FROM sessions WHERE id = ?')
  const insert = db.prepare<unknown[], UploadRow>(`INSERT INTO uploads (id, user_id, original_name, description, upload_type, external_url, is_private, rating, created_at)
    VALUES (?, ?, ?, ?, 'link', ?, ?, ?, ?) RETURNING *`)
  const tag = db.prepare<[string, string, string], { id: string }>('INSERT INTO tags (id, name, slug) VALUES (?, ?, ?) ON CONFLICT (slug) DO UPDATE SET slug = excluded.slug RETURNING id')
  const link = db.prepare('INSERT INTO upload_tags (upload_id, tag_id, position) VALUES (?, ?, ?)')
  const tx = db.transaction((given: Link) => {
    const row = insert.get(randomUUID(), given.userId, given.url, given.description, given.url, given.isPrivate ? 1 : 0, given.rating, new Date().toISOString())!
    const ids = new Map<string, string>()
    for (const t of [...given.tags].sort(bySlug)) ids.set(t.slug, tag.get(randomUUID(), t.name, t.slug)!.id)
    given.tags.forEach((t, position) => link.run(row.id, ids.get(t.slug)!, position))
    return row
  })
  return {
    session: async id => session.get(id),
    link: async given => tx.immediate(given),
  }
}

function postgresEngine(url: string): Engine {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  const s = SCHEMA
  return {
    session: async id => (await pool.query<Session>({ name: 'session', text: `SELECT user_id, expires_at, revoked_at FROM ${s}.sessions WHERE id = $1`, values: [id] })).rows[0],
    link: given => pgTransaction(pool, async (query) => {
      const row = (await query<UploadRow>('insert', `INSERT INTO ${s}.uploads (id, user_id, original_name, description, upload_type, external_url, is_private, rating, created_at)
        VALUES ($1, $2, $3, $4, 'link', $5, $6, $7, $8) RETURNING *`, [randomUUID(), given.userId, given.url, given.description, given.url, given.isPrivate ? 1 : 0, given.rating, new Date().toISOString()])).rows[0]!
      const ids = new Map<string, string>()
      for (const t of [...given.tags].sort(bySlug)) {
        ids.set(t.slug, (await query<{ id: string }>('tag', `INSERT INTO ${s}.tags (id, name, slug) VALUES ($1, $2, $3)
          ON CONFLICT (slug) DO UPDATE SET slug = excluded.slug RETURNING id`, [randomUUID(), t.name, t.slug])).rows[0]!.id)
      }
      let position = 0
      for (const t of given.tags) await query('link', `INSERT INTO ${s}.upload_tags (upload_id, tag_id, position) VALUES ($1, $2, $3)`, [row.id, ids.get(t.slug)!, position++])
      return row
    }),
  }
}

const TAG_NAME = /^[\p{L}\p{N} -]{2,50}$/u
const RATINGS = new Set(['safe', 'suggestive', 'explicit'])

/** The form's text fields (busboy, as ours), at most 64 KB of them. */
function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {}
    let parser: busboy.Busboy
    try {
      parser = busboy({ headers: req.headers, limits: { files: 0, fields: 20, fieldSize: 16 * 1024 } })
    }
    catch {
      return reject(new Refusal(400, 'Expected a multipart/form-data body'))
    }
    parser.on('field', (name, value) => fields[name] = value)
    parser.on('error', () => reject(new Refusal(400, 'Invalid multipart body')))
    parser.on('close', () => resolve(fields))
    req.pipe(parser)
  })
}

/** The link's fields, checked as the site's rules ask (a description, an http(s) URL, at most 10 tag names). */
function linkOf(userId: string, fields: Record<string, string>): Link {
  if (fields.upload_type !== 'link') throw new Refusal(400, 'Invalid upload type')
  const description = (fields.description ?? '').trim()
  if (!description || description.length > 500) throw new Refusal(400, 'Description is required')
  const url = (fields.external_url ?? '').trim()
  let protocol = ''
  try {
    protocol = new URL(url).protocol
  }
  catch { /* refused below */ }
  if ((protocol !== 'http:' && protocol !== 'https:') || url.length > 2048) throw new Refusal(400, 'Invalid external URL')
  const tags = new Map<string, string>()
  for (const raw of (fields.tags ?? '').split(',')) {
    const name = raw.trim()
    if (!name) continue
    if (!TAG_NAME.test(name)) throw new Refusal(400, 'Invalid tag name')
    const slug = name.toLowerCase().replace(/ +/g, '-')
    if (!tags.has(slug)) tags.set(slug, name)
  }
  if (tags.size > 10) throw new Refusal(400, 'At most 10 tags per upload')
  const rating = fields.rating ?? 'safe'
  if (!RATINGS.has(rating)) throw new Refusal(400, 'Invalid rating')
  return { userId, url, description, isPrivate: fields.is_private === 'true', rating, tags: [...tags].map(([slug, name]) => ({ name, slug })) }
}

async function serve(target: string, port: number, secret: string) {
  const engine = target.startsWith('postgres') ? postgresEngine(target) : sqliteEngine(target)
  const key = new TextEncoder().encode(secret)
  const answer = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))

  const caller = (req: IncomingMessage) => verifiedCaller(req, key, engine.session)

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'POST' || req.url !== '/api/upload') throw new Refusal(404, 'Not found')
    const userId = await caller(req)
    const link = linkOf(userId, await readForm(req))
    const row = await engine.link(link)
    answer(res, 201, { upload: { id: row.id, userId: row.user_id, filename: null, originalName: row.original_name, description: row.description,
      uploadType: 'link', externalUrl: row.external_url, isPrivate: Boolean(row.is_private), rating: row.rating } })
  }

  createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      req.resume()
      if (error instanceof Refusal) answer(res, error.status, { statusCode: error.status, statusMessage: error.message })
      else answer(res, 500, { statusCode: 500, statusMessage: 'Internal error' })
    })
  }).listen(port, '127.0.0.1', () => console.info(`listening ${port}`))
}

/** What one sharp run measured: jobs finished, over how long, and their times. */
export interface SharpRun {
  done: number
  seconds: number
  p50: number
  p99: number
}

/** Sharp alone on `files` in turn, `concurrency` jobs at once for `seconds`, in a process of its own with `env` (its MALLOC_ARENA_MAX). */
export async function runSharpAlone(files: string[], concurrency: number, seconds: number, env: Record<string, string>): Promise<SharpRun> {
  const { execFile } = await import('node:child_process')
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', import.meta.filename, 'sharp', String(concurrency), String(seconds), ...files],
      { env: { ...process.env, ...env }, maxBuffer: 1024 * 1024 }, (error, out) => error ? reject(error) : resolve(out))
  })
  return JSON.parse(stdout.trim().split('\n').pop()!) as SharpRun
}

/** The work our pipeline does to an image before its 201 (server/services/media.ts, decodeAndNormalise), with the same options. */
async function pipeline(input: Buffer) {
  const header = await sharp(input, { limitInputPixels: false }).metadata()
  const pages = header.pages ?? 1
  const output = await sharp(input, { animated: pages > 1, limitInputPixels: 50_000_000, failOn: 'error' }).autoOrient()
    .jpeg({ quality: 90, optimiseCoding: false }).timeout({ seconds: 15 }).toBuffer({ resolveWithObject: true })
  const thumbnail = await sharp(output.data).resize(480, 480, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).timeout({ seconds: 15 }).toBuffer()
  await sharp(thumbnail).flatten({ background: '#ffffff' }).greyscale()
    .resize(72, 64, { fit: 'fill', kernel: 'linear', fastShrinkOnLoad: false }).raw().timeout({ seconds: 15 }).toBuffer()
}

/** One job per worker unmeasured, then `concurrency` workers take the next image in turn until `seconds` are up. */
async function sharpAlone(concurrency: number, seconds: number, files: string[]): Promise<SharpRun> {
  // As our server: libvips keeps no decoded images between jobs.
  sharp.cache(false)
  const images = files.map(file => readFileSync(file))
  let next = 0
  await Promise.all(Array.from({ length: concurrency }, () => pipeline(images[next++ % images.length]!)))
  const times: number[] = []
  const started = performance.now()
  const end = started + seconds * 1000
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) {
      const start = performance.now()
      await pipeline(images[next++ % images.length]!)
      times.push(performance.now() - start)
    }
  }))
  const elapsed = (performance.now() - started) / 1000
  times.sort((a, b) => a - b)
  return { done: times.length, seconds: elapsed, p50: times[Math.floor(times.length / 2)]!, p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]! }
}

if (process.argv[1] === import.meta.filename) {
  const [mode, ...rest] = process.argv.slice(2)
  if (mode === 'serve') await serve(rest[0]!, Number(rest[1]), process.env.BENCH_MINIMAL_SECRET!)
  else if (mode === 'sharp') console.info(JSON.stringify(await sharpAlone(Number(rest[0]), Number(rest[1]), rest.slice(2))))
}
