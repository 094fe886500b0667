import { describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { suiteDatabase } from '../support/postgres'

/**
 * PostgreSQL keeps statistics on a link's vote count (upload_tags_votes_stats,
 * drizzle/postgres 0051; docs/database.md, "Unvoted links"): how many links
 * have no votes, which the ranked per-tag indexes' conditions test. Without
 * them the planner took a tag's unvoted links for a handful and joined a
 * pair's two unvoted ranges row by row (a ranked page of two tags: 24.8 ms at
 * 100,000 uploads, 2.4 with them; measured, as a plan only goes wrong at a
 * size no unit test builds).
 */
describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL statistics of links without votes', () => {
  const database = suiteDatabase(async (db) => {
    await db.run(sql`INSERT INTO users (id, username, created_at) VALUES ('stats-user', 'stats_user', '2026-01-01T00:00:00.000Z')`)
    await db.run(sql`INSERT INTO tags (id, name, slug, created_at) VALUES ('tag-a', 'a', 'a', '2026-01-01T00:00:00.000Z')`)
    await db.run(sql`INSERT INTO uploads (id, user_id, original_name, description, upload_type, external_url, created_at, tag_ids)
      SELECT 'stats-' || i, 'stats-user', 'https://example.com/', 'link ' || i, 'link', 'https://example.com/', '2026-01-01T00:00:00.000Z', ''
      FROM generate_series(1, 400) i`)
    await db.run(sql`INSERT INTO upload_tags (upload_id, tag_id) SELECT 'stats-' || i, 'tag-a' FROM generate_series(1, 400) i`)
    // A fifth of the links with a vote.
    await db.run(sql`UPDATE upload_tags SET upload_upvotes = 1 WHERE right(upload_id, 1) IN ('1', '5')`)
    await db.run(sql`ANALYZE upload_tags`)
  })

  it('knows the share of links without votes, so a range of them is estimated as it is', async () => {
    const stats = await database().get<{ values: string, frequencies: string }>(sql`SELECT most_common_vals::text AS values, most_common_freqs::text AS frequencies
      FROM pg_stats_ext_exprs WHERE statistics_name = 'upload_tags_votes_stats' AND expr = '(upload_upvotes + upload_downvote_count)'`)
    expect(stats).toEqual({ values: '{0,1}', frequencies: '{0.8,0.2}' })
    const plan = (await database().all<{ 'QUERY PLAN': string }>(sql`EXPLAIN SELECT upload_id FROM upload_tags ut
      WHERE ut.tag_id = 'tag-a' AND ut.upload_is_private = 0 AND ut.upload_upvotes + ut.upload_downvote_count = 0`))[0]!['QUERY PLAN']
    expect(plan).toMatch(/ rows=320 /)
  })
})
