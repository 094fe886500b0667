import type { Column, Table } from 'drizzle-orm'
import type { Dialect, Query } from './sql'

/**
 * The data-access port every service, script and test helper uses. Two
 * adapters implement it: better-sqlite3 (the embedded default, ./sqlite.ts)
 * and PostgreSQL (./postgres.ts), chosen by `NUXT_DATABASE_URL`.
 */
export interface Executor {
  readonly dialect: Dialect
  /** Every row of a query. */
  all<T>(query: Query): Promise<T[]>
  /** The first row, or undefined. */
  get<T>(query: Query): Promise<T | undefined>
  /** A statement run for its effect; `changes` counts the rows it wrote. */
  run(query: Query): Promise<{ changes: number }>
  /** Trusted SQL text without parameters, possibly several statements (migrations). */
  exec(text: string): Promise<void>
  /**
   * Runs `fn` in a transaction (a savepoint when already in one): committed
   * when it resolves, rolled back when it throws. SQLite serialises
   * transactions per connection (`BEGIN IMMEDIATE`); PostgreSQL runs them
   * side by side, so read-then-write logic takes a row lock (`FOR_UPDATE`),
   * a unique index or `lock()`.
   */
  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T>
  /**
   * Inside a transaction: waits until no other transaction holds `key`, and
   * holds it until commit (PostgreSQL advisory lock; a no-op on SQLite, whose
   * transactions are serialised already). `shared`: waits only while another
   * transaction holds `key` exclusively, so shared holders run side by side.
   */
  lock(key: string, mode?: 'exclusive' | 'shared'): Promise<void>
}

export interface Database extends Executor {
  /**
   * Changes whenever any connection or instance has committed a write since
   * the last call (SQLite: the WAL-index header, or the change counter and
   * data_version; PostgreSQL: the cluster's snapshot, moved by every
   * instance's commit). The list cache
   * keys its answers on it. Null: unknown right now, so nothing may be cached.
   * Callers that ask together may share one read made after the last of them
   * asked; `now` reads at once where the engine can (SQLite), for the fast
   * path keeping an answer it has just sent before the next request can ask.
   */
  dataVersion(when?: 'now'): Promise<string | null>
  /** Resolves when the engine answers a trivial query. */
  ping(): Promise<void>
  close(): Promise<void>
}

type ColumnsOf<T extends Table> = T['_']['columns']
type Nullable<C extends Column> = C['_']['notNull'] extends true ? C['_']['data'] : C['_']['data'] | null

/**
 * A table's row as SQL text returns it: keys are the column names
 * (`user_id`), values typed from the Drizzle schema. `Pick<Row<typeof
 * uploads>, 'id' | 'filename'>` types a query's result.
 */
export type Row<T extends Table> = {
  [K in keyof ColumnsOf<T> as ColumnsOf<T>[K]['_']['name']]: Nullable<ColumnsOf<T>[K]>
}

/**
 * The engine is unreachable (connection refused, lost, shutting down) or
 * cannot take the request now (PostgreSQL out of connections or disk,
 * SQLite's file locked by another process or full): answered 503. The
 * driver's error is `driverError`, not `cause`: h3 would otherwise wrap the
 * driver's error instead of this one.
 */
export class DatabaseUnavailableError extends Error {
  constructor(readonly driverError: unknown) {
    super('The database is unavailable')
    this.name = 'DatabaseUnavailableError'
  }
}

/**
 * A failure in one line for a person (a start that fails, a script): its
 * message and, when the database was unavailable, the driver's own words
 * (`connect ECONNREFUSED 127.0.0.1:5432`), which say where and why.
 */
export function failureText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const driver = (error as { driverError?: unknown } | null)?.driverError
  if (!(driver instanceof Error)) return message
  const words = driver instanceof AggregateError && !driver.message
    ? driver.errors.map(each => (each as Error).message).join('; ')
    : driver.message || String((driver as { code?: unknown }).code ?? '')
  return words ? `${message} (${words})` : message
}

/**
 * A statement ran past the time it was given: on SQLite its WHERE called
 * `within_budget(ms)` after that long (server/database/sqlite.ts), on
 * PostgreSQL its transaction's statement_timeout ended it.
 */
export class DeadlinePassedError extends Error {
  constructor() {
    super('The statement ran past its deadline')
    this.name = 'DeadlinePassedError'
  }
}

/** The engine refused a text value it cannot hold (PostgreSQL: a NUL character): answered 400. */
export class UnstorableTextError extends Error {
  constructor(readonly driverError: unknown) {
    super('Text must not contain NUL characters')
    this.name = 'UnstorableTextError'
  }
}

/** A unique index refused the row (SQLite SQLITE_CONSTRAINT_UNIQUE / PRIMARYKEY, PostgreSQL 23505). */
/** A row referred to a parent row that is gone (a foreign key refused it), on either engine. */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
}

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}
