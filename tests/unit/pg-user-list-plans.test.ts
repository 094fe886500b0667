import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/database/connection'
import type { Database } from '../../server/database/port'
import { sql } from '../../server/database/sql'
import { USER_SORTS } from '../../server/services/lists/sorts'
import { createTestDatabase, dropTestDatabase } from '../support/postgres'

/**
 * PostgreSQL reads a page of a user's list from the index of its order
 * (drizzle/postgres 0057; docs/database.md). It plans the page for an
 * account of average size, as the account is looked up in the same
 * statement: here 20 uploads, where one account has 600. A page past the
 * first of the large account needs more rows than that average; read by date
 * or votes it still comes from the index alone, where with the indexes
 * before 0057 it read and sorted every upload of the account.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL plans of a user\'s list', () => {
  let url: string
  let db: Database

  beforeAll(async () => {
    url = await createTestDatabase(undefined, { migrated: true })
    db = openDatabase({ url, sqliteFile: '', poolMax: 1 })
    // The test server commits asynchronously (scripts/engines.sh), and VACUUM marks a page
    // visible to all only once the commits of its rows are on disk, as a production server's are.
    await db.run(sql`SET synchronous_commit = on`)
    await db.run(sql`INSERT INTO users (id, username, created_at)
      SELECT 'plan-user-' || i, 'plan_user_' || i, '2026-01-01T00:00:00.000Z' FROM generate_series(0, 99) i`)
    // 2,580 uploads: 600 of plan_user_0, 20 of each other account.
    await db.run(sql`INSERT INTO uploads (id, user_id, original_name, description, upload_type, external_url, created_at, tag_ids, upvotes)
      SELECT 'plan-' || i, 'plan-user-' || CASE WHEN i < 600 THEN 0 ELSE 1 + (i % 99) END, 'https://example.com/' || i, 'link ' || i, 'link',
        'https://example.com/' || i, '2026-01-01T00:00:00.000Z'::timestamp + i * interval '1 minute', '', i % 7
      FROM generate_series(0, 2579) i`)
    await db.run(sql`VACUUM ANALYZE uploads`)
  })

  afterAll(async () => {
    await db?.close()
    if (url) await dropTestDatabase(url)
  })

  const planOf = async (sort: keyof typeof USER_SORTS, offset: number) => (await db.all<{ 'QUERY PLAN': string }>(sql`EXPLAIN SELECT u.id AS rid FROM uploads u
    WHERE u.user_id = (SELECT id FROM users WHERE lower(username) = lower(${'plan_user_0'})) AND u.is_private = 0
    ORDER BY ${USER_SORTS[sort]} LIMIT 10 OFFSET ${sql.raw(String(offset))}`)).map(row => row['QUERY PLAN']).join('\n')

  it('reads page 5 by date, votes and favourites from the index alone, with no sort', async () => {
    for (const sort of ['date', 'votes', 'favourites'] as const) {
      const plan = await planOf(sort, 40)
      expect(plan).toContain(`Index Only Scan using uploads_user_${sort}_idx on uploads u`)
      expect(plan).not.toMatch(/Sort/)
    }
  })

  it('reads page 1 by name in its index\'s order', async () => {
    const plan = await planOf('name', 0)
    expect(plan).toContain('Index Scan using uploads_user_name_idx on uploads u')
    expect(plan).not.toMatch(/Sort/)
  })
})
