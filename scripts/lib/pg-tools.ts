import { spawn } from 'node:child_process'
import pg from 'pg'
import { shownUrl } from './site-settings'
import type { CopiedRows } from './sqlite-copy'
import { IMAGES_QUERY } from './sqlite-copy'

/**
 * How a PostgreSQL client tool is given `url`: the address without its password,
 * and the environment with the password in PGPASSWORD, never on the command line.
 */
export function pgToolTarget(url: string): { url: string, env: NodeJS.ProcessEnv } {
  const target = new URL(url)
  const password = decodeURIComponent(target.password)
  target.password = ''
  return { url: target.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } }
}

/**
 * Runs pg_dump or pg_restore (Debian's postgresql-client) on `url`: the
 * password travels in PGPASSWORD, never on the command line. Lines of its
 * `--verbose` output that name a table are passed to `log` as progress;
 * a failure throws with what the tool said.
 */
export async function runPgTool(tool: 'pg_dump' | 'pg_restore', args: string[], url: string, log: (line: string) => void): Promise<void> {
  const target = pgToolTarget(url)
  const child = spawn(tool, ['--verbose', '--no-password', `--dbname=${target.url}`, ...args], {
    env: target.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const said: string[] = []
  let partial = ''
  const read = (line: string) => {
    if (/(dumping contents|processing data) (of|for) table/.test(line)) log(line.trim())
    else if (/error|fatal|could not|failed/i.test(line)) said.push(line.trim())
  }
  child.stderr.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n')
    partial = lines.pop()!
    lines.forEach(read)
  })
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT'
      ? new Error(`${tool} is not installed: install PostgreSQL's client tools (Debian: apt-get install postgresql-client)`)
      : error))
    child.once('close', resolve)
  })
  read(partial)
  if (code !== 0) throw new Error(`${tool} failed (exit ${code}): ${said.slice(0, 3).join(' / ') || 'no message'}`)
}

async function connected<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect().catch((error: Error) => {
    throw new Error(`Cannot reach ${shownUrl(url)}: ${error.message}`)
  })
  try {
    return await work(client)
  }
  finally {
    await client.end()
  }
}

async function countsAndImages(client: pg.Client): Promise<CopiedRows> {
  const tables = (await client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`)).rows
  const counts: Record<string, number> = {}
  for (const { name } of tables) counts[name] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${name}"`)).rows[0]!.n)
  const images = counts.uploads === undefined ? [] : (await client.query<CopiedRows['images'][number]>(IMAGES_QUERY)).rows
  return { counts, images }
}

/**
 * Dumps the database at `url` into `file` (custom format) while the site
 * runs: pg_dump reads in a snapshot exported by a transaction here, which
 * reads the counts and the images in that same snapshot, so the media list
 * matches the dumped rows exactly.
 */
export async function dumpPostgres(url: string, file: string, log: (line: string) => void): Promise<CopiedRows> {
  return connected(url, async (client) => {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    const { snapshot } = (await client.query<{ snapshot: string }>('SELECT pg_export_snapshot() AS snapshot')).rows[0]!
    const [dumped, read] = await Promise.allSettled([
      runPgTool('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, `--file=${file}`], url, log),
      countsAndImages(client),
    ])
    await client.query('COMMIT')
    if (dumped.status === 'rejected') throw dumped.reason
    if (read.status === 'rejected') throw read.reason
    return read.value
  })
}

/** Rows per table in the current schema of the database at `url`. */
export function postgresCounts(url: string): Promise<Record<string, number>> {
  return connected(url, async client => (await countsAndImages(client)).counts)
}

const OWN_OBJECTS = `FROM pg_namespace n WHERE n.nspname = current_schema()`

/** How many tables, sequences, views, functions and types the current schema holds (0 in a new database). */
export function postgresObjects(url: string): Promise<number> {
  return connected(url, async client => Number((await client.query<{ n: string }>(`SELECT
    (SELECT count(*) FROM pg_class c WHERE c.relnamespace = n.oid)
    + (SELECT count(*) FROM pg_proc p WHERE p.pronamespace = n.oid)
    + (SELECT count(*) FROM pg_type t WHERE t.typnamespace = n.oid AND t.typtype IN ('e', 'd', 'c') AND NOT EXISTS (SELECT 1 FROM pg_class c WHERE c.oid = t.typrelid)) AS n
    ${OWN_OBJECTS}`)).rows[0]!.n))
}

/** Restores a custom-format dump in one transaction: all of it or nothing. */
export async function restorePostgres(url: string, file: string, log: (line: string) => void): Promise<void> {
  await runPgTool('pg_restore', ['--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges', file], url, log)
}

/**
 * Empties the current schema again after a restore that committed but then
 * failed its checks; only ever called on a schema found empty before it.
 */
export async function dropRestored(url: string): Promise<void> {
  await connected(url, async (client) => {
    await client.query('BEGIN')
    const drop = async (what: string, query: string) => {
      for (const { name } of (await client.query<{ name: string }>(query)).rows) await client.query(`DROP ${what} IF EXISTS ${name} CASCADE`)
    }
    await drop('TABLE', `SELECT format('%I', c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')`)
    await drop('VIEW', `SELECT format('%I', c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'v'`)
    await drop('MATERIALIZED VIEW', `SELECT format('%I', c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'm'`)
    await drop('SEQUENCE', `SELECT format('%I', c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'S'`)
    await drop('FUNCTION', `SELECT p.oid::regprocedure::text AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema()`)
    await drop('TYPE', `SELECT format('%I', t.typname) AS name FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = current_schema() AND t.typtype IN ('e', 'd', 'c') AND t.typrelid = 0`)
    await client.query('COMMIT')
  })
}
