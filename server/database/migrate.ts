import { createHash } from 'node:crypto'
import type { Database } from './port'
import { sql } from './sql'

/** drizzle-kit's `meta/_journal.json`. */
export interface MigrationJournal {
  entries: { idx: number, when: number, tag: string, breakpoints: boolean }[]
}

/**
 * Applies the drizzle-kit migrations of the database's dialect that are not
 * applied yet, all in one transaction. Uses drizzle's bookkeeping table
 * (`__drizzle_migrations`, hash = SHA-256 of the file, created_at = the
 * journal's `when`), so drizzle-kit and this runner agree on what has run.
 * On PostgreSQL the transaction first takes an advisory lock, so N instances
 * starting together migrate once: the others wait, then find nothing to do.
 * The SQL is passed in by a loader so the server can read it from bundled
 * assets and tests from disk.
 */
export async function runMigrations(db: Database, journal: MigrationJournal, loadSql: (tag: string) => string): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.lock('schema-migrations')
    await tx.exec(`CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (
      id ${db.dialect === 'sqlite' ? 'INTEGER PRIMARY KEY AUTOINCREMENT' : 'SERIAL PRIMARY KEY'}, hash text NOT NULL, created_at ${db.dialect === 'sqlite' ? 'numeric' : 'bigint'})`)
    const last = await tx.get<{ at: number | string | null }>(sql`SELECT max(created_at) AS at FROM "__drizzle_migrations"`)
    const lastAt = last?.at === null || last?.at === undefined ? null : Number(last.at)
    const pending = journal.entries.filter(entry => lastAt === null || entry.when > lastAt)
    for (const entry of pending) {
      const file = loadSql(entry.tag)
      for (const statement of file.split('--> statement-breakpoint').map(s => s.trim()).filter(Boolean)) {
        await tx.exec(statement)
      }
      await tx.run(sql`INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES (${createHash('sha256').update(file).digest('hex')}, ${entry.when})`)
    }
    return pending.length
  })
}
