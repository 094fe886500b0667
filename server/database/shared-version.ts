import type { Database, Executor } from './port'
import { render, type Dialect, type Query } from './sql'

/**
 * A data version kept outside the database and shared by every instance
 * (./redis-version.ts): `bump` after each commit that wrote rows, `read`
 * before each cached read. `read` answers null when the version cannot be
 * known right now: nothing may then be served from or kept in a cache.
 */
export interface SharedVersion {
  bump(): Promise<void>
  read(): Promise<string | null>
}

/**
 * The port with its `dataVersion` taken from `version`, bumped after every
 * write this process commits: a `run` that changed rows, an `exec`, a `get`
 * or `all` that writes (`INSERT … RETURNING`), and a
 * transaction in which any of those ran, once it has committed. The bump is
 * awaited before the write resolves, so before its answer is sent: a reader
 * on any instance that starts after the acknowledgement sees the new version.
 */
export function withSharedVersion(db: Database, version: SharedVersion): Database {
  return new VersionedDatabase(db, version)
}

class VersionedDatabase implements Database {
  readonly dialect: Database['dialect']

  constructor(private readonly db: Database, private readonly version: SharedVersion) {
    this.dialect = db.dialect
  }

  async all<T>(query: Query): Promise<T[]> {
    const rows = await this.db.all<T>(query)
    if (isWrite(query, this.dialect)) await this.version.bump()
    return rows
  }

  async get<T>(query: Query): Promise<T | undefined> {
    const row = await this.db.get<T>(query)
    if (isWrite(query, this.dialect)) await this.version.bump()
    return row
  }

  async run(query: Query): Promise<{ changes: number }> {
    const result = await this.db.run(query)
    if (result.changes > 0) await this.version.bump()
    return result
  }

  async exec(text: string): Promise<void> {
    await this.db.exec(text)
    await this.version.bump()
  }

  async transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    const written = { any: false }
    const result = await this.db.transaction(tx => fn(new RecordingExecutor(tx, written)))
    if (written.any) await this.version.bump()
    return result
  }

  lock(key: string): Promise<void> {
    return this.db.lock(key)
  }

  dataVersion(): Promise<string | null> {
    return this.version.read()
  }

  ping(): Promise<void> {
    return this.db.ping()
  }

  close(): Promise<void> {
    return this.db.close()
  }
}

/** A transaction's handle that notes whether anything was written through it (or its savepoints). */
class RecordingExecutor implements Executor {
  readonly dialect: Executor['dialect']

  constructor(private readonly tx: Executor, private readonly written: { any: boolean }) {
    this.dialect = tx.dialect
  }

  all<T>(query: Query): Promise<T[]> {
    if (isWrite(query, this.dialect)) this.written.any = true
    return this.tx.all<T>(query)
  }

  get<T>(query: Query): Promise<T | undefined> {
    if (isWrite(query, this.dialect)) this.written.any = true
    return this.tx.get<T>(query)
  }

  async run(query: Query): Promise<{ changes: number }> {
    const result = await this.tx.run(query)
    if (result.changes > 0) this.written.any = true
    return result
  }

  exec(text: string): Promise<void> {
    this.written.any = true
    return this.tx.exec(text)
  }

  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    return this.tx.transaction(inner => fn(new RecordingExecutor(inner, this.written)))
  }

  lock(key: string): Promise<void> {
    return this.tx.lock(key)
  }
}

/**
 * A statement that names INSERT, UPDATE or DELETE anywhere (a WITH may hold
 * one) counts as a write; a row lock (`FOR UPDATE`) does not. Values are bound
 * parameters, so only the SQL text the code base wrote is looked at.
 */
function isWrite(query: Query, dialect: Dialect): boolean {
  const text = render(query, dialect).text.replace(/\bfor\s+(no\s+key\s+)?update\b/gi, '')
  return /\b(insert|update|delete)\b/i.test(text)
}
