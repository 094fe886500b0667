import { describe, expect, it } from 'vitest'
import { mkdtempSync, openSync, readSync, closeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from '../../server/database/sql'
import { testDatabase } from '../support/database'

const RESTART_PAGES = 300
const WRITERS = 32
/** How many times the WAL must start again, and the most transactions written waiting for it. */
const RESTARTS = 5
const MOST_TRANSACTIONS = 100_000

/** The WAL index's mxFrame: the frames the WAL holds now (https://www.sqlite.org/walformat.html). */
function walFrames(shm: number): number {
  const header = Buffer.alloc(20)
  readSync(shm, header, 0, header.length, 0)
  return header.readUInt32LE(16)
}

describe('SqliteDatabase.startCheckpoints', () => {
  it('starts the WAL again under writes that never pause, without the serving connection checkpointing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dif-unit-'))
    const db = await testDatabase(dir)
    // fallbackPages 0: the serving connection never checkpoints, so only the worker's
    // copy with the writes paused lets the WAL start again from its beginning.
    db.startCheckpoints({ everyMs: 5, restartPages: RESTART_PAGES, fallbackPages: 0 })
    const shm = openSync(join(dir, 'app.sqlite-shm'), 'r')
    let started = 0
    // The most frames the WAL held before each time it started again.
    const peaks: number[] = []
    let last = 0
    const watch = () => {
      const frames = walFrames(shm)
      if (frames < last) peaks.push(last)
      last = frames
    }
    try {
      // Each writer queues its next transaction as soon as the last commits: a group is always
      // waiting. They write until the WAL has started again RESTARTS times: on a busy machine the
      // worker thread may start late, or check late.
      await Promise.all(Array.from({ length: WRITERS }, async () => {
        while (peaks.length < RESTARTS && started < MOST_TRANSACTIONS) {
          const n = started++
          await db.transaction(async (tx) => {
            for (let i = 0; i < 4; i++) {
              const key = `${n}-${i}-${Math.random().toString(36).slice(2)}`
              await tx.run(sql`INSERT INTO users (id, username) VALUES (${key}, ${key})`)
            }
          })
          watch()
        }
      }))
      const { count } = (await db.get<{ count: number }>(sql`SELECT count(*) AS count FROM users`))!
      expect(count).toBe(started * 4)
      // Without the pause the WAL holds every commit (about 3,000 frames for 5,000 transactions)
      // and never starts again.
      expect(peaks.length).toBeGreaterThanOrEqual(RESTARTS)
      // The first waits for the worker to start; then the WAL starts again a little past
      // RESTART_PAGES, what came between the worker's request and the pause (the median: one
      // check the busy machine delayed may let it grow further).
      const later = peaks.slice(1).sort((a, b) => a - b)
      expect(later[Math.floor(later.length / 2)]).toBeLessThan(RESTART_PAGES * 3)
    }
    finally {
      closeSync(shm)
      await db.close()
    }
  })
})
