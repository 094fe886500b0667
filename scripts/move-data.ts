/**
 * `npm run move-data -- --to <postgres-url> [--data-dir DIR] [--media s3]`:
 * copies an embedded site (the SQLite file and generated secrets of its data
 * dir) into an empty PostgreSQL database, then verifies row counts and the
 * checksums of the media files and prints them. Media stay where they are
 * (the instances keep NUXT_DATA_DIR, or the folder is copied beside them),
 * or with `--media s3` are copied into the bucket of the NUXT_S3_* settings
 * (images and their derivatives), each read back and compared; every size
 * a page asks for that was not made yet is made on the way, so the moved
 * site serves them at once. The source is read as one snapshot (one read
 * transaction), so a site that keeps running during the move gives a
 * consistent target without the writes made after the snapshot. It refuses
 * a target database that already holds rows and a bucket that already holds
 * media keys, copies rows in one transaction that commits only once the
 * media are in the bucket and the counts are verified, and removes what it
 * put into the bucket on any failure, so a failed move leaves both targets
 * empty. A row the target refuses is named by table and key.
 *
 * Exit codes: 0 moved; 3 moved, but image files in the data dir were missing or
 * differed from their uploads (each listed; with media left in the data dir
 * they are checked after the commit); 1 failed, both targets left empty; 2 usage.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { DatabaseUnavailableError, failureText, type Executor } from '../server/database/port'
import type { SqliteDatabase } from '../server/database/sqlite'
import { sql } from '../server/database/sql'
import { readSecretsFile, SECRET_NAMES } from '../server/services/app-secrets'
import { AHEAD_SIZES, derivativeOf, sha256OfFile } from '../server/services/media'
import { fsMediaStore, MEDIA_KEY, mediaKeys, type MediaStore } from '../server/services/media-store'
import { s3MediaStore, s3SettingsFromEnv, type S3Settings } from '../server/services/media-store-s3'
import { openMigrated } from './lib/database'

/** Parents before children, so every foreign key finds its row. Left out: webauthn_challenges (each lives a few minutes, for one sign-in under way) and rank_copies_pending (a link copied into the target takes its upload's counts as it arrives). upload_days, upload_months, tag_pairs, search_words, user_vote_counts and report_groups are not copied: the target's triggers count them as uploads, links, votes and reports arrive. Nor is tag_triples: the target keeps a triple again when a search asks for it. An image's duel_standings row is made by its upload's trigger and then given its standing (ROWS_MADE_BY_TRIGGERS). */
export const TABLES = ['users', 'sessions', 'api_tokens', 'mfa_backup_codes', 'password_reset_tokens', 'email_verification_tokens', 'oauth_accounts', 'passkeys',
  'tags', 'tag_aliases', 'tag_implications', 'uploads', 'duel_standings', 'upload_tags', 'upload_revisions', 'votes', 'favourites', 'comments', 'comment_votes', 'anonymous_votes', 'reports', 'moderation_log', 'removed_uploads', 'banned_media', 'user_hidden_tags', 'duel_judgements', 'media_deletions', 'request_keys'] as const

const BATCH = 500

async function countRows(db: Executor, table: string): Promise<number> {
  return (await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.raw(table)}`))!.n
}

/** Columns the target computes itself (generated columns cannot be written). */
async function generatedColumns(target: Executor, table: string): Promise<Set<string>> {
  const rows = await target.all<{ column_name: string }>(sql`SELECT column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table} AND is_generated = 'ALWAYS'`)
  return new Set(rows.map(row => row.column_name))
}

/** Columns the target's triggers keep as the rows arrive (copying them would count twice). */
const KEPT_BY_TRIGGERS: Record<string, string[]> = { tags: ['public_uploads'], users: ['public_uploads'], uploads: ['favourites', 'comments'] }

/** Tables whose rows the target's triggers make as their parents arrive: each copied row updates the one made, by this key. */
const ROWS_MADE_BY_TRIGGERS: Record<string, string> = { duel_standings: 'upload_id' }

/** The columns that name a row of a table without an `id` (its primary key), for error messages. */
const ROW_KEYS: Record<string, string[]> = { duel_standings: ['upload_id'], media_deletions: ['upload_id'], tag_aliases: ['slug'], tag_implications: ['tag_id', 'implied_tag_id'], upload_tags: ['upload_id', 'tag_id'], upload_revisions: ['upload_id', 'revision'], user_hidden_tags: ['user_id', 'tag_id'], favourites: ['user_id', 'upload_id'], comment_votes: ['comment_id', 'user_id'], request_keys: ['user_id', 'key'] }

/** A row's name in an error message: its table and key (`uploads 1f0c…`, `upload_tags upload_id=…, tag_id=…`). */
function rowName(table: string, row: Record<string, unknown>): string {
  const keys = ROW_KEYS[table]
  return keys ? `${table} ${keys.map(key => `${key}=${String(row[key])}`).join(', ')}` : `${table} ${String(row.id)}`
}

/** The driver's own words for a refused statement (the adapter may wrap them). */
function refusal(error: unknown): string {
  const driver = (error as { driverError?: unknown }).driverError
  return (driver instanceof Error ? driver.message : (error as Error).message).split('\n')[0]!
}

async function copyTable(source: Executor, target: Executor, table: string): Promise<void> {
  const computed = new Set([...await generatedColumns(target, table), ...KEPT_BY_TRIGGERS[table] ?? []])
  for (let offset = 0; ; offset += BATCH) {
    const rows = await source.all<Record<string, unknown>>(sql`SELECT * FROM ${sql.raw(table)} ORDER BY rowid LIMIT ${BATCH} OFFSET ${offset}`)
    if (rows.length === 0) return
    const columns = Object.keys(rows[0]!).filter(column => !computed.has(column))
    const key = ROWS_MADE_BY_TRIGGERS[table]
    const upsert = key ? ` ON CONFLICT ("${key}") DO UPDATE SET ${columns.filter(c => c !== key).map(c => `"${c}" = excluded."${c}"`).join(', ')}` : ''
    const insert = (into: Executor, batch: Record<string, unknown>[]) => into.run(sql`INSERT INTO ${sql.raw(table)} (${sql.raw(columns.map(c => `"${c}"`).join(', '))})
      VALUES ${sql.join(batch.map(row => sql`(${sql.join(columns.map(column => sql`${row[column]}`))})`))}${sql.raw(upsert)}`)
    try {
      // A savepoint: a refused batch leaves the transaction usable, so the row at fault can be found.
      await target.transaction(tx => insert(tx, rows).then(() => {}))
    }
    catch (error) {
      if (error instanceof DatabaseUnavailableError) throw error
      for (const row of rows) {
        await target.transaction(tx => insert(tx, [row]).then(() => {})).catch((refused: unknown) => {
          throw new Error(`The target refused the row ${rowName(table, row)}: ${refusal(refused)}`, { cause: refused })
        })
      }
      throw error
    }
    if (rows.length < BATCH) return
  }
}

/** Every table's row count in one snapshot (the source's read transaction, or the target's own). */
async function countAll(db: Executor): Promise<Map<string, number>> {
  const counts = new Map<string, number>()
  for (const table of TABLES) counts.set(table, Number(await countRows(db, table)))
  return counts
}

export interface MoveReport {
  rows: { table: string, source: number, target: number }[]
  /** `checked`: images whose SHA-256 matches their row, where they now live; `copied`: objects put into the bucket; `made`: sizes made on the way. */
  /** `where` the files were checked (the bucket they were copied to, or the data dir's media); `from` the data dir's media. */
  media: { checked: number, missing: string[], mismatched: string[], copied: number, made: number, where: string, from: string }
  secrets: number
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex')

/** Runs `work` on every item, `width` at a time. */
async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!)
  }))
}

/** Refuses, before anything is written, a bucket that already holds keys this site writes. */
async function refuseNonEmptyBucket(bucket: MediaStore): Promise<void> {
  const ours = (await bucket.list('')).filter(object => MEDIA_KEY.test(object.key))
  if (ours.length) throw new Error(`The ${bucket.name} already holds media (${ours.length} object(s), e.g. ${ours[0]!.key}): move into a new, empty bucket`)
}

/** The derivatives a page asks for, thumbnail included, by key. */
const pageSizes = (id: string) => (['thumb', ...AHEAD_SIZES] as const).map(size => ({ size, key: mediaKeys[size](id) }))

/**
 * Puts every image of `images` and its derivatives found in `<dataDir>/media`
 * into the bucket (a size not made yet is made from the image first), reads
 * each back and compares its SHA-256 (an image's with its row's). Every key
 * it starts to put is added to `written`, for the caller to remove on failure.
 */
async function copyMediaToBucket(bucket: MediaStore, mediaDir: string, images: { id: string, filename: string, mime_type: string, sha256: string }[], report: MoveReport['media'], written: string[], log: (line: string) => void): Promise<void> {
  await inParallel(images, 8, async (image) => {
    const original = await readFile(join(mediaDir, mediaKeys.original(image.filename))).catch(() => null)
    if (!original) {
      report.missing.push(image.filename)
      return
    }
    if (sha256(original) !== image.sha256) {
      report.mismatched.push(image.filename)
      return
    }
    const files: { key: string, type: string, data: Buffer }[] = [{ key: mediaKeys.original(image.filename), type: image.mime_type, data: original }]
    for (const { size, key } of pageSizes(image.id)) {
      const stored: Buffer | null = await readFile(join(mediaDir, key)).catch(() => null)
      if (!stored) report.made++
      files.push({ key, type: 'image/webp', data: stored ?? await derivativeOf(original, size) })
    }
    for (const file of files) {
      written.push(file.key)
      await bucket.put(file.key, file.data, file.type)
      const stored = await bucket.read(file.key)
      if (!stored || sha256(stored) !== sha256(file.data)) throw new Error(`${file.key} reads back from the ${bucket.name} with another SHA-256`)
      report.copied++
    }
    report.checked++
  })
  log(`copied ${report.copied} media object(s) into the ${bucket.name}`)
}

/** How long a failed move keeps trying to empty the bucket again (it may be the bucket that failed). */
const CLEANUP_MS = 60_000

/** Removes what a failed move put into the bucket, retrying while the bucket does not answer. */
async function emptyBucketAgain(bucket: MediaStore, written: string[], log: (line: string) => void): Promise<void> {
  const deadline = Date.now() + CLEANUP_MS
  for (;;) {
    try {
      await bucket.remove(written)
      if (written.length) log(`removed the ${written.length} object(s) this move had put into the ${bucket.name}`)
      return
    }
    catch {
      if (Date.now() > deadline) throw new Error(`The move failed and the ${bucket.name} still holds ${written.length} object(s) it put there (e.g. ${written[0]}): empty it before moving again`)
      await new Promise(resolve => setTimeout(resolve, 1000))
    }
  }
}

/** For media that stay in the data dir: makes every size a page asks for that was not made yet. */
async function makeMissingSizes(mediaDir: string, images: { id: string, filename: string }[], report: MoveReport['media']): Promise<void> {
  const store = fsMediaStore(mediaDir)
  for (const image of images) {
    let original: Buffer | null | undefined
    for (const { size, key } of pageSizes(image.id)) {
      if (existsSync(join(mediaDir, key))) continue
      original ??= await store.read(mediaKeys.original(image.filename))
      if (!original) break
      await store.put(key, await derivativeOf(original, size), 'image/webp')
      report.made++
    }
  }
}

/** The move itself; throws with a one-line reason (non-empty target, mismatch, a row the target refuses). */
export async function moveData(options: { dataDir: string, to: string, s3?: S3Settings, log?: (line: string) => void }): Promise<MoveReport> {
  const log = options.log ?? (() => {})
  if (!/^postgres(ql)?:\/\//.test(options.to)) throw new Error('--to must be a postgres:// URL')
  if (!existsSync(join(options.dataDir, 'app.sqlite'))) throw new Error(`No embedded site in ${options.dataDir} (app.sqlite is missing)`)
  const bucket = options.s3 ? s3MediaStore(options.s3) : undefined
  await bucket?.check().catch((error: unknown) => {
    throw new Error(`media storage: ${(error as Error).message}`)
  })
  const mediaDir = join(options.dataDir, 'media')
  const source = await openMigrated({ dataDir: options.dataDir }) as SqliteDatabase
  const target = await openMigrated({ dataDir: options.dataDir, url: options.to, log })
  const written: string[] = []
  let snapshot = false
  try {
    for (const table of [...TABLES, 'app_secrets']) {
      if (await countRows(target, table) > 0) throw new Error(`The target database is not empty (table ${table} has rows): move into a new, empty database`)
    }
    const secretsFile = join(options.dataDir, 'secrets.json')
    const secrets = existsSync(secretsFile) ? readSecretsFile(readFileSync(secretsFile, 'utf8'), secretsFile) : {}
    if (bucket) await refuseNonEmptyBucket(bucket)
    const media: MoveReport['media'] = { checked: 0, missing: [], mismatched: [], copied: 0, made: 0, where: bucket?.name ?? mediaDir, from: mediaDir }
    // One read transaction: every table is read as of its first statement, whatever the live site writes meanwhile.
    source.sqlite.exec('BEGIN DEFERRED')
    snapshot = true
    const counts = await countAll(source)
    const images = await source.all<{ id: string, filename: string, mime_type: string, sha256: string }>(sql`SELECT id, filename, mime_type, sha256
      FROM uploads WHERE upload_type = 'image' AND filename IS NOT NULL ORDER BY id`)
    const rows = await target.transaction(async (tx) => {
      for (const table of TABLES) {
        await copyTable(source, tx, table)
        log(`copied ${table}`)
      }
      // The same secrets, so sessions, API tokens' sessions and anonymous-vote hashes stay valid.
      for (const name of SECRET_NAMES) {
        const value = secrets[name]
        if (value) await tx.run(sql`INSERT INTO app_secrets (name, value) VALUES (${name}, ${value})`)
      }
      // Verified before the commit: a difference leaves the target empty.
      const copied = await countAll(tx)
      const rows = TABLES.map(table => ({ table, source: counts.get(table)!, target: copied.get(table)! }))
      const wrong = rows.filter(row => row.source !== row.target)
      if (wrong.length) throw new Error(`Row counts differ after the copy: ${wrong.map(row => `${row.table} ${row.source} → ${row.target}`).join(', ')}`)
      // The rows commit only once their media are in the bucket.
      if (bucket) await copyMediaToBucket(bucket, mediaDir, images, media, written, log)
      return rows
    })
    source.sqlite.exec('COMMIT')
    snapshot = false

    if (!bucket) {
      for (const image of images) {
        const path = join(mediaDir, image.filename)
        if (!existsSync(path)) media.missing.push(image.filename)
        else if (await sha256OfFile(path) !== image.sha256) media.mismatched.push(image.filename)
        else media.checked++
      }
      await makeMissingSizes(mediaDir, images, media)
    }
    return { rows, media, secrets: SECRET_NAMES.filter(name => secrets[name]).length }
  }
  catch (error) {
    if (bucket && written.length) await emptyBucketAgain(bucket, written, log)
    throw error
  }
  finally {
    if (snapshot) source.sqlite.exec('ROLLBACK')
    await source.close()
    await target.close()
  }
}

const USAGE = 'Usage: npm run move-data -- --to <postgres-url> [--data-dir DIR] [--media s3]'

async function main(): Promise<number> {
  let values
  try {
    ({ values } = parseArgs({ options: { 'to': { type: 'string' }, 'data-dir': { type: 'string' }, 'media': { type: 'string' }, 'help': { type: 'boolean', short: 'h' } } }))
  }
  catch (error) {
    console.error(`move-data: ${(error as Error).message}\n${USAGE}`)
    return 2
  }
  if (values.help) {
    console.info(USAGE)
    return 0
  }
  if (!values.to) {
    console.error(USAGE)
    return 2
  }
  if (values.media && values.media !== 'fs' && values.media !== 's3') {
    console.error(`--media ${values.media}: fs (media stay in the data dir) or s3 (copied into the bucket of NUXT_S3_*)`)
    return 2
  }
  const dataDir = resolve(values['data-dir'] ?? process.env.NUXT_DATA_DIR ?? './data')
  const s3 = values.media === 's3' ? s3SettingsFromEnv() : undefined
  const report = await moveData({ dataDir, to: values.to, s3, log: line => console.info(`  ${line}`) })
  console.info('| table | source rows | target rows |')
  console.info('|---|---:|---:|')
  for (const row of report.rows) console.info(`| ${row.table} | ${row.source} | ${row.target} |`)
  console.info(`media: ${report.media.checked} file(s) match their SHA-256 in ${report.media.where}`)
  if (s3) console.info(`media: ${report.media.copied} object(s) (images and their derivatives) copied into the bucket and read back unchanged`)
  console.info(`media: ${report.media.made} picture size(s) not made yet were made, so pages find every size ready`)
  for (const file of report.media.missing) console.warn(`media: missing ${file}`)
  for (const file of report.media.mismatched) console.warn(`media: checksum differs for ${file}`)
  console.info(`secrets: ${report.secrets} moved into the database (sessions stay valid); remove secrets.json once every instance runs on PostgreSQL`)
  console.info(s3
    ? `Start every instance with NUXT_DATABASE_URL set to the target, NUXT_MEDIA_STORAGE=s3 and these NUXT_S3_* settings; ${join(dataDir, 'media')} is no longer read.`
    : `Start the site with NUXT_DATABASE_URL set to the target and NUXT_DATA_DIR=${dataDir} (media stay there).`)
  const damaged = report.media.missing.length + report.media.mismatched.length
  if (damaged === 0) return 0
  // The rows are in the target: a run again would be refused. The files were so in the data dir before the move.
  console.warn(`The move is done: the target holds every row. ${damaged} image file(s) in ${report.media.from} were missing or differ from their upload (listed above); restore them from a backup (npm run admin -- media-check lists them again).`)
  return 3
}

if (process.argv[1]?.endsWith('scripts/move-data.ts')) {
  main().then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      console.error(`move-data: ${failureText(error)}`)
      process.exitCode = 1
    },
  )
}
