import { describe, expect, it } from 'vitest'
import { FOR_UPDATE, sql } from '../../server/database/sql'
import { withSharedVersion, type SharedVersion } from '../../server/database/shared-version'
import { cachedList } from '../../server/services/list-cache'
import { testDatabase } from '../support/database'

/** A version kept in this test instead of Redis: counts bumps, answers what the test sets. */
class CountingVersion implements SharedVersion {
  bumps = 0
  value: string | null = 'v0'
  async bump() {
    this.bumps++
    this.value = `v${this.bumps}`
  }

  async read() {
    return this.value
  }
}

async function versioned() {
  const version = new CountingVersion()
  const db = withSharedVersion(await testDatabase(), version)
  await db.run(sql`INSERT INTO users (id, username) VALUES ('u1', 'someone')`)
  version.bumps = 0
  return { db, version }
}

describe('withSharedVersion', () => {
  it('bumps after a statement that changed rows, not after reads or no-op writes', async () => {
    const { db, version } = await versioned()
    await db.get(sql`SELECT id FROM users WHERE id = ${'u1'}`)
    await db.all(sql`SELECT id FROM users`)
    await db.run(sql`UPDATE users SET username = 'x' WHERE id = 'nobody'`)
    expect(version.bumps).toBe(0)
    await db.run(sql`UPDATE users SET username = 'renamed' WHERE id = 'u1'`)
    expect(version.bumps).toBe(1)
    await db.get(sql`INSERT INTO users (id, username) VALUES ('u2', 'other') RETURNING id`)
    expect(version.bumps).toBe(2)
    await db.all(sql`${sql`DELETE FROM users`} WHERE id = 'u2' RETURNING id`)
    expect(version.bumps).toBe(3)
  })

  it('bumps once per transaction that wrote, after it committed', async () => {
    const { db, version } = await versioned()
    await db.transaction(async (tx) => {
      await tx.get(sql`SELECT id FROM users WHERE id = 'u1' ${FOR_UPDATE}`)
      await tx.run(sql`UPDATE users SET username = 'a' WHERE id = 'u1'`)
      await tx.transaction(inner => inner.run(sql`UPDATE users SET username = 'b' WHERE id = 'u1'`))
      expect(version.bumps).toBe(0)
    })
    expect(version.bumps).toBe(1)

    await db.transaction(tx => tx.all(sql`SELECT id FROM users`))
    expect(version.bumps).toBe(1)

    await expect(db.transaction(async (tx) => {
      await tx.run(sql`UPDATE users SET username = 'c' WHERE id = 'u1'`)
      throw new Error('rolled back')
    })).rejects.toThrow('rolled back')
    expect(version.bumps).toBe(1)
  })

  it('gives the list cache the shared version, and no cache while it is unknown', async () => {
    const { db, version } = await versioned()
    let runs = 0
    const read = () => cachedList(db, 'k', async () => ++runs)
    expect(await read()).toBe(1)
    expect(await read()).toBe(1)
    version.value = null
    expect(await read()).toBe(2)
    expect(await read()).toBe(3)
    version.value = 'v0'
    expect(await read()).toBe(4)
    expect(await read()).toBe(4)
    await db.run(sql`UPDATE users SET username = 'moved' WHERE id = 'u1'`)
    expect(await read()).toBe(5)
  })
})
