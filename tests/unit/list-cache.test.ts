import { describe, expect, it } from 'vitest'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cachedList } from '../../server/services/list-cache'
import { testDatabase } from '../support/database'

describe('cachedList', () => {
  it('serves a list until this connection writes anything', () => {
    const { sqlite } = testDatabase()
    let runs = 0
    const read = () => cachedList(sqlite, 'k', () => ++runs)
    expect(read()).toBe(1)
    expect(read()).toBe(1)
    sqlite.prepare(`INSERT INTO users (id, username) VALUES ('u1', 'someone')`).run()
    expect(read()).toBe(2)
    expect(read()).toBe(2)
  })

  it('notices commits by another connection to the same file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dif-unit-')), 'app.sqlite')
    const { sqlite } = testDatabase(file)
    const other = testDatabase(file).sqlite
    let runs = 0
    const read = () => cachedList(sqlite, 'k', () => ++runs)
    expect(read()).toBe(1)
    other.prepare(`INSERT INTO users (id, username) VALUES ('u2', 'elsewhere')`).run()
    expect(read()).toBe(2)
  })
})
