import { connect, createServer, type AddressInfo, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/database/connection'
import type { Database } from '../../server/database/port'
import { sql } from '../../server/database/sql'
import { adminDatabaseUrl, createTestDatabase, dropTestDatabase } from '../support/postgres'
import { testEngine } from '../support/server'

/**
 * The PostgreSQL data version the list cache keys on (server/services/list-cache.ts):
 * it must move with every commit by another connection, and should not move
 * without one, so a cached list survives checkpoints, vacuum and reads.
 */
describe.skipIf(testEngine() !== 'postgres')('PostgresDatabase.dataVersion', () => {
  let url: string
  let reader: Database
  let writer: Database

  beforeAll(async () => {
    url = await createTestDatabase()
    reader = openDatabase({ url, sqliteFile: '', poolMax: 1 })
    writer = openDatabase({ url, sqliteFile: '', poolMax: 2 })
    await writer.exec('CREATE TABLE t (id integer PRIMARY KEY, n integer NOT NULL)')
  })

  afterAll(async () => {
    await reader?.close()
    await writer?.close()
    if (url) await dropTestDatabase(url)
  })

  it('moves when another connection\'s transaction commits', async () => {
    const before = await reader.dataVersion()
    let during: string | null = ''
    await writer.transaction(async (tx) => {
      await tx.run(sql`INSERT INTO t (id, n) VALUES (1, 1)`)
      during = await reader.dataVersion()
    })
    const after = await reader.dataVersion()
    expect(after).not.toBe(during)
    expect(after).not.toBe(before)
    expect(await reader.get(sql`SELECT n FROM t WHERE id = 1`)).toEqual({ n: 1 })
  })

  it('moves with a single-statement write, and with a rolled-back transaction', async () => {
    const before = await reader.dataVersion()
    await writer.run(sql`UPDATE t SET n = n + 1`)
    const updated = await reader.dataVersion()
    expect(updated).not.toBe(before)
    await expect(writer.transaction(async (tx) => {
      await tx.run(sql`UPDATE t SET n = n + 1`)
      throw new Error('roll back')
    })).rejects.toThrow('roll back')
    expect(await reader.dataVersion()).not.toBe(updated)
  })

  it('sends one read for the callers of a turn', async () => {
    const asked = [reader.dataVersion(), reader.dataVersion(), reader.dataVersion()]
    expect(new Set(asked).size).toBe(1)
    expect(await asked[0]).toMatch(/^\d+:\d+:/)
  })

  it('answers a caller with a read sent after it asked, even while another is under way', async () => {
    // A proxy that can hold PostgreSQL's answers back: the first read is done at the
    // server but not yet back when a write commits and a second caller asks.
    const target = new URL(url)
    const proxy = await holdingProxy(target.hostname, Number(target.port))
    const proxied = new URL(url)
    proxied.host = `127.0.0.1:${proxy.port}`
    const db = openDatabase({ url: proxied.toString(), sqliteFile: '', poolMax: 1 })
    try {
      await db.dataVersion()
      proxy.hold()
      const first = db.dataVersion()
      await new Promise(resolve => setTimeout(resolve, 100))
      await writer.run(sql`UPDATE t SET n = n + 1`)
      const second = db.dataVersion()
      proxy.release()
      expect(await second).not.toBe(await first)
    }
    finally {
      await db.close()
      await proxy.close()
    }
  })

  it('stays put through reads, a checkpoint and a vacuum', async () => {
    // The version is the whole cluster's, and other test files write to it meanwhile
    // (the other side's tests of PostgreSQL alone, for seconds at a time): one quiet try
    // is enough (the WAL position moved on every try, with the checkpoint). The tries,
    // 25 ms apart, span about ten seconds.
    const admin = openDatabase({ url: adminDatabaseUrl(), sqliteFile: '', poolMax: 1 })
    const tries: boolean[] = []
    try {
      for (let i = 0; i < 300 && !tries.includes(true); i++) {
        if (i > 0) await new Promise(resolve => setTimeout(resolve, 25))
        await writer.run(sql`UPDATE t SET n = n + 1`)
        const before = await reader.dataVersion()
        await writer.all(sql`SELECT * FROM t`)
        await admin.exec('CHECKPOINT')
        await writer.exec('VACUUM t')
        tries.push(await reader.dataVersion() === before)
      }
    }
    finally {
      await admin.close()
    }
    expect(tries).toContain(true)
  })
})

/** A TCP proxy on 127.0.0.1 whose answers from the server can be held back and let through. */
async function holdingProxy(host: string, port: number) {
  let held: (() => void)[] | null = null
  const sockets = new Set<Socket>()
  const server = createServer((client) => {
    const upstream = connect(port, host)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => socket.destroy())
      socket.on('close', () => sockets.delete(socket))
    }
    client.pipe(upstream)
    upstream.on('data', (chunk: Buffer) => {
      if (held) held.push(() => client.write(chunk))
      else client.write(chunk)
    })
    upstream.on('end', () => client.end())
    client.on('end', () => upstream.end())
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    hold: () => {
      held = []
    },
    release: () => {
      const waiting = held ?? []
      held = null
      for (const write of waiting) write()
    },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      server.close(() => resolve())
    }),
  }
}
