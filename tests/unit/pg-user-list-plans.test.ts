import { afterAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { setListCacheEnabled } from '../../server/services/list-cache'
import { listUserUploads } from '../../server/services/lists'
import { pageWindow } from '../../server/services/lists/paging'
import { USER_SORTS } from '../../server/services/lists/sorts'
import { preparedPlans, suiteDatabase } from '../support/postgres'

/**
 * PostgreSQL reads a page of a user's list from the index of its order
 * (drizzle/postgres 0057 and 0058; docs/database.md, "Accounts' sizes"). The
 * account is looked up in the page's own statement, so the page is planned
 * for any account: here one of 2,000 uploads among 1,800 of about 10. Planned
 * for the average account, a page past the first read and sorted all 2,000,
 * and PostgreSQL planned it again at every call.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL plans of a user\'s list', () => {
  const database = suiteDatabase(async (db) => {
    // Only the plans matter here: no trigger keeps counts of these rows.
    await db.run(sql`SET session_replication_role = replica`)
    await db.run(sql`INSERT INTO users (id, username, created_at)
      SELECT 'plan-user-' || i, 'plan_user_' || i, '2026-01-01T00:00:00.000Z' FROM generate_series(0, 1800) i`)
    await db.run(sql`INSERT INTO uploads (id, user_id, original_name, description, upload_type, external_url, created_at, tag_ids, upvotes)
      SELECT 'plan-' || i, 'plan-user-' || CASE WHEN i % 10 = 0 THEN 0 ELSE 1 + i % 1800 END, 'https://example.com/' || i, 'link ' || i, 'link',
        'https://example.com/' || i, '2026-01-01T00:00:00.000Z'::timestamp + i * interval '1 minute', '', i % 7
      FROM generate_series(0, 19999) i`)
    await db.run(sql`SET session_replication_role = origin`)
    await db.run(sql`VACUUM ANALYZE uploads`)
  })

  afterAll(() => setListCacheEnabled(true))

  const planOf = async (sort: keyof typeof USER_SORTS, page: number) => (await database().all<{ 'QUERY PLAN': string }>(sql`EXPLAIN SELECT u.id AS rid FROM uploads u
    WHERE u.user_id = (SELECT id FROM users WHERE lower(username) = lower(${'plan_user_0'})) AND u.is_private = 0
    ORDER BY ${USER_SORTS[sort]} ${pageWindow({ page, limit: 10 })}`)).map(row => row['QUERY PLAN']).join('\n')

  it('reads page 5 by date, votes and favourites from the index alone, with no sort', async () => {
    for (const sort of ['date', 'votes', 'favourites'] as const) {
      const plan = await planOf(sort, 5)
      expect(plan).toContain(`Index Only Scan using uploads_user_${sort}_idx on uploads u`)
      expect(plan).not.toMatch(/Sort/)
    }
  })

  it('reads pages 1 and 3 by name in its index\'s order', async () => {
    for (const page of [1, 3]) {
      const plan = await planOf('name', page)
      expect(plan).toContain('Index Scan using uploads_user_name_idx on uploads u')
      expect(plan).not.toMatch(/Sort/)
    }
  })

  it('keeps one plan of page 3 for every call', async () => {
    setListCacheEnabled(false)
    for (let call = 0; call < 8; call++) {
      expect((await listUserUploads(database(), 'plan_user_0', { sort: 'name', page: 3, limit: 10 })).uploads).toHaveLength(10)
    }
    const plans = await preparedPlans(database(), 'FROM users us')
    expect(plans).toEqual([{ generic: 3, custom: 5 }])
  })
})
