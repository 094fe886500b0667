import { onTestFinished } from 'vitest'
import { randomBytes } from 'node:crypto'
import pg from 'pg'

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

async function onCluster<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
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

/**
 * Creates an empty database `dif_<16 hex>` on the cluster behind `adminUrl`, with the
 * byte-order collation the app is written for, and answers its URL.
 */
export async function createTestDatabase(adminUrl = adminDatabaseUrl()): Promise<string> {
  const name = `dif_${randomBytes(8).toString('hex')}`
  await onCluster(adminUrl, client =>
    client.query(`CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
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
 */
export async function restartableDatabase(): Promise<string | undefined> {
  if (process.env.TEST_ENGINE !== 'postgres') return undefined
  const url = await createTestDatabase()
  onTestFinished(() => dropTestDatabase(url))
  return url
}
