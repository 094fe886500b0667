import { describe, expect, it } from 'vitest'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from '../../server/database/sql'
import { cachedList } from '../../server/services/list-cache'
import { testDatabase } from '../support/database'

describe('cachedList', () => {
  it('serves a list until this connection writes anything', async () => {
    const db = await testDatabase()
    let runs = 0
    const read = () => cachedList(db, 'k', async () => ++runs)
    expect(await read()).toBe(1)
    expect(await read()).toBe(1)
    await db.run(sql`INSERT INTO users (id, username) VALUES ('u1', 'someone')`)
    expect(await read()).toBe(2)
    expect(await read()).toBe(2)
  })

  it('notices commits by another connection to the same file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dif-unit-'))
    const db = await testDatabase(dir)
    const other = await testDatabase(dir)
    let runs = 0
    const read = () => cachedList(db, 'k', async () => ++runs)
    expect(await read()).toBe(1)
    await other.run(sql`INSERT INTO users (id, username) VALUES ('u2', 'elsewhere')`)
    expect(await read()).toBe(2)
  })
})
