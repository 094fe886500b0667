import { chmodSync, closeSync, existsSync, openSync, readSync } from 'node:fs'
import { createRequire } from 'node:module'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { Worker } from 'node:worker_threads'
import BetterSqlite3 from 'better-sqlite3'
import { DatabaseUnavailableError, DeadlinePassedError, type Database, type Executor } from './port'
import { render, sql, type Query } from './sql'

/**
 * SQLite's answers that mean it cannot write now, not that the query is wrong:
 * another process held the write lock past busy_timeout (SQLITE_BUSY), or the
 * disk is full (SQLITE_FULL). They become DatabaseUnavailableError, a 503 with
 * Retry-After, as PostgreSQL's lost or full server does; any other error is
 * left as it is.
 */
function mapError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^SQLITE_(BUSY|FULL)/.test(code) ? new DatabaseUnavailableError(error) : error
}

/**
 * When the statement running now began (performance.now(): a budget under a
 * millisecond is kept, where Date.now() let a statement of 0.8 ms pass a
 * budget of 0.2 when it ran within one tick of the clock). The one
 * connection runs one statement at a time.
 */
let statementStart = 0

/**
 * SQL's `within_budget(ms)`: 1 until the statement calling it has run `ms`
 * milliseconds, then DeadlinePassedError, which ends the statement. A test
 * in a WHERE, it bounds a scan that no index narrows
 * (server/services/search-budget.ts); the connection has no other way to
 * stop a statement it is running. Counted from the statement's start, so
 * waiting for a group of writes spends none of it.
 */
function sqlWithinBudget(ms: unknown): 1 {
  if (performance.now() - statementStart >= Number(ms)) throw new DeadlinePassedError()
  return 1
}

/** Statements compiled once per connection; the oldest go first past this many. */
const STATEMENTS_MAX = 500

/** SQLite through better-sqlite3: one connection, statements prepared once, transactions serialised and committed in groups. */
export class SqliteDatabase implements Database {
  readonly dialect = 'sqlite' as const
  readonly sqlite: BetterSqlite3.Database
  private readonly statements = new Map<string, BetterSqlite3.Statement>()
  /** Settles when the open group of transactions ends; statements from outside it wait for that. */
  private writer: Promise<void> | null = null
  /** Transactions waiting for the next group (see `transaction`). */
  private readonly queued: QueuedTransaction[] = []
  private savepoints = 0
  /** A group is to start in the next check phase (see `transaction`). */
  private groupDue = false
  /** The open `-shm` file (the WAL index), null when there is none to read. */
  private walIndex: number | null | undefined
  private readonly walIndexHeader = Buffer.alloc(2 * WAL_INDEX_HEADER_BYTES)
  /** The data version to be read at the end of this turn (see `dataVersion`). */
  private versionThisTurn: Promise<string> | null = null
  private checkpointer: Worker | null = null
  /** The checkpoint worker asked for the writes to pause while the group now running ends (see `startCheckpoints`). */
  private pauseDue = false
  /** No group starts while the checkpoint worker copies the end of the WAL. */
  private paused = false

  constructor(private readonly file: string) {
    // The file holds TOTP secrets and hashes: readable by its owner only (also its WAL and shm files).
    if (file !== ':memory:' && !existsSync(file)) closeSync(openSync(file, 'a', 0o600))
    this.sqlite = new BetterSqlite3(file)
    this.sqlite.pragma('journal_mode = WAL')
    this.sqlite.pragma('foreign_keys = ON')
    this.sqlite.pragma('busy_timeout = 5000')
    this.sqlite.pragma('synchronous = NORMAL')
    // A grouped transaction's savepoint (and a statement's journal) keeps the pages it
    // changes first; past 64 KB SQLite spilled them to a temporary file, written in
    // every group (docs/database.md, "Group commit on SQLite").
    this.sqlite.pragma('temp_store = MEMORY')
    // PostgreSQL has bit_count(); SQLite gets the Hamming distance of two 64-bit hex hashes here.
    this.sqlite.function('phash_distance', { deterministic: true }, (a: unknown, b: unknown) => hammingDistance(String(a), String(b)))
    this.sqlite.function('within_budget', { deterministic: false }, sqlWithinBudget)
    if (file !== ':memory:') {
      for (const suffix of ['', '-wal', '-shm']) {
        if (existsSync(file + suffix)) chmodSync(file + suffix, 0o600)
      }
    }
  }

  /** The prepared statement of `query` and its values, about to run (its start noted for within_budget). */
  private statement(query: Query): { statement: BetterSqlite3.Statement, values: unknown[] } {
    const { text, values } = render(query, 'sqlite')
    let statement = this.statements.get(text)
    if (!statement) {
      if (this.statements.size >= STATEMENTS_MAX) this.statements.delete(this.statements.keys().next().value!)
      statement = this.sqlite.prepare(text)
      this.statements.set(text, statement)
    }
    statementStart = performance.now()
    return { statement, values }
  }

  /** Runs `work` now, or after the open transaction when called from outside it. */
  private outside<T>(work: () => T): Promise<T> {
    if (this.writer) return this.writer.then(() => this.outside(work))
    return settle(work)
  }

  allNow<T>(query: Query): T[] {
    const { statement, values } = this.statement(query)
    return statement.all(...values) as T[]
  }

  getNow<T>(query: Query): T | undefined {
    const { statement, values } = this.statement(query)
    return statement.get(...values) as T | undefined
  }

  runNow(query: Query): { changes: number } {
    const { statement, values } = this.statement(query)
    return { changes: statement.run(...values).changes }
  }

  all<T>(query: Query): Promise<T[]> {
    return this.outside(() => this.allNow<T>(query))
  }

  get<T>(query: Query): Promise<T | undefined> {
    return this.outside(() => this.getNow<T>(query))
  }

  run(query: Query): Promise<{ changes: number }> {
    return this.outside(() => this.runNow(query))
  }

  exec(text: string): Promise<void> {
    return this.outside(() => void this.sqlite.exec(text))
  }

  /**
   * Transactions wait in `queued` and run in groups: every transaction queued
   * when a group starts runs in it, one after another, each in a savepoint of
   * its own, under one BEGIN IMMEDIATE and one COMMIT; each caller's promise
   * settles after that COMMIT. A transaction that fails rolls back to its
   * savepoint and leaves the others be. Concurrent writes share the commit's
   * WAL pages and its write (docs/database.md, "Group commit on SQLite").
   * A group never starts at once: it starts in the event loop's check phase
   * (setImmediate), after the poll phase has run every request whose data
   * arrived, so their transactions are queued by then. Begun at once, a
   * transaction ran alone: its statements are synchronous, so it reached its
   * COMMIT before the next request was even read.
   */
  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queued.push({ fn, resolve, reject } as QueuedTransaction)
      if (!this.writer) this.scheduleGroup()
    })
  }

  /**
   * Starts a group in the next check phase, unless one is due already: after
   * the requests read meanwhile have queued their transactions, and after the
   * reads that waited for the group before it (so a stream of writes never
   * starves them).
   */
  private scheduleGroup(): void {
    if (this.groupDue) return
    this.groupDue = true
    setImmediate(() => {
      this.groupDue = false
      if (!this.writer && !this.paused && this.queued.length > 0) this.startGroup()
    })
  }

  /** Holds the writer for the transactions queued now; the next group is scheduled when it ends. */
  private startGroup(): void {
    const group = this.queued.splice(0, GROUP_MAX)
    this.writer = this.runGroup(group).finally(() => {
      this.writer = null
      if (this.pauseDue) this.pauseForCheckpoint()
      else if (this.queued.length > 0) this.scheduleGroup()
    })
  }

  /** Runs one group to its COMMIT; never rejects: every failure settles the callers it concerns. */
  private async runGroup(group: QueuedTransaction[]): Promise<void> {
    const done: { job: QueuedTransaction, value: unknown }[] = []
    const failAll = (error: unknown, jobs: QueuedTransaction[]) => {
      try {
        if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK')
      }
      finally {
        for (const job of jobs) job.reject(mapError(error))
      }
    }
    let next = 0
    try {
      this.sqlite.exec('BEGIN IMMEDIATE')
      // One transaction alone needs no savepoint: its failure rolls back the transaction.
      const savepoints = group.length > 1
      for (; next < group.length; next++) {
        const job = group[next]!
        if (savepoints) this.sqlite.exec('SAVEPOINT grouped')
        try {
          const value = await job.fn(new SqliteTransaction(this))
          if (savepoints) this.sqlite.exec('RELEASE grouped')
          done.push({ job, value })
        }
        catch (error) {
          // SQLite may have ended the transaction itself (an I/O error, a full disk): what the group did is gone.
          if (!savepoints || !this.sqlite.inTransaction) throw error
          this.sqlite.exec('ROLLBACK TO grouped')
          this.sqlite.exec('RELEASE grouped')
          job.reject(error)
        }
      }
      this.sqlite.exec('COMMIT')
    }
    catch (error) {
      // The ones not yet begun did nothing: they go first in the next group.
      this.queued.unshift(...group.slice(next + 1))
      failAll(error, [...done.map(({ job }) => job), ...group.slice(next, next + 1)])
      return
    }
    for (const { job, value } of done) job.resolve(value)
  }

  /** A savepoint inside the open transaction. */
  async nested<T>(fn: () => Promise<T>): Promise<T> {
    const name = `sp${++this.savepoints}`
    this.sqlite.exec(`SAVEPOINT ${name}`)
    try {
      const result = await fn()
      this.sqlite.exec(`RELEASE ${name}`)
      return result
    }
    catch (error) {
      this.sqlite.exec(`ROLLBACK TO ${name}`)
      this.sqlite.exec(`RELEASE ${name}`)
      throw error
    }
  }

  lock(): Promise<void> {
    return Promise.resolve()
  }

  /**
   * Moves with every commit by any connection, in this process or another
   * (the admin CLI, a seed). Read from the WAL-index header when there is
   * one: a file read of 96 bytes instead of a read transaction.
   *
   * Read once a turn of the event loop for all who asked in it, at the turn's
   * end (`setImmediate`, after its I/O callbacks): each caller's version is
   * still read after it asked, so after its request arrived, and reflects
   * every commit acknowledged before that. A busy server reads it once for
   * the requests of a turn, not once each: the read(2) was about a tenth of a
   * cached list's CPU (docs/performance.md, "What a cached read costs").
   * `now` reads at once.
   */
  dataVersion(when?: 'now'): Promise<string> {
    if (when === 'now') return this.outside(() => this.readDataVersion())
    this.versionThisTurn ??= nextTurn().then(() => {
      this.versionThisTurn = null
      return this.outside(() => this.readDataVersion())
    })
    return this.versionThisTurn
  }

  private readDataVersion(): string {
    const header = this.walIndexVersion()
    if (header !== null) return `w${header}`
    const { changes, data } = this.getNow<{ changes: number, data: number }>(VERSION_QUERY)!
    return `p${changes}:${data}`
  }

  /**
   * The WAL-index header (https://www.sqlite.org/walformat.html, "The
   * WAL-Index Header"): 48 bytes kept twice in the `-shm` file, rewritten by
   * every writer at every commit (its `iChange` counter, last frame, salts and
   * checksum), copy 2 first and copy 1 after. Two equal, initialised copies of
   * the known version are a consistent header; anything else (a write under
   * way, another format, no file) gives null and the caller asks SQLite.
   */
  private walIndexVersion(): string | null {
    if (this.walIndex === undefined) {
      try {
        this.walIndex = this.file === ':memory:' ? null : openSync(`${this.file}-shm`, 'r')
      }
      catch {
        this.walIndex = null
      }
    }
    if (this.walIndex === null) return null
    const header = this.walIndexHeader
    if (readSync(this.walIndex, header, 0, header.length, 0) !== header.length) return null
    const consistent = header.compare(header, WAL_INDEX_HEADER_BYTES, 2 * WAL_INDEX_HEADER_BYTES, 0, WAL_INDEX_HEADER_BYTES) === 0
    const initialised = header[WAL_INDEX_IS_INIT] === 1
    const known = header.readUInt32LE(0) === WAL_INDEX_VERSION || header.readUInt32BE(0) === WAL_INDEX_VERSION
    return consistent && initialised && known ? header.toString('hex', 8, WAL_INDEX_HEADER_BYTES) : null
  }

  async ping(): Promise<void> {
    await this.get(PING_QUERY)
  }

  /**
   * Moves the WAL's checkpoints off this thread: a worker with a connection of
   * its own copies committed pages into the database file every `everyMs`
   * (PASSIVE: it never waits for or blocks a writer). Left to SQLite, every
   * 1,000 pages the commit that crossed them copied and synced the WAL inside
   * its request, on the event loop every other request waits on
   * (docs/database.md, "The two engines").
   *
   * A WAL starts again from its beginning only when a write begins with all
   * of it copied, which a worker copying behind writes that never pause does
   * not see. So once the WAL passes `restartPages` the worker asks for a
   * pause: no new group of writes starts (reads go on) while it copies what
   * is left and syncs, then the next group starts the WAL again. This
   * connection still checkpoints itself past `fallbackPages`, should the
   * worker stop. For the server only: a short-lived script keeps SQLite's default.
   */
  startCheckpoints({ everyMs = 100, restartPages = CHECKPOINT_RESTART_PAGES, fallbackPages = CHECKPOINT_FALLBACK_PAGES } = {}): void {
    if (this.checkpointer || this.file === ':memory:') return
    const driver = createRequire(import.meta.url).resolve('better-sqlite3')
    const worker = new Worker(CHECKPOINTER, { eval: true, workerData: { driver, file: this.file, everyMs, restartPages } })
    worker.unref()
    // A checkpointer that fails leaves the fallback: this connection checkpoints again.
    worker.on('error', (error) => {
      console.warn(`[db] SQLite checkpoint worker stopped, checkpoints fall back to this connection: ${error.message}`)
      this.checkpointer = null
    })
    worker.on('message', (message) => {
      if (message !== 'pause') return
      if (this.writer) this.pauseDue = true
      else this.pauseForCheckpoint()
    })
    this.checkpointer = worker
    this.sqlite.pragma(`wal_autocheckpoint = ${fallbackPages}`)
  }

  /**
   * Starts no group until the worker has copied the rest of the WAL (its
   * answer `copied`), or PAUSE_MAX_MS have passed without one. Writes wait;
   * reads do not, they see what was committed.
   */
  private pauseForCheckpoint(): void {
    this.pauseDue = false
    const worker = this.checkpointer
    if (!worker || this.paused) return
    this.paused = true
    const resume = () => {
      clearTimeout(timer)
      worker.off('message', copied)
      this.paused = false
      // No group ran meanwhile: none starts while paused.
      if (this.queued.length > 0) this.scheduleGroup()
    }
    const copied = (message: unknown) => {
      if (message === 'copied') resume()
    }
    const timer = setTimeout(resume, PAUSE_MAX_MS)
    timer.unref()
    worker.on('message', copied)
    worker.postMessage('copy')
  }

  async close(): Promise<void> {
    while (this.writer) await this.writer
    if (this.checkpointer) await this.checkpointer.terminate()
    this.checkpointer = null
    if (typeof this.walIndex === 'number') closeSync(this.walIndex)
    this.walIndex = null
    this.sqlite.close()
  }
}

/** A transaction waiting for its group. */
interface QueuedTransaction {
  fn: (tx: Executor) => Promise<unknown>
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/** Transactions one group takes at most, so one group never holds the writer for long. */
const GROUP_MAX = 64

/** WAL pages past which the checkpoint worker asks for a pause to start the WAL again (4 KB pages: 20 MB). */
const CHECKPOINT_RESTART_PAGES = 5_000

/** WAL pages past which the serving connection checkpoints itself, should the worker stop (4 KB pages: 40 MB). */
const CHECKPOINT_FALLBACK_PAGES = 10_000

/** The longest the writes wait for the checkpoint worker's copy. */
const PAUSE_MAX_MS = 250

/**
 * The checkpoint worker (see SqliteDatabase.startCheckpoints): CommonJS, given
 * the driver's path. Past `restartPages` of WAL it copies again at once (what
 * came while it copied), then asks for the pause; told `copy`, it copies the
 * rest with the writes paused and answers `copied`. Unanswered, it goes on
 * copying a second later.
 */
const CHECKPOINTER = `
const { workerData, parentPort } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.file, { fileMustExist: true })
db.pragma('busy_timeout = 1000')
function checkpoint() {
  try { return db.pragma('wal_checkpoint(PASSIVE)')[0] }
  catch { return null }
}
let askedAt = 0
setInterval(() => {
  if (Date.now() - askedAt < 1000) return
  const result = checkpoint()
  if (result && result.log >= workerData.restartPages) {
    checkpoint()
    askedAt = Date.now()
    parentPort.postMessage('pause')
  }
}, workerData.everyMs)
parentPort.on('message', () => {
  checkpoint()
  askedAt = 0
  parentPort.postMessage('copied')
})
`

/** One copy of the WAL-index header; the file holds two, back to back. */
const WAL_INDEX_HEADER_BYTES = 48
/** Offset of `isInit` (1 once the header is written). */
const WAL_INDEX_IS_INIT = 12
/** `iVersion` of the WAL-index format SQLite has used since 3.7.0, in native byte order. */
const WAL_INDEX_VERSION = 3007000
const VERSION_QUERY = sql`SELECT total_changes() AS changes, data_version AS data FROM pragma_data_version`
const PING_QUERY = sql`SELECT 1 AS ok`

/** Bits that differ between two 16-hex-digit (64-bit) hashes. */
function hammingDistance(a: string, b: string): number {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`)
  let bits = 0
  while (x) {
    x &= x - 1n
    bits++
  }
  return bits
}

/** The handle a transaction's callback gets: runs at once, inside the transaction. */
class SqliteTransaction implements Executor {
  readonly dialect = 'sqlite' as const
  constructor(private readonly db: SqliteDatabase) {}

  all<T>(query: Query): Promise<T[]> {
    return settle(() => this.db.allNow<T>(query))
  }

  get<T>(query: Query): Promise<T | undefined> {
    return settle(() => this.db.getNow<T>(query))
  }

  run(query: Query): Promise<{ changes: number }> {
    return settle(() => this.db.runNow(query))
  }

  exec(text: string): Promise<void> {
    return settle(() => void this.db.sqlite.exec(text))
  }

  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    return this.db.nested(() => fn(this))
  }

  lock(): Promise<void> {
    return Promise.resolve()
  }
}

/** `work`'s result, or its error (mapError) as a rejection. */
function settle<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work())
  }
  catch (error) {
    return Promise.reject(mapError(error))
  }
}
