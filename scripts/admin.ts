/**
 * Admin CLI: `npm run admin -- grant <email>` / `npm run admin -- revoke <email>`
 * / `npm run admin -- media-check [--fix]` / `npm run admin -- recount [--check]`
 * (see USAGE). recount compares every kept count with its recount
 * (server/database/kept-counts.ts) and, without --check, sets the drifted ones right.
 * Opens the site's database (NUXT_DATABASE_URL, else <NUXT_DATA_DIR or
 * ./data>/app.sqlite; a data dir without it is refused), migrating it first if needed, and sets the account's
 * admin flag, logging the change in the moderation log (no actor: the command
 * line) in the same transaction. An address in NUXT_ADMIN_EMAILS stays admin
 * whatever the flag says.
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { findDrift, repairKeptCounts } from '../server/database/kept-counts'
import { failureText, type Database } from '../server/database/port'
import { sql } from '../server/database/sql'
import { checkMedia } from '../server/services/media-check'
import { rebuildSearchIndex, searchIndexIntact } from '../server/services/search'
import { fsMediaStore } from '../server/services/media-store'
import { s3MediaStore, s3SettingsFromEnv } from '../server/services/media-store-s3'
import { logModeration } from '../server/services/modlog'
import { openMigrated } from './lib/database'

const USAGE = `Usage: npm run admin -- grant <email> | revoke <email> | media-check [--fix] | recount [--check]

  grant <email>       make the account an admin (logged in the moderation log)
  revoke <email>      take the admin flag away again
  media-check         compare the media (<data>/media, or the bucket when NUXT_MEDIA_STORAGE=s3)
                      with the uploads: lists objects no upload owns and uploads missing
                      their image or thumbnail; small, medium and display sizes may be
                      missing legitimately (made on request) and are only counted
  media-check --fix   the same, then removes the objects no upload owns
  recount --check     compare every kept count (server/database/kept-counts.ts) with its
                      recount and list the ones that drifted
                      (and, on SQLite, the full-text index of descriptions with them)
  recount             the same, then set each drifted count from its recount (and build
                      a drifted full-text index again)

Exit codes: 0 done (media-check: nothing wrong, or every orphan removed with --fix);
1 failed (no such account; media-check: orphans left, or an upload's image is missing;
recount --check: a count drifted; recount: a count drifted again while it was set);
2 usage.`

/**
 * The site's database, migrated first if needed. A data dir without app.sqlite
 * (a mistyped NUXT_DATA_DIR) holds no site: refused, as backup refuses it,
 * rather than made, so a check never reports a new, empty site as sound.
 */
function openSiteDatabase() {
  const dataDir = resolve(process.env.NUXT_DATA_DIR || './data')
  if (!process.env.NUXT_DATABASE_URL && !existsSync(join(dataDir, 'app.sqlite'))) {
    throw new Error(`No site in ${dataDir} (app.sqlite is missing): set NUXT_DATA_DIR, or NUXT_DATABASE_URL for PostgreSQL`)
  }
  return openMigrated({ url: process.env.NUXT_DATABASE_URL, dataDir, log: console.info })
}

async function mediaCheck(db: Database, fix: boolean): Promise<number> {
  const kind = (process.env.NUXT_MEDIA_STORAGE || 'fs').trim().toLowerCase()
  const store = kind === 's3' ? s3MediaStore(s3SettingsFromEnv()) : fsMediaStore(join(resolve(process.env.NUXT_DATA_DIR || './data'), 'media'))
  const check = await checkMedia(db, store, { fix })
  console.info(`media-check: ${store.name}`)
  for (const key of check.orphans) console.info(`orphan (no upload): ${key}${fix ? ' (removed)' : ''}`)
  for (const key of check.inFlight) console.info(`in flight (an upload not committed yet, left alone): ${key}`)
  for (const { id, key } of check.missingOriginals) console.info(`missing image: upload ${id} has no ${key}`)
  for (const id of check.missingThumbnails) console.info(`missing thumbnail: upload ${id} (made again on its first request)`)
  console.info(`${check.orphans.length} orphan object(s)${fix ? `, ${check.removed} removed` : check.orphans.length ? ' (run with --fix to remove them)' : ''}; `
    + `${check.missingOriginals.length} upload(s) missing their image; ${check.missingThumbnails.length} missing their thumbnail; `
    + `${check.missingSizes} small/medium/display size(s) not made yet (made on request, not a fault)`)
  return check.missingOriginals.length > 0 || (check.orphans.length > 0 && !fix) ? 1 : 0
}

/** Prints each drifted count with a few of its rows; whether any drifted. */
async function reportDrift(db: Database): Promise<boolean> {
  const drift = await findDrift(db, 5)
  for (const { name, rows } of drift) {
    console.info(`${name}: drifted`)
    for (const row of rows) console.info(`  ${row.key}: kept ${row.kept}, recount ${row.actual}`)
  }
  return drift.length > 0
}

/** The full-text index (uploads_fts on SQLite) checked, and built again unless `check`; whether it had drifted. */
async function searchIndexDrift(db: Database, check: boolean): Promise<boolean> {
  if (await searchIndexIntact(db)) return false
  console.info('uploads_fts: drifted')
  if (!check) {
    await rebuildSearchIndex(db)
    console.info('uploads_fts: built again from the descriptions')
  }
  return true
}

async function recount(check: boolean): Promise<number> {
  const db = await openSiteDatabase()
  try {
    const indexDrifted = await searchIndexDrift(db, check)
    const drifted = await reportDrift(db)
    if (!drifted) {
      console.info('Every kept count equals its recount')
      return indexDrifted && check ? 1 : 0
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
  if (argv[0] === 'media-check') {
    const options = argv.slice(1)
    if (options.some(option => option !== '--fix')) {
      console.error(USAGE)
      return 2
    }
    const db = await openSiteDatabase()
    try {
      return await mediaCheck(db, options.includes('--fix'))
    }
    finally {
      await db.close()
    }
  }
  if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    console.info(USAGE)
    return 0
  }
  const [command, rawEmail, ...rest] = argv
  if ((command !== 'grant' && command !== 'revoke') || !rawEmail || rest.length > 0 || rawEmail.startsWith('-')) {
    // Say what was wrong before the usage: a command it does not know, or an option where the e-mail goes.
    if (command && command !== 'grant' && command !== 'revoke') console.error(`admin: no command "${command}"`)
    else if (rawEmail?.startsWith('-')) console.error(`admin: ${command} takes an e-mail, not "${rawEmail}"`)
    console.error(USAGE)
    return 2
  }
  const email = rawEmail.trim().toLowerCase()
  const db = await openSiteDatabase()
  try {
    const granted = command === 'grant'
    // Only a change is written and logged: granting an admin again changes nothing.
    const outcome = await db.transaction(async (tx) => {
      const user = await tx.get<{ id: string }>(sql`UPDATE users SET is_admin = ${granted} WHERE email = ${email} AND is_admin <> ${granted} RETURNING id`)
      if (user) {
        await logModeration(tx, { actorId: null, action: granted ? 'admin_granted' : 'admin_revoked', targetType: 'user', targetId: user.id, note: 'command line' })
        return 'changed'
      }
      return await tx.get(sql`SELECT 1 AS found FROM users WHERE email = ${email}`) ? 'unchanged' : 'missing'
    })
    if (outcome === 'missing') {
      console.error(`No account with the e-mail ${email}`)
      return 1
    }
    if (outcome === 'unchanged') console.info(granted ? `${email} is an admin already` : `${email} was not an admin`)
    else console.info(granted ? `${email} is now an admin` : `${email} is no longer an admin`)
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
    console.error(`admin: ${failureText(error)}`)
    process.exitCode = 1
  },
)
