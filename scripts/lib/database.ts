import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { openDatabase } from '../../server/database/connection'
import { runMigrations, type MigrationJournal } from '../../server/database/migrate'
import type { Database } from '../../server/database/port'
import { sql } from '../../server/database/sql'

export const ROOT = resolve(import.meta.dirname, '../..')

/** Applies the migrations of the database's dialect from `drizzle/<dialect>/` on disk. */
export async function migrateFromDisk(db: Database): Promise<number> {
  const folder = join(ROOT, 'drizzle', db.dialect)
  const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as MigrationJournal
  return runMigrations(db, journal, tag => readFileSync(join(folder, `${tag}.sql`), 'utf8'))
}

/**
 * The database a script or test works on, migrated: PostgreSQL when `url`
 * is set (as NUXT_DATABASE_URL would be), else `<dataDir>/app.sqlite`
 * (or an in-memory SQLite for `dataDir` ":memory:").
 */
export async function openMigrated(options: { url?: string, dataDir: string, log?: (line: string) => void }): Promise<Database> {
  const memory = options.dataDir === ':memory:'
  if (!memory && !options.url) mkdirSync(options.dataDir, { recursive: true })
  const db = openDatabase({ url: options.url, sqliteFile: memory ? ':memory:' : join(options.dataDir, 'app.sqlite'), poolMax: 4 })
  const applied = await migrateFromDisk(db)
  if (applied > 0) options.log?.(`[db] applied ${applied} migration(s) (${db.dialect})`)
  return db
}

/** True when a benchmark's database has no uploads yet (a new data dir, or an empty PostgreSQL database). */
export async function needsSeed(target: { url?: string, dataDir: string }): Promise<boolean> {
  if (!target.url && !existsSync(join(target.dataDir, 'app.sqlite'))) return true
  const db = await openMigrated(target)
  try {
    return (await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM uploads`))!.n === 0
  }
  finally {
    await db.close()
  }
}
