/**
 * `npm run seed -- --uploads N [--votes N] [--tags N] [--users N] [--data-dir DIR]`:
 * a large database for benchmarks, written in one transaction. The database
 * is NUXT_DATABASE_URL's when set, else `<data dir>/app.sqlite` (the data dir
 * is NUXT_DATA_DIR or ./data); migrations are applied first. A database that
 * already has accounts (a real site) is refused.
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { SqliteDatabase } from '../server/database/sqlite'
import { sql } from '../server/database/sql'
import { openMigrated } from './lib/database'
import { seedBulk } from './lib/seed'
import { failureText } from '../server/database/port'

/** Seeds a database (`url`, else the data dir's SQLite file) and returns what was written. */
export async function seedDatabase(target: { url?: string, dataDir: string }, options: { uploads: number, votes?: number, tags?: number, users?: number, log?: (line: string) => void, emptyOnly?: boolean }) {
  const db = await openMigrated(target)
  if (options.emptyOnly) {
    const { n } = (await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM users`))!
    if (Number(n) > 0) {
      await db.close()
      throw new Error(`The database already holds a site (${n} accounts): seed writes made-up accounts and uploads for benchmarks; point it at an empty data dir or database`)
    }
  }
  if (db instanceof SqliteDatabase) {
    // A throwaway bulk load: a big page cache, no fsync per commit.
    db.sqlite.pragma('cache_size = -262144')
    db.sqlite.pragma('synchronous = OFF')
  }
  try {
    const started = Date.now()
    const result = await seedBulk(db, options)
    // Fresh statistics and visibility map after a bulk load, as autovacuum would make them
    // later: without statistics PostgreSQL plans the first queries as if the tables were
    // empty, and without the visibility map every index-only scan reads the table's pages
    // too (a day's page of a ranking took 2.4-2.8 ms right after seeding, 0.5-0.9 after).
    if (db.dialect === 'postgres') await db.exec('VACUUM ANALYZE')
    return { ...result, seconds: (Date.now() - started) / 1000 }
  }
  finally {
    await db.close()
  }
}

const USAGE = `Usage: npm run seed -- [--uploads N] [--votes N] [--tags N] [--users N] [--data-dir DIR]

Fills an empty site (NUXT_DATABASE_URL, else the data dir) with made-up users, uploads,
tags and votes, for benches and trying the site out: 100,000 uploads and 2,000 tags by
default, 10 votes an upload and one user per 20 uploads (at least 200) unless told otherwise.
Refuses a site that holds data.`

async function main() {
  let values
  try {
    ({ values } = parseArgs({
      options: {
        'uploads': { type: 'string', default: '100000' },
        'votes': { type: 'string' },
        'tags': { type: 'string', default: '2000' },
        'users': { type: 'string' },
        'data-dir': { type: 'string' },
        'help': { type: 'boolean', short: 'h' },
      },
    }))
  }
  catch (error) {
    console.error(`seed: ${(error as Error).message}\n${USAGE}`)
    process.exitCode = 2
    return
  }
  if (values.help) {
    console.info(USAGE)
    return
  }
  const count = (name: string, value: string | undefined) => {
    if (value === undefined) return undefined
    if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a non-negative integer`)
    return Number(value)
  }
  const dataDir = resolve(values['data-dir'] ?? process.env.NUXT_DATA_DIR ?? './data')
  const url = process.env.NUXT_DATABASE_URL || undefined
  const result = await seedDatabase({ url, dataDir }, {
    uploads: count('uploads', values.uploads)!,
    votes: count('votes', values.votes),
    tags: count('tags', values.tags),
    users: count('users', values.users),
    log: line => console.info(`  ${line}`),
    emptyOnly: true,
  })
  console.info(`Seeded ${url ? 'PostgreSQL' : `${dataDir}/app.sqlite`}: ${result.users} users, ${result.uploads} uploads, ${result.tags} tags, ${result.votes} votes in ${result.seconds.toFixed(1)} s`)
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('scripts/seed.ts')) {
  main().catch((error: unknown) => {
    console.error(`seed: ${failureText(error)}`)
    process.exitCode = 1
  })
}
