/**
 * `npm run move-data -- --to <postgres-url> [--data-dir DIR]`: copies an
 * embedded site (the SQLite file and generated secrets of its data dir) into
 * an empty PostgreSQL database, then verifies row counts and the checksums of
 * the media files and prints them. Media stay where they are (the instances
 * keep NUXT_DATA_DIR, or the folder is copied beside them). It refuses a
 * target that already holds rows, and copies in one transaction, so a failed
 * move leaves the target empty.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { Database, Executor } from '../server/database/port'
import { sql } from '../server/database/sql'
import { readSecretsFile, SECRET_NAMES } from '../server/services/app-secrets'
import { sha256OfFile } from '../server/services/media'
import { openMigrated } from './lib/database'

/** Parents before children, so every foreign key finds its row. */
export const TABLES = ['users', 'sessions', 'api_tokens', 'mfa_backup_codes', 'password_reset_tokens', 'oauth_accounts',
  'tags', 'uploads', 'upload_tags', 'votes', 'anonymous_votes', 'user_hidden_tags'] as const

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

async function copyTable(source: Database, target: Executor, table: string): Promise<void> {
  const computed = await generatedColumns(target, table)
  for (let offset = 0; ; offset += BATCH) {
    const rows = await source.all<Record<string, unknown>>(sql`SELECT * FROM ${sql.raw(table)} ORDER BY rowid LIMIT ${BATCH} OFFSET ${offset}`)
    if (rows.length === 0) return
    const columns = Object.keys(rows[0]!).filter(column => !computed.has(column))
    const values = rows.map(row => sql`(${sql.join(columns.map(column => sql`${row[column]}`))})`)
    await target.run(sql`INSERT INTO ${sql.raw(table)} (${sql.raw(columns.map(c => `"${c}"`).join(', '))}) VALUES ${sql.join(values)}`)
    if (rows.length < BATCH) return
  }
}

export interface MoveReport {
  rows: { table: string, source: number, target: number }[]
  media: { checked: number, missing: string[], mismatched: string[] }
  secrets: number
}

/** The move itself; throws with a one-line reason (non-empty target, mismatch). */
export async function moveData(options: { dataDir: string, to: string, log?: (line: string) => void }): Promise<MoveReport> {
  const log = options.log ?? (() => {})
  if (!/^postgres(ql)?:\/\//.test(options.to)) throw new Error('--to must be a postgres:// URL')
  if (!existsSync(join(options.dataDir, 'app.sqlite'))) throw new Error(`No embedded site in ${options.dataDir} (app.sqlite is missing)`)
  const source = await openMigrated({ dataDir: options.dataDir })
  const target = await openMigrated({ dataDir: options.dataDir, url: options.to, log })
  try {
    for (const table of [...TABLES, 'app_secrets']) {
      if (await countRows(target, table) > 0) throw new Error(`The target database is not empty (table ${table} has rows): move into a new, empty database`)
    }
    const secretsFile = join(options.dataDir, 'secrets.json')
    const secrets = existsSync(secretsFile) ? readSecretsFile(readFileSync(secretsFile, 'utf8'), secretsFile) : {}
    await target.transaction(async (tx) => {
      for (const table of TABLES) {
        await copyTable(source, tx, table)
        log(`copied ${table}`)
      }
      // The same secrets, so sessions, API tokens' sessions and anonymous-vote hashes stay valid.
      for (const name of SECRET_NAMES) {
        const value = secrets[name]
        if (value) await tx.run(sql`INSERT INTO app_secrets (name, value) VALUES (${name}, ${value})`)
      }
    })
    const rows = []
    for (const table of TABLES) rows.push({ table, source: await countRows(source, table), target: await countRows(target, table) })
    const wrong = rows.filter(row => row.source !== row.target)
    if (wrong.length) throw new Error(`Row counts differ after the copy: ${wrong.map(row => `${row.table} ${row.source} → ${row.target}`).join(', ')}`)

    const images = await target.all<{ filename: string, sha256: string }>(sql`SELECT filename, sha256 FROM uploads WHERE upload_type = 'image' AND filename IS NOT NULL`)
    const media = { checked: 0, missing: [] as string[], mismatched: [] as string[] }
    for (const image of images) {
      const path = join(options.dataDir, 'media', image.filename)
      if (!existsSync(path)) media.missing.push(image.filename)
      else if (await sha256OfFile(path) !== image.sha256) media.mismatched.push(image.filename)
      else media.checked++
    }
    return { rows, media, secrets: SECRET_NAMES.filter(name => secrets[name]).length }
  }
  finally {
    await source.close()
    await target.close()
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { 'to': { type: 'string' }, 'data-dir': { type: 'string' }, 'media': { type: 'string' } } })
  if (!values.to) {
    console.error('Usage: npm run move-data -- --to <postgres-url> [--data-dir DIR]')
    return 2
  }
  if (values.media && values.media !== 'fs') {
    console.error(`--media ${values.media}: only local media (fs) can be moved so far; media stay in the data dir`)
    return 2
  }
  const dataDir = resolve(values['data-dir'] ?? process.env.NUXT_DATA_DIR ?? './data')
  const report = await moveData({ dataDir, to: values.to, log: line => console.info(`  ${line}`) })
  console.info('| table | source rows | target rows |')
  console.info('|---|---:|---:|')
  for (const row of report.rows) console.info(`| ${row.table} | ${row.source} | ${row.target} |`)
  console.info(`media: ${report.media.checked} file(s) match their SHA-256 in ${join(dataDir, 'media')}`)
  for (const file of report.media.missing) console.warn(`media: missing ${file}`)
  for (const file of report.media.mismatched) console.warn(`media: checksum differs for ${file}`)
  console.info(`secrets: ${report.secrets} moved into the database (sessions stay valid); remove secrets.json once every instance runs on PostgreSQL`)
  console.info(`Start the site with NUXT_DATABASE_URL set to the target and NUXT_DATA_DIR=${dataDir} (media stay there).`)
  return report.media.missing.length || report.media.mismatched.length ? 1 : 0
}

if (process.argv[1]?.endsWith('scripts/move-data.ts')) {
  main().then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      console.error(`move-data: ${(error as Error).message}`)
      process.exitCode = 1
    },
  )
}
