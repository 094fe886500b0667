import pg from 'pg'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { DatabaseUnavailableError, DeadlinePassedError, UnstorableTextError, type Database, type Executor } from './port'
import { advisoryLock, render, sql, type Query } from './sql'

/**
 * Counts (`count(*)` is bigint) and numeric results come back as numbers, as
 * they do from SQLite; every other type keeps pg's own parser.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value)
    if (oid === pg.types.builtins.NUMERIC) return (value: string) => Number(value)
    return pg.types.getTypeParser(oid, format)
  },
} as pg.CustomTypesConfig

/**
 * SQLSTATE classes and driver errors that mean the server is gone or cannot
 * take the request now, not that the query is wrong. Class 53, insufficient
 * resources, is the second kind: a cluster at max_connections (or a role or
 * database at its connection limit) refuses the pool a new connection with
 * 53300, as it does out of memory or disk. The request answers 503 and may be
 * sent again.
 */
function isConnectionError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string, message?: string }
  if (code && (code.startsWith('08') || code.startsWith('53') || code === '57P01' || code === '57P02' || code === '57P03')) return true
  if (code && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code)) return true
  return typeof message === 'string' && /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection closed/i.test(message)
}

function mapError(error: unknown): unknown {
  if (isConnectionError(error)) return new DatabaseUnavailableError(error)
  // 22021: a NUL byte (valid in SQLite text, never in PostgreSQL's); 22P05: untranslatable character.
  const code = (error as { code?: string } | null)?.code
  if (code === '22021' || code === '22P05') return new UnstorableTextError(error)
  // 57014 is any cancelled statement: only statement_timeout's is a deadline.
  if (code === '57014' && /statement timeout/.test((error as { message?: string }).message ?? '')) return new DeadlinePassedError()
  return error
}

/** Deadlocks and serialisation failures: the whole transaction may simply run again. */
const isRetryable = (error: unknown) => ['40P01', '40001'].includes((error as { code?: string } | null)?.code ?? '')
const ATTEMPTS = 5

/**
 * Names of prepared statements, one per query text (pg prepares each once per
 * connection, and PostgreSQL keeps it for the connection's life). Past
 * NAMED_MAX texts a new one runs unnamed, parsed each time, so no sequence
 * of requests can make every connection hold an unbounded number.
 *
 * A `sql.replanned` query always runs unnamed: PostgreSQL plans an unnamed
 * statement for the values it is sent with, every time. A named one it plans
 * for its values five times and then, when a plan for any values costs no
 * more, keeps that one (plan_cache_mode=auto, set on every connection below).
 */
const names = new Map<string, string>()
const NAMED_MAX = 2000
function prepared(query: Query): pg.QueryConfig {
  const { text, values, replanned } = render(query, 'postgres')
  if (replanned) return { text, values }
  let name = names.get(text)
  if (!name) {
    if (names.size >= NAMED_MAX) return { text, values }
    names.set(text, name = `q${names.size + 1}`)
  }
  return { name, text, values }
}

class PostgresExecutor implements Executor {
  readonly dialect = 'postgres' as const
  private savepoints = 0

  constructor(protected readonly client: pg.Pool | pg.PoolClient, private readonly inTransaction: boolean) {}

  /**
   * One statement. Outside a transaction it is a transaction of its own, which
   * a deadlock rolls back whole, so it runs again like a transaction does: an
   * upload deleted while another sharing its tags changed privacy waited on
   * each other's tag counts in the triggers, and one of them failed.
   */
  protected async query<T extends pg.QueryResultRow>(query: Query): Promise<pg.QueryResult<T>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.client.query<T>(prepared(query))
      }
      catch (error) {
        if (!this.inTransaction && isRetryable(error) && attempt < ATTEMPTS) continue
        throw mapError(error)
      }
    }
  }

  async all<T>(query: Query): Promise<T[]> {
    return (await this.query(query)).rows as T[]
  }

  async get<T>(query: Query): Promise<T | undefined> {
    return (await this.query(query)).rows[0] as T | undefined
  }

  async run(query: Query): Promise<{ changes: number }> {
    return { changes: (await this.query(query)).rowCount ?? 0 }
  }

  async exec(text: string): Promise<void> {
    try {
      await this.client.query(text)
    }
    catch (error) {
      throw mapError(error)
    }
  }

  async lock(key: string, mode: 'exclusive' | 'shared' = 'exclusive'): Promise<void> {
    if (!this.inTransaction) throw new Error('lock() needs a transaction')
    await this.query(sql`SELECT ${advisoryLock(key, mode)}`)
  }

  async transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    if (this.inTransaction) {
      const name = `sp${++this.savepoints}`
      await this.exec(`SAVEPOINT ${name}`)
      try {
        const result = await fn(this)
        await this.exec(`RELEASE SAVEPOINT ${name}`)
        return result
      }
      catch (error) {
        await this.exec(`ROLLBACK TO SAVEPOINT ${name}`)
        throw error
      }
    }
    const pool = this.client as pg.Pool
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient
      try {
        client = await pool.connect()
      }
      catch (error) {
        throw mapError(error)
      }
      let broken = false
      try {
        await client.query('BEGIN')
        const result = await fn(new PostgresExecutor(client, true))
        await client.query('COMMIT')
        return result
      }
      catch (error) {
        try {
          await client.query('ROLLBACK')
        }
        catch {
          broken = true
        }
        if (isRetryable(error) && attempt < ATTEMPTS) continue
        throw mapError(error)
      }
      finally {
        client.release(broken)
      }
    }
  }
}

/** PostgreSQL through a node-postgres Pool of `max` connections. */
export class PostgresDatabase extends PostgresExecutor implements Database {
  readonly pool: pg.Pool

  constructor(url: string, options: { max: number }) {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.max,
      types,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30_000,
      // Statements are prepared once per connection (parse saved), and planned
      // once where a plan fits all their values: planning every run cost more than
      // running them (0.58 ms of a month's ranking, 0.22 ms of its tags, against
      // 0.40 and 0.16 ms of execution). The few whose plan depends on their values
      // say so (`sql.replanned`) and are planned every time; see `prepared`.
      // PostgreSQL's default, written out so a server configured otherwise does not change it.
      options: '-c plan_cache_mode=auto',
    })
    // An idle connection that breaks (server restart) is dropped by the pool;
    // without a listener the error would end the process.
    pool.on('error', error => console.warn(`[db] idle PostgreSQL connection lost: ${error.message}`))
    super(pool, false)
    this.pool = pool
  }

  /** The data-version read under way, and the one that callers waiting for the next read share. */
  private versionInFlight: Promise<string> | null = null
  private versionQueued: Promise<string> | null = null

  /**
   * The cluster's current snapshot (`xmin:xmax:in-progress xids`). Every end
   * of a transaction that wrote changes it: the newest such end moves xmax,
   * an older one leaves the in-progress list. So after a commit by any
   * connection or instance it differs from every version read before the
   * commit. Reads never move it (they take no transaction id), nor do
   * checkpoints or vacuum's page work, which moved the WAL position this
   * used to be and made every cached list recompute while they ran.
   *
   * One read is in flight at a time, sent at the end of a turn of the event
   * loop (`setImmediate`). A caller gets the next read, with every other
   * caller that comes before it is sent: the requests of a turn, and those
   * that came while the one before was in flight. Each caller's version is
   * still read after it asked, so it reflects every commit before that, and
   * a busy instance pays one round trip per batch of requests instead of one
   * per request.
   */
  dataVersion(): Promise<string> {
    this.versionQueued ??= nextTurn()
      .then(() => this.versionInFlight?.then(() => undefined, () => undefined))
      .then(() => {
        this.versionQueued = null
        return this.readVersion()
      })
    return this.versionQueued
  }

  private readVersion(): Promise<string> {
    const read = this.get<{ snapshot: string }>(sql`SELECT pg_current_snapshot()::text AS snapshot`).then(row => row!.snapshot)
    this.versionInFlight = read
    const settled = () => {
      if (this.versionInFlight === read) this.versionInFlight = null
    }
    read.then(settled, settled)
    return read
  }

  async ping(): Promise<void> {
    await this.get(sql`SELECT 1 AS ok`)
  }

  async close(): Promise<void> {
    await this.pool.end()
  }
}
