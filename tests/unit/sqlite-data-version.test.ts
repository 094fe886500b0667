import { describe, expect, it } from 'vitest'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from '../../server/database/sql'
import { testDatabase } from '../support/database'

async function twoConnections() {
  const dir = mkdtempSync(join(tmpdir(), 'dif-unit-'))
  return { db: await testDatabase(dir), other: await testDatabase(dir) }
}

describe('SqliteDatabase.dataVersion', () => {
  it('is read from the WAL-index header of a file database', async () => {
    const { db } = await twoConnections()
    expect(await db.dataVersion()).toMatch(/^w[0-9a-f]{80}$/)
  })

  it('moves with every commit of another connection, and only then', async () => {
    const { db, other } = await twoConnections()
    const seen = new Set<string>()
    let version = await db.dataVersion()
    seen.add(version)
    expect(await db.dataVersion()).toBe(version)
    for (let i = 0; i < 50; i++) {
      await other.run(sql`INSERT INTO users (id, username) VALUES (${`u${i}`}, ${`user${i}`})`)
      version = await db.dataVersion()
      expect(seen.has(version)).toBe(false)
      seen.add(version)
      expect(await db.dataVersion()).toBe(version)
    }
  })

  it('is read once a turn, after every caller of the turn asked: a commit made after asking is in it', async () => {
    const { db, other } = await twoConnections()
    const before = await db.dataVersion()
    const first = db.dataVersion()
    other.sqlite.prepare(`INSERT INTO users (id, username) VALUES ('t', 'turn')`).run()
    const second = db.dataVersion()
    expect(second).toBe(first)
    const after = await first
    expect(after).not.toBe(before)
    expect(await db.dataVersion()).toBe(after)
  })

  it('is read at the call when asked for now', async () => {
    const { db, other } = await twoConnections()
    const before = await db.dataVersion('now')
    other.sqlite.prepare(`INSERT INTO users (id, username) VALUES ('n1', 'now1')`).run()
    const now = db.dataVersion('now')
    other.sqlite.prepare(`INSERT INTO users (id, username) VALUES ('n2', 'now2')`).run()
    const read = await now
    expect(read).not.toBe(before)
    expect(await db.dataVersion('now')).not.toBe(read)
  })

  it('moves with a commit after a checkpoint has emptied the WAL', async () => {
    const { db, other } = await twoConnections()
    await other.run(sql`INSERT INTO users (id, username) VALUES ('a', 'first')`)
    other.sqlite.pragma('wal_checkpoint(TRUNCATE)')
    const before = await db.dataVersion()
    await other.run(sql`INSERT INTO users (id, username) VALUES ('b', 'second')`)
    expect(await db.dataVersion()).not.toBe(before)
  })

  it('moves with its own commits, a transaction counting once it commits', async () => {
    const { db } = await twoConnections()
    const before = await db.dataVersion()
    let inside = ''
    await db.transaction(async (tx) => {
      await tx.run(sql`INSERT INTO users (id, username) VALUES ('c', 'third')`)
      inside = db.sqlite.inTransaction ? 'open' : 'closed'
    })
    expect(inside).toBe('open')
    expect(await db.dataVersion()).not.toBe(before)
  })

  it('asks SQLite itself when there is no WAL index (in memory)', async () => {
    const db = await testDatabase()
    const before = await db.dataVersion()
    expect(before).toMatch(/^p\d+:\d+$/)
    await db.run(sql`INSERT INTO users (id, username) VALUES ('d', 'fourth')`)
    expect(await db.dataVersion()).not.toBe(before)
  })
})
