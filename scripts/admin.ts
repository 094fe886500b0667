/**
 * Admin CLI: `npm run admin -- grant <email>` / `npm run admin -- revoke <email>`.
 * Opens <NUXT_DATA_DIR or ./data>/app.sqlite (migrating it first if needed) and
 * sets the account's admin flag. An address in NUXT_ADMIN_EMAILS stays admin
 * whatever the flag says.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { openDatabase } from '../server/database/connection'
import { runMigrations, type MigrationJournal } from '../server/database/migrate'

const ROOT = resolve(import.meta.dirname, '..')
const USAGE = 'Usage: npm run admin -- grant <email> | revoke <email>'

function main(argv: string[]): number {
  const [command, rawEmail, ...rest] = argv
  if ((command !== 'grant' && command !== 'revoke') || !rawEmail || rest.length > 0) {
    console.error(USAGE)
    return 2
  }
  const email = rawEmail.trim().toLowerCase()
  const dataDir = resolve(process.env.NUXT_DATA_DIR || './data')
  mkdirSync(dataDir, { recursive: true })
  const { sqlite } = openDatabase(join(dataDir, 'app.sqlite'))
  try {
    const folder = join(ROOT, 'drizzle')
    const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as MigrationJournal
    const applied = runMigrations(sqlite, journal, tag => readFileSync(join(folder, `${tag}.sql`), 'utf8'))
    if (applied > 0) console.info(`[db] applied ${applied} migration(s)`)

    const result = sqlite.prepare('UPDATE users SET is_admin = ? WHERE email = ?').run(command === 'grant' ? 1 : 0, email)
    if (result.changes === 0) {
      console.error(`No account with the e-mail ${email}`)
      return 1
    }
    console.info(command === 'grant' ? `${email} is now an admin` : `${email} is no longer an admin`)
    const listed = (process.env.NUXT_ADMIN_EMAILS ?? '').split(',').map(e => e.trim().toLowerCase())
    if (command === 'revoke' && listed.includes(email)) console.warn(`Note: ${email} is in NUXT_ADMIN_EMAILS and stays an admin while it is listed there`)
    return 0
  }
  finally {
    sqlite.close()
  }
}

process.exitCode = main(process.argv.slice(2))
