import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { backupSqlite, inspectSqlite } from '../../scripts/lib/sqlite-copy'

const ROWS = 20_000
const TOTAL = ROWS * 100

/** Counts the steps of a copy and how often it went back (started over). */
function steps() {
  const seen = { steps: 0, restarts: 0, last: 0 }
  return { seen, progress: { add() {}, end() {}, set(done: number) {
    seen.steps++
    if (done < seen.last) seen.restarts++
    seen.last = done
  } } }
}

/**
 * `npm run backup`'s copy of a live SQLite database (scripts/lib/sqlite-copy.ts):
 * a writer on another connection commits between every two steps of the copy,
 * moving money between rows; the copy must finish while it writes and hold one
 * moment of the table (the sum unchanged).
 */
describe('backupSqlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dif-sqlite-backup-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('finishes while another connection keeps committing, with a consistent copy', async () => {
    const source = join(dir, 'live.sqlite')
    const db = new BetterSqlite3(source)
    db.pragma('journal_mode = WAL')
    db.exec('CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL, pad BLOB NOT NULL)')
    const insert = db.prepare('INSERT INTO accounts (id, balance, pad) VALUES (?, 100, randomblob(300))')
    db.transaction(() => {
      for (let id = 1; id <= ROWS; id++) insert.run(id)
    })()
    const move = db.transaction((from: number, to: number) => {
      db.prepare('UPDATE accounts SET balance = balance - 7 WHERE id = ?').run(from)
      db.prepare('UPDATE accounts SET balance = balance + 7 WHERE id = ?').run(to)
    })
    // The writer: a commit on every turn of the event loop, as the copy takes its steps, for at most 4 s.
    let writing = true
    let commits = 0
    const writer = (async () => {
      const until = Date.now() + 4_000
      while (writing && Date.now() < until) {
        move(1 + commits % ROWS, 1 + (commits * 7919) % ROWS)
        commits++
        await new Promise(r => setImmediate(r))
      }
      return writing
    })()

    const { seen, progress } = steps()
    const target = join(dir, 'copy.sqlite')
    await backupSqlite(source, target, progress)
    const copiedAt = commits
    writing = false
    expect(await writer).toBe(false) // the copy finished before the writer gave up
    expect(copiedAt).toBeGreaterThan(2)
    expect(seen.steps).toBeGreaterThan(2)

    const copied = inspectSqlite(target, { detach: true })
    expect(copied.counts).toEqual({ accounts: ROWS })
    expect(existsSync(`${target}-wal`)).toBe(false)
    const copy = new BetterSqlite3(target, { readonly: true })
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete')
    expect(copy.prepare('SELECT sum(balance) FROM accounts').pluck().get()).toBe(TOTAL)
    copy.close()
    db.close()
  }, 15_000)
})
