import { describe, expect, it } from 'vitest'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from '../../server/database/sql'
import type { SqliteDatabase } from '../../server/database/sqlite'
import { testDatabase } from '../support/database'

async function twoConnections() {
  const dir = mkdtempSync(join(tmpdir(), 'dif-unit-'))
  return { db: await testDatabase(dir), other: await testDatabase(dir) }
}

function deferred() {
  let open!: () => void
  const promise = new Promise<void>((resolve) => {
    open = resolve
  })
  return { promise, open }
}

/** After this, a transaction asked for before it has begun (a group starts on the next turn of the event loop). */
const nextTurn = () => new Promise<void>(resolve => setImmediate(resolve))

const insertUser = (id: string) => sql`INSERT INTO users (id, username) VALUES (${id}, ${`user_${id}`})`
const usernames = async (db: SqliteDatabase) => (await db.all<{ id: string }>(sql`SELECT id FROM users ORDER BY id`)).map(row => row.id)

describe('SqliteDatabase transactions in groups', () => {
  it('commits the transactions queued behind an open one together, each answering after the commit', async () => {
    const { db, other } = await twoConnections()
    const gate = deferred()
    const first = db.transaction(async (tx) => {
      await tx.run(insertUser('a'))
      await gate.promise
      return 'a'
    })
    await nextTurn()
    const seenByOther: Record<string, string[]> = {}
    const queued = ['b', 'c', 'd'].map(id => db.transaction(async (tx) => {
      await tx.run(insertUser(id))
      // Still uncommitted: another connection sees only what the first group committed.
      seenByOther[id] = (other.sqlite.prepare('SELECT id FROM users ORDER BY id').all() as { id: string }[]).map(row => row.id)
      return id
    }))
    const answered: string[] = []
    for (const [index, promise] of queued.entries()) {
      void promise.then(() => answered.push(`${index}: ${(other.sqlite.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n}`))
    }
    gate.open()
    expect(await first).toBe('a')
    expect(await Promise.all(queued)).toEqual(['b', 'c', 'd'])
    expect(seenByOther).toEqual({ b: ['a'], c: ['a'], d: ['a'] })
    // Every caller of the group hears back only once all four rows are committed.
    expect(answered).toEqual(['0: 4', '1: 4', '2: 4'])
    expect(await usernames(other)).toEqual(['a', 'b', 'c', 'd'])
  })

  it('rolls back a failing transaction of a group alone, its error to its caller', async () => {
    const { db } = await twoConnections()
    const gate = deferred()
    const first = db.transaction(async () => gate.promise)
    await nextTurn()
    const results = await Promise.allSettled([
      first,
      db.transaction(async tx => tx.run(insertUser('b'))),
      db.transaction(async (tx) => {
        await tx.run(insertUser('c'))
        throw new Error('refused')
      }),
      db.transaction(async (tx) => {
        // A nested transaction that fails inside a grouped one leaves the rest of it be.
        await tx.transaction(async (inner) => {
          await inner.run(insertUser('x'))
          throw new Error('inner')
        }).catch(() => undefined)
        await tx.run(insertUser('d'))
      }),
      db.transaction(async tx => tx.run(insertUser('b'))),
      (async () => {
        gate.open()
      })(),
    ])
    expect(results.map(result => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled'])
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ message: 'refused' })
    expect((results[4] as PromiseRejectedResult).reason).toMatchObject({ code: expect.stringMatching(/^SQLITE_CONSTRAINT/) })
    expect(await usernames(db)).toEqual(['b', 'd'])
  })

  it('keeps what a group\'s savepoints undo in memory, and undoes a large one alone', async () => {
    const { db } = await twoConnections()
    // 2 = MEMORY: past 64 KB SQLite wrote a group's savepoint journal to a temporary file.
    expect(db.sqlite.pragma('temp_store', { simple: true })).toBe(2)
    await db.run(sql`INSERT INTO users (id, username) WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 400)
      SELECT 'old' || value, 'old_' || value || printf('%.900c', 'x') FROM n`)
    const gate = deferred()
    const first = db.transaction(async (tx) => {
      await tx.run(insertUser('a'))
      await gate.promise
    })
    await nextTurn()
    const results = await Promise.allSettled([
      first,
      db.transaction(async (tx) => {
        // About 400 KB of pages changed, then refused: all of it rolled back.
        await tx.run(sql`UPDATE users SET username = username || 'y' WHERE id LIKE 'old%'`)
        await tx.run(sql`DELETE FROM users WHERE id LIKE 'old%' AND id > 'old2'`)
        throw new Error('refused')
      }),
      db.transaction(async tx => tx.run(insertUser('c'))),
      (async () => {
        gate.open()
      })(),
    ])
    expect(results.map(result => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled'])
    expect(await usernames(db)).toEqual(['a', 'c', ...Array.from({ length: 400 }, (_, i) => `old${i + 1}`).sort()])
    const changed = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM users WHERE username LIKE '%y'`)
    expect(changed?.n).toBe(0)
  })

  it('fails the whole group when SQLite ends its transaction, and runs the ones not begun after it', async () => {
    const { db } = await twoConnections()
    const gate = deferred()
    const first = db.transaction(async () => gate.promise)
    await nextTurn()
    const done = db.transaction(async tx => tx.run(insertUser('a')))
    const fatal = db.transaction(async (tx) => {
      await tx.run(insertUser('b'))
      // What SQLite does on an I/O error or a full disk: the transaction is gone.
      await tx.exec('ROLLBACK')
      throw new Error('disk I/O error')
    })
    const later = db.transaction(async tx => tx.run(insertUser('c')))
    gate.open()
    await first
    await expect(done).rejects.toThrow('disk I/O error')
    await expect(fatal).rejects.toThrow('disk I/O error')
    await later
    expect(await usernames(db)).toEqual(['c'])
    expect(db.sqlite.inTransaction).toBe(false)
  })

  it('keeps statements from outside waiting for the group, and lets them run before the next one', async () => {
    const { db } = await twoConnections()
    const gate = deferred()
    const order: string[] = []
    const first = db.transaction(async (tx) => {
      await tx.run(insertUser('a'))
      await gate.promise
      order.push('first committed')
    })
    await nextTurn()
    const read = db.all<{ id: string }>(sql`SELECT id FROM users`).then((rows) => {
      order.push(`read ${rows.length}`)
    })
    const second = db.transaction(async (tx) => {
      order.push('second began')
      await tx.run(insertUser('b'))
    })
    gate.open()
    await Promise.all([first, read, second])
    expect(order).toEqual(['first committed', 'read 1', 'second began'])
  })

  it('runs the transactions asked for in one turn of the event loop in one group', async () => {
    const { db, other } = await twoConnections()
    const seenByOther: string[][] = []
    const asked = ['a', 'b', 'c'].map(id => db.transaction(async (tx) => {
      seenByOther.push((other.sqlite.prepare('SELECT id FROM users ORDER BY id').all() as { id: string }[]).map(row => row.id))
      await tx.run(insertUser(id))
    }))
    // A statement from outside asked for before the group has begun runs first.
    expect(await db.all(sql`SELECT id FROM users`)).toEqual([])
    await Promise.all(asked)
    // None of them saw another's row committed: they shared one COMMIT.
    expect(seenByOther).toEqual([[], [], []])
    expect(await usernames(other)).toEqual(['a', 'b', 'c'])
  })

  it('counts exactly under many concurrent transactions', async () => {
    const { db, other } = await twoConnections()
    await db.run(insertUser('counter'))
    await db.run(sql`CREATE TABLE counts (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)`)
    await db.run(sql`INSERT INTO counts (id, n) VALUES (1, 0)`)
    const writes = Array.from({ length: 500 }, (_, i) => db.transaction(async (tx) => {
      const { n } = (await tx.get<{ n: number }>(sql`SELECT n FROM counts WHERE id = 1`))!
      await Promise.resolve()
      await tx.run(sql`UPDATE counts SET n = ${n + 1} WHERE id = 1`)
      if (i % 7 === 0) throw new Error('refused')
      return n + 1
    }))
    const results = await Promise.allSettled(writes)
    const kept = results.filter(result => result.status === 'fulfilled')
    expect(kept.length).toBe(500 - Math.ceil(500 / 7))
    expect((other.sqlite.prepare('SELECT n FROM counts WHERE id = 1').get() as { n: number }).n).toBe(kept.length)
    expect(new Set(kept.map(result => (result as PromiseFulfilledResult<number>).value)).size).toBe(kept.length)
  })
})
