import { afterAll, describe, expect, it } from 'vitest'
import { periodStart } from '../../shared/utils/ranking'
import { sql } from '../../server/database/sql'
import { setListCacheEnabled } from '../../server/services/list-cache'
import { listUploads } from '../../server/services/lists'
import { PUBLIC_VIEW } from '../../server/services/lists/filters'
import { preparedPlans, suiteDatabase } from '../support/postgres'

/**
 * A period's page on PostgreSQL unnests its days from an array parameter
 * (periodPage). A generic plan takes such an array for 10 elements; for a day
 * or a week that plan looked dearer than one made for the values, and on a
 * small site PostgreSQL planned every call anew, which cost more than the
 * page. Here 1,000 uploads, one a day, as the smallest size of `npm run
 * bench:scale` has them.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL plans of a period\'s page', () => {
  const database = suiteDatabase(async (db) => {
    // Only the plans matter here: no trigger keeps counts of these rows.
    await db.run(sql`SET session_replication_role = replica`)
    await db.run(sql`INSERT INTO users (id, username, created_at) VALUES ('period-user', 'period_user', '2020-01-01T00:00:00.000Z')`)
    await db.run(sql`INSERT INTO uploads (id, user_id, original_name, description, upload_type, external_url, created_at, tag_ids, upvotes, downvote_count)
      SELECT 'period-' || i, 'period-user', 'https://example.com/' || i, 'link ' || i, 'link', 'https://example.com/' || i,
        to_char((now() AT TIME ZONE 'UTC') - interval '1 hour' - i * interval '1 day', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '', i % 9, i % 4
      FROM generate_series(0, 999) i`)
    await db.run(sql`SET session_replication_role = origin`)
    await db.run(sql`VACUUM ANALYZE uploads`)
  })

  afterAll(() => setListCacheEnabled(true))

  it('keeps one plan of a day\'s and a week\'s page for every call', async () => {
    setListCacheEnabled(false)
    for (const period of ['day', 'week'] as const) {
      for (let call = 0; call < 8; call++) {
        const { uploads } = await listUploads(database(), { page: 1, limit: 10 }, { ...PUBLIC_VIEW, sort: 'top', since: periodStart(period) })
        expect(uploads.length).toBe(period === 'day' ? 1 : 7)
      }
    }
    const plans = await preparedPlans(database(), 'unnest(')
    expect(plans).toEqual([{ generic: 3, custom: 5 }, { generic: 3, custom: 5 }])
  })
})
