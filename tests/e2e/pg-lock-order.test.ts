import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { createTestDatabase, dropTestDatabase } from '../support/postgres'
import { startServer, testEngine, type RunningServer } from '../support/server'
import { postUpload } from '../support/uploads'

/**
 * Own server on a database of its own: every change to an upload moves kept counts
 * (its day and month, its owner's count, its tags' counts, its tag pairs) through
 * triggers, and on PostgreSQL two transactions that take those rows in other orders
 * deadlock. One is then ended, waits out deadlock_timeout and runs again, or answers 500
 * after five tries. Uploads made on one day with the same tags, then tagged, hidden and
 * deleted side by side, must not deadlock once: PostgreSQL counts every deadlock in
 * pg_stat_database, read after the server is gone (a session writes its statistics as
 * it ends).
 */
describe.skipIf(testEngine() !== 'postgres')('PostgreSQL lock order of the kept counts', () => {
  let url: string
  let server: RunningServer | undefined
  const tags = ['lime', 'kiwi', 'fig', 'date'].map(name => `${name}${randomUUID().slice(0, 4)}`)

  const deadlocks = async () => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      return Number((await client.query('SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()')).rows[0].deadlocks)
    }
    finally {
      await client.end()
    }
  }

  beforeAll(async () => {
    url = await createTestDatabase()
  })

  afterAll(async () => {
    await server?.stop()
    if (url) await dropTestDatabase(url)
  })

  it('takes them in one order on every path, so nothing deadlocks', async () => {
    const running = server = await startServer({ NUXT_RATE_LIMIT_ENABLED: 'false' }, { databaseUrl: url })
    const base = { baseURL: running.url }
    const users: TestUser[] = []
    for (let i = 0; i < 3; i++) users.push(await registerUser({}, running.url))
    const owner = (i: number) => users[i % 3]!

    // 32 link uploads at once, each with three of the four tags, in both orders. A failure
    // names the answers and what the server wrote: a rare 500 here must say why.
    const uploadAtOnce = async (four: string[]) => {
      const given = Array.from({ length: 32 }, (_, i) => {
        const mine = [four[i % 4]!, four[(i + 1) % 4]!, four[(i + 2) % 4]!]
        return i % 2 === 0 ? mine : mine.reverse()
      })
      const made = await Promise.all(given.map((mine, i) => postUpload(owner(i), {
        upload_type: 'link', description: `Locked link ${i}`, external_url: `https://example.com/${randomUUID()}`, tags: mine.join(', '),
      }, undefined, running.url)))
      const refused = made.flatMap((response, i) => response.status === 201 ? [] : [`${i}: ${response.status} ${JSON.stringify(response.body)}`])
      expect(made.map(response => response.status), `${refused.join('\n')}\n${running.output().slice(-4000)}`).toEqual(Array(32).fill(201))
      return { given, made }
    }
    // First with tags new each time: a tag made by one upload while the others take it too is
    // where such races hide (server/services/upload-tags.ts, NewTags).
    for (let burst = 0; burst < 4; burst++) await uploadAtOnce(tags.map(name => `${name}${burst}`))
    const { given, made } = await uploadAtOnce(tags)
    const idOf = (i: number) => made[i]!.body.upload.id as string
    // The tags were new: an upload writes its row's tag ids before it takes the tag rows,
    // so most found theirs made meanwhile by another, under other ids than they chose.
    for (const [i, mine] of given.entries()) {
      const listed = await api<{ tags: { name: string }[] }>(`/api/uploads/${idOf(i)}/tags`, base)
      expect(listed.body.tags.map(tag => tag.name), `upload ${i}`).toEqual(mine)
    }

    for (const round of [0, 1]) {
      const at = round * 16
      const results = await Promise.all([
        ...[0, 1, 2, 3].map(i => api(`/api/uploads/${idOf(at + i)}/tags`, { ...base, method: 'POST', token: owner(at + i).token, body: { tags } })),
        ...[4, 5, 6, 7].map(i => api(`/api/upload/${idOf(at + i)}/privacy`, { ...base, method: 'PATCH', token: owner(at + i).token })),
        ...[8, 9, 10, 11].map(i => api(`/api/upload/${idOf(at + i)}`, { ...base, method: 'DELETE', token: owner(at + i).token })),
        // Edits that take some of the shared tags off and put others on.
        ...[12, 13, 14, 15].map(i => api(`/api/upload/${idOf(at + i)}`, { ...base, method: 'PATCH', token: owner(at + i).token, body: { tags: [tags[(i + 3) % 4]!, 'edited'] } })),
      ])
      expect(results.map(response => response.status), `round ${round}\n${running.output().slice(-4000)}`).toEqual(Array(16).fill(200))
    }

    server = undefined
    await running.stop()
    expect(await deadlocks()).toBe(0)
  })
})
