import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/database/connection'
import { DeadlinePassedError, type Database } from '../../server/database/port'
import { dialects, sql } from '../../server/database/sql'
import { renderFeed } from '../../server/services/feeds'
import { PUBLIC_VIEW } from '../../server/services/lists'
import { parseSearch, searchUploads } from '../../server/services/search'
import { withinBudget } from '../../server/services/search-budget'
import { testDatabase } from '../support/database'
import { createTestDatabase, dropTestDatabase } from '../support/postgres'

/**
 * A search that weighs uploads one by one is refused past its budget, 400
 * `Query too complex` (server/services/search-budget.ts): on SQLite its
 * statement stops itself (within_budget), on PostgreSQL statement_timeout
 * ends it. 10,000 public links share two words, so matching both takes well
 * over the 1 ms budget on either engine. (One common word alone is not
 * weighed: its count is kept, lists/words.ts.)
 */
const UPLOADS = 10_000
const PAGING = { page: 1, limit: 20 }
const OVER = { statusCode: 400, message: 'Query too complex', data: { position: 0, expected: 'a narrower query' } }

const engines = ['SQLite', ...(process.env.TEST_DATABASE_URL ? ['PostgreSQL'] : [])]

describe.each(engines)('the search budget on %s', (engine) => {
  let db: Database
  let url: string | undefined

  beforeAll(async () => {
    if (engine === 'SQLite') db = await testDatabase()
    else {
      url = await createTestDatabase(undefined, { migrated: true })
      db = openDatabase({ url, sqliteFile: '', poolMax: 2 })
    }
    await db.run(sql`INSERT INTO users (id, username, created_at) VALUES ('budget-user', 'budget_user', '2026-01-01T00:00:00.000Z')`)
    const numbers = dialects({
      sqlite: `(WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${UPLOADS}) SELECT i FROM n)`,
      postgres: `(SELECT generate_series(1, ${UPLOADS}) AS i)`,
    })
    await db.run(sql`INSERT INTO uploads (id, user_id, original_name, description, upload_type, external_url, created_at, tag_ids)
      SELECT 'budget-' || n.i, 'budget-user', 'https://example.com/', 'weighed link ' || n.i, 'link', 'https://example.com/', '2026-01-01T00:00:00.000Z', ''
      FROM ${numbers} n`)
  }, 60_000)

  afterAll(async () => {
    await db?.close()
    if (url) await dropTestDatabase(url)
  })

  const search = (q: string, budgetMs: number) => searchUploads(db, parseSearch(q), PAGING, PUBLIC_VIEW, null, budgetMs)

  it('refuses a query past its budget, keeps the refusal until the next write, and answers within a budget it fits', async () => {
    await expect(search('text:weighed text:link', 1)).rejects.toMatchObject(OVER)
    // Kept like an answer: not weighed again until the database changes. (PostgreSQL's
    // version moves with any commit in the cluster, and other tests share it.)
    if (engine === 'SQLite') await expect(search('text:weighed text:link', 60_000)).rejects.toMatchObject(OVER)
    await db.run(sql`UPDATE users SET username = 'budget_user2' WHERE id = 'budget-user'`)
    const answer = await search('text:weighed text:link', 60_000)
    expect(answer.total).toBe(UPLOADS)
    expect(answer.uploads).toHaveLength(PAGING.limit)
    // The connection that ran the refused statement has no timeout left.
    if (engine === 'PostgreSQL') expect(await db.get(sql`SELECT current_setting('statement_timeout') AS timeout`)).toEqual({ timeout: '0' })
  })

  it('counts a statement\'s time from its start: what comes before it spends none of the budget', async () => {
    // 600 ms pass inside the budget's work before its statement (as waiting for the connection would),
    // then a statement that weighs every upload in a few milliseconds.
    const counted = await withinBudget(db, 400, async (executor, budget) => {
      await new Promise(resolve => setTimeout(resolve, 600))
      return executor.get<{ n: number }>(sql`SELECT count(*) AS n FROM uploads u WHERE ${budget}u.is_private = 0`)
    })
    expect(Number(counted!.n)).toBe(UPLOADS)
  })

  it('refuses every weighed query at once with a budget of 0; a blank query is a kept list, whatever the budget', async () => {
    await expect(search('text:link -text:nothing', 0)).rejects.toMatchObject(OVER)
    expect((await search('', 0)).total).toBe(UPLOADS)
  })

  // SQLite merges tags' links in a statement of their own (lists/tags.ts, tagTermsIds);
  // PostgreSQL's statement_timeout holds every statement alike.
  it.skipIf(engine !== 'SQLite')('counts the tags\' links a query of tags reads before it weighs any upload', async () => {
    // Half the links on one tag, half on the other: merged, they have no upload in common,
    // so no upload is ever weighed; reading 10,000 links takes well over 0.2 ms.
    await db.run(sql`INSERT INTO tags (id, name, slug, created_at) VALUES ('tag-even', 'even', 'even', '2026-01-01T00:00:00.000Z'), ('tag-odd', 'odd', 'odd', '2026-01-01T00:00:00.000Z')`)
    await db.run(sql`INSERT INTO upload_tags (upload_id, tag_id) SELECT id, CASE WHEN CAST(substr(id, 8) AS INTEGER) % 2 = 0 THEN 'tag-even' ELSE 'tag-odd' END FROM uploads`)
    const q = '(even OR nothing) odd'
    await expect(search(q, 0.2)).rejects.toMatchObject(OVER)
    // The refusal is kept until the next write.
    await db.run(sql`UPDATE tags SET name = 'Odd' WHERE id = 'tag-odd'`)
    expect((await search(q, 60_000)).total).toBe(0)
  })

  it.skipIf(engine !== 'SQLite')('counts the links a tag AND an OR of two reads for the uploads carrying all three', async () => {
    // Every upload carries `every`, and even or odd: a page of (even OR odd) every walks a
    // few of every's links, and its total merges 20,000 links for the uploads with all three.
    await db.run(sql`INSERT INTO tags (id, name, slug, created_at) VALUES ('tag-every', 'every', 'every', '2026-01-01T00:00:00.000Z')`)
    await db.run(sql`INSERT INTO upload_tags (upload_id, tag_id) SELECT id, 'tag-every' FROM uploads`)
    const q = '(even OR odd) every'
    await expect(search(q, 0.2)).rejects.toMatchObject(OVER)
    await db.run(sql`UPDATE tags SET name = 'Every' WHERE id = 'tag-every'`)
    const answer = await search(q, 60_000)
    expect(answer.total).toBe(UPLOADS)
    expect(answer.uploads).toHaveLength(PAGING.limit)
  })

  it('holds the search feed to the budget too', async () => {
    const feed = (q: string, budgetMs: number) => renderFeed(db, { kind: 'search', q, node: parseSearch(q), budgetMs }, 'json', 'http://localhost')
    // Nothing matches: the newest uploads are weighed one by one, all of them.
    await expect(feed('text:weighed -text:link', 1)).rejects.toBeInstanceOf(DeadlinePassedError)
    const answer = JSON.parse((await feed('text:weighed', 60_000))!) as { items: unknown[] }
    expect(answer.items).toHaveLength(50)
  })
})
