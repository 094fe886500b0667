/**
 * `npm run seed -- --uploads N [--votes N] [--tags N] [--users N] [--data-dir DIR]`:
 * a large database for benchmarks, written in one transaction. The data dir
 * is NUXT_DATA_DIR or ./data; migrations are applied first.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { openDatabase } from '../server/database/connection'
import { runMigrations, type MigrationJournal } from '../server/database/migrate'
import { seedBulk } from './lib/seed'

const ROOT = resolve(import.meta.dirname, '..')

/** Opens `<dataDir>/app.sqlite` with the app's pragmas and applies pending migrations. */
export function openMigrated(dataDir: string) {
  mkdirSync(dataDir, { recursive: true })
  const connection = openDatabase(join(dataDir, 'app.sqlite'))
  const folder = join(ROOT, 'drizzle')
  const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as MigrationJournal
  runMigrations(connection.sqlite, journal, tag => readFileSync(join(folder, `${tag}.sql`), 'utf8'))
  return connection
}

/** Seeds a data dir and returns what was written. */
export function seedDataDir(dataDir: string, options: { uploads: number, votes?: number, tags?: number, users?: number, log?: (line: string) => void }) {
  const { sqlite } = openMigrated(dataDir)
  // A throwaway bulk load: a big page cache, no fsync per commit.
  sqlite.pragma('cache_size = -262144')
  sqlite.pragma('synchronous = OFF')
  try {
    const started = Date.now()
    const result = seedBulk(sqlite, options)
    return { ...result, seconds: (Date.now() - started) / 1000 }
  }
  finally {
    sqlite.close()
  }
}

function main() {
  const { values } = parseArgs({
    options: {
      'uploads': { type: 'string', default: '100000' },
      'votes': { type: 'string' },
      'tags': { type: 'string', default: '2000' },
      'users': { type: 'string' },
      'data-dir': { type: 'string' },
    },
  })
  const count = (name: string, value: string | undefined) => {
    if (value === undefined) return undefined
    if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a non-negative integer`)
    return Number(value)
  }
  const dataDir = resolve(values['data-dir'] ?? process.env.NUXT_DATA_DIR ?? './data')
  const result = seedDataDir(dataDir, {
    uploads: count('uploads', values.uploads)!,
    votes: count('votes', values.votes),
    tags: count('tags', values.tags),
    users: count('users', values.users),
    log: line => console.info(`  ${line}`),
  })
  console.info(`Seeded ${dataDir}/app.sqlite: ${result.users} users, ${result.uploads} uploads, ${result.tags} tags, ${result.votes} votes in ${result.seconds.toFixed(1)} s`)
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('scripts/seed.ts')) main()
