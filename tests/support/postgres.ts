import { afterAll, beforeAll, onTestFinished } from 'vitest'
import { createHash, randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { openDatabase } from '../../server/database/connection'
import type { Database } from '../../server/database/port'
import { runMigrations, type MigrationJournal } from '../../server/database/migrate'
import { sql } from '../../server/database/sql'

/** Names this file creates, and the only ones it drops. */
const TEST_DATABASE = /^dif_[0-9a-f]{16}$/

/** The cluster's admin URL (`scripts/engines.sh` sets it); a clear error without it. */
export function adminDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL
  if (!url) {
    throw new Error('The PostgreSQL pass needs TEST_DATABASE_URL (a superuser URL of a throwaway cluster): '
      + 'run it through scripts/engines.sh, e.g. `npm run test:pg`, or `npm test` for both engines')
  }
  return url
}

/** Runs `work` on a client of the cluster behind `adminUrl` (a superuser URL), closed afterwards. */
export async function onCluster<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl })
  try {
    await client.connect()
  }
  catch (error) {
    const shown = new URL(adminUrl)
    if (shown.password) shown.password = '***'
    throw new Error(`Cannot reach the PostgreSQL test cluster at ${shown}: ${(error as Error).message}`, { cause: error })
  }
  try {
    return await work(client)
  }
  finally {
    await client.end()
  }
}

const MIGRATIONS = join(import.meta.dirname, '../../drizzle/postgres')
const CREATE_OPTIONS = `ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`

/**
 * Creates a database `dif_<16 hex>` on the cluster behind `adminUrl`, with the
 * byte-order collation the app is written for, and answers its URL. Empty by
 * default; `migrated` gives it the whole schema at once, copied from a template
 * migrated once per cluster and set of migrations (a server start then finds
 * nothing to apply: migrating each test database took about 3 s per start).
 */
export async function createTestDatabase(adminUrl = adminDatabaseUrl(), options: { migrated?: boolean } = {}): Promise<string> {
  const name = `dif_${randomBytes(8).toString('hex')}`
  const template = options.migrated ? await migratedTemplate(adminUrl) : 'template0'
  await onCluster(adminUrl, client => whileInUse(() => client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}" ${CREATE_OPTIONS}`)))
  return databaseUrl(adminUrl, name)
}

/** Retries `work` while PostgreSQL answers 55006 (a closed connection's backend is still leaving the database). */
async function whileInUse<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work()
    }
    catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt === 50) throw error
      await new Promise(resolve => setTimeout(resolve, 100))
    }
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/**
 * The name of a database holding every migration of drizzle/postgres, made
 * on first use: named by the migrations' hash, made under an advisory lock so
 * that the test processes sharing the cluster make it once, and left without
 * connections so that it can be copied.
 */
async function migratedTemplate(adminUrl: string): Promise<string> {
  const files = readdirSync(MIGRATIONS).filter(file => file.endsWith('.sql')).sort()
  const hash = createHash('sha256')
  for (const file of files) hash.update(file).update(readFileSync(join(MIGRATIONS, file)))
  const name = `dif_template_${hash.digest('hex').slice(0, 16)}`
  await onCluster(adminUrl, async (client) => {
    await client.query(`SELECT pg_advisory_lock(hashtext('dif-test-template'))`)
    try {
      if ((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount) return
      const building = `${name}_building`
      await client.query(`DROP DATABASE IF EXISTS "${building}"`)
      await client.query(`CREATE DATABASE "${building}" TEMPLATE template0 ${CREATE_OPTIONS}`)
      const db = openDatabase({ url: databaseUrl(adminUrl, building), sqliteFile: '', poolMax: 1 })
      try {
        const journal = JSON.parse(readFileSync(join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as MigrationJournal
        await runMigrations(db, journal, tag => readFileSync(join(MIGRATIONS, `${tag}.sql`), 'utf8'))
      }
      finally {
        await db.close()
      }
      // Renamed once complete: a process killed half-way leaves no template that looks ready.
      await whileInUse(() => client.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`))
    }
    finally {
      await client.query(`SELECT pg_advisory_unlock(hashtext('dif-test-template'))`)
    }
  })
  return name
}

/**
 * Drops a database made by `createTestDatabase`, closing whatever is still connected
 * to it. Refuses any other name, so a wrong URL can never drop real data.
 */
export async function dropTestDatabase(databaseUrl: string, adminUrl = adminDatabaseUrl()): Promise<void> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1))
  if (!TEST_DATABASE.test(name)) throw new Error(`Refusing to drop "${name}": not a test database`)
  await onCluster(adminUrl, client => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))
}

/**
 * A database of the test's own that outlives server restarts inside the test
 * (pass it as `startServer(env, { dataDir, databaseUrl })`), dropped when the
 * test finishes; undefined on the SQLite pass, where the data dir holds the rows.
 * Migrated already unless `empty`.
 */
export async function restartableDatabase(options: { empty?: boolean } = {}): Promise<string | undefined> {
  if (process.env.TEST_ENGINE !== 'postgres') return undefined
  const url = await createTestDatabase(undefined, { migrated: !options.empty })
  onTestFinished(() => dropTestDatabase(url))
  return url
}

/**
 * A migrated database of the describe block's own, on one connection (a test of
 * plans reads its session's prepared statements) that commits synchronously as a
 * production server does (the test cluster does not, scripts/engines.sh, and
 * VACUUM marks a page visible to all only once its rows' commits are on disk),
 * filled by `fill` before the block's tests and dropped after them. Returns the
 * open database, to call in the tests.
 */
export function suiteDatabase(fill: (db: Database) => Promise<void>): () => Database {
  let url: string | undefined
  let db: Database | undefined
  beforeAll(async () => {
    url = await createTestDatabase(undefined, { migrated: true })
    db = openDatabase({ url, sqliteFile: '', poolMax: 1 })
    await db.run(sql`SET synchronous_commit = on`)
    await fill(db)
  })
  afterAll(async () => {
    await db?.close()
    if (url) await dropTestDatabase(url)
  })
  return () => db!
}

/**
 * How often PostgreSQL planned this session's prepared statements whose text
 * contains `fragment`: a generic plan kept for all values, or a custom plan made
 * for the call's values (each of the first five calls makes one).
 */
export function preparedPlans(db: Database, fragment: string): Promise<{ generic: number, custom: number }[]> {
  return db.all<{ generic: number, custom: number }>(sql`SELECT generic_plans::int AS generic, custom_plans::int AS custom
    FROM pg_prepared_statements WHERE statement LIKE ${`%${fragment}%`} AND statement NOT LIKE '%pg_prepared_statements%'`)
}
