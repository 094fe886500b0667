/**
 * Admin CLI: `npm run admin -- grant <email>` / `npm run admin -- revoke <email>`;
 * `npm run admin -- recount [--check]` compares every kept count with its recount
 * (server/database/kept-counts.ts) and, without --check, sets the drifted ones right
 * (exit 1 with --check when any has drifted).
 * Opens the site's database (NUXT_DATABASE_URL, else <NUXT_DATA_DIR or
 * ./data>/app.sqlite), migrating it first if needed, and sets the account's
 * admin flag, logging the change in the moderation log (no actor: the command
 * line) in the same transaction. An address in NUXT_ADMIN_EMAILS stays admin
 * whatever the flag says.
 */
import { resolve } from 'node:path'
import { findDrift, repairKeptCounts } from '../server/database/kept-counts'
import type { Database } from '../server/database/port'
import { sql } from '../server/database/sql'
import { logModeration } from '../server/services/modlog'
import { openMigrated } from './lib/database'

const USAGE = 'Usage: npm run admin -- grant <email> | revoke <email> | recount [--check]'

const openSite = () => openMigrated({ url: process.env.NUXT_DATABASE_URL, dataDir: resolve(process.env.NUXT_DATA_DIR || './data'), log: console.info })

/** Prints each drifted count with a few of its rows; whether any drifted. */
async function reportDrift(db: Database): Promise<boolean> {
  const drift = await findDrift(db, 5)
  for (const { name, rows } of drift) {
    console.info(`${name}: drifted`)
    for (const row of rows) console.info(`  ${row.key}: kept ${row.kept}, recount ${row.actual}`)
  }
  return drift.length > 0
}

async function recount(check: boolean): Promise<number> {
  const db = await openSite()
  try {
    const drifted = await reportDrift(db)
    if (!drifted) {
      console.info('Every kept count equals its recount')
      return 0
    }
    if (check) return 1
    await repairKeptCounts(db)
    if (await reportDrift(db)) {
      console.error('Some counts drifted again while they were set: writes are under way; run it again')
      return 1
    }
    console.info('Every drifted count was set from its recount')
    return 0
  }
  finally {
    await db.close()
  }
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'recount' && (argv.length === 1 || (argv.length === 2 && argv[1] === '--check'))) return recount(argv[1] === '--check')
  const [command, rawEmail, ...rest] = argv
  if ((command !== 'grant' && command !== 'revoke') || !rawEmail || rest.length > 0) {
    console.error(USAGE)
    return 2
  }
  const email = rawEmail.trim().toLowerCase()
  const db = await openSite()
  try {
    const granted = command === 'grant'
    const changed = await db.transaction(async (tx) => {
      const user = await tx.get<{ id: string }>(sql`UPDATE users SET is_admin = ${granted} WHERE email = ${email} RETURNING id`)
      if (user) await logModeration(tx, { actorId: null, action: granted ? 'admin_granted' : 'admin_revoked', targetType: 'user', targetId: user.id, note: 'command line' })
      return user !== undefined
    })
    if (!changed) {
      console.error(`No account with the e-mail ${email}`)
      return 1
    }
    console.info(granted ? `${email} is now an admin` : `${email} is no longer an admin`)
    const listed = (process.env.NUXT_ADMIN_EMAILS ?? '').split(',').map(e => e.trim().toLowerCase())
    if (command === 'revoke' && listed.includes(email)) console.warn(`Note: ${email} is in NUXT_ADMIN_EMAILS and stays an admin while it is listed there`)
    return 0
  }
  finally {
    await db.close()
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    console.error(`admin: ${(error as Error).message}`)
    process.exitCode = 1
  },
)
