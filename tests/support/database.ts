import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { openDatabase } from '../../server/database/connection'
import { runMigrations, type MigrationJournal } from '../../server/database/migrate'
import { ROOT } from './server'

/** A real SQLite database built from drizzle/ (":memory:" unless a file is given). */
export function testDatabase(file = ':memory:') {
  const connection = openDatabase(file)
  const folder = join(ROOT, 'drizzle')
  const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as MigrationJournal
  runMigrations(connection.sqlite, journal, tag => readFileSync(join(folder, `${tag}.sql`), 'utf8'))
  return connection
}
