import { createHash } from 'node:crypto'
import type Database from 'better-sqlite3'

/** drizzle-kit's `meta/_journal.json`. */
export interface MigrationJournal {
  entries: { idx: number, when: number, tag: string, breakpoints: boolean }[]
}

/**
 * Applies drizzle-kit migrations that are not applied yet, each in its own
 * transaction. Uses drizzle's own bookkeeping table (`__drizzle_migrations`,
 * hash = SHA-256 of the file, created_at = the journal's `when`), so
 * drizzle-kit and this runner agree on what has run. The SQL is passed in by a
 * loader so the server can read it from bundled assets and tests from disk.
 */
export function runMigrations(sqlite: Database.Database, journal: MigrationJournal, loadSql: (tag: string) => string): number {
  sqlite.exec(`CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (
    id INTEGER PRIMARY KEY AUTOINCREMENT, hash text NOT NULL, created_at numeric)`)
  const last = sqlite.prepare('SELECT max(created_at) AS at FROM "__drizzle_migrations"').get() as { at: number | null }
  const pending = journal.entries.filter(e => last.at === null || e.when > Number(last.at))
  const record = sqlite.prepare('INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES (?, ?)')
  for (const entry of pending) {
    const file = loadSql(entry.tag)
    const statements = file.split('--> statement-breakpoint').map(s => s.trim()).filter(Boolean)
    sqlite.transaction(() => {
      for (const statement of statements) sqlite.exec(statement)
      record.run(createHash('sha256').update(file).digest('hex'), entry.when)
    })()
  }
  return pending.length
}
