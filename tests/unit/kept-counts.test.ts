import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findDrift, KEPT_COUNTS, repairKeptCounts } from '../../server/database/kept-counts'
import { sql } from '../../server/database/sql'
import { flushRankCopies } from '../../server/services/rank-copies'
import { ROOT } from '../../scripts/lib/database'
import { triggerText } from '../../scripts/lib/triggers'
import { testDatabase } from '../support/database'

const triggersFile = (dialect: string) => readFileSync(join(ROOT, 'drizzle', `${dialect}-triggers.sql`), 'utf8')
const triggerNames = (text: string) => [...text.matchAll(/CREATE (?:CONSTRAINT )?TRIGGER [`"]?(\w+)/g)].map(match => match[1]!)

describe('the kept counts\' trigger files', () => {
  it('hold what the SQLite migrations make (`npm run db:triggers` after a migration)', async () => {
    expect(triggersFile('sqlite')).toBe(await triggerText('sqlite'))
  })

  it.runIf(process.env.TEST_DATABASE_URL)('hold what the PostgreSQL migrations make', async () => {
    expect(triggersFile('postgres')).toBe(await triggerText('postgres', process.env.TEST_DATABASE_URL))
  }, 30_000)

  it('name only triggers that KEPT_COUNTS lists, and KEPT_COUNTS names only triggers that exist', () => {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const listed = KEPT_COUNTS.flatMap(count => count.keptBy[dialect]).join(' ')
      const existing = triggerNames(triggersFile(dialect))
      // A trigger's name (or, on PostgreSQL, the name of its function) stands in some count's keptBy;
      // but SQLite's full-text index of descriptions (uploads_fts_*), no count: `admin recount` checks it apart.
      expect(existing.filter(name => !name.startsWith('uploads_fts_') && !listed.includes(name) && !listed.includes(name.replace(/_(insert|delete|update|privacy)$/, '')))).toEqual([])
      const named = KEPT_COUNTS.flatMap(count => count.keptBy[dialect]).filter(entry => !entry.startsWith('services/')).map(entry => entry.split(' ')[0]!)
      expect(named.filter(name => !existing.some(trigger => trigger === name || trigger.startsWith(`${name}_`)))).toEqual([])
    }
  })
})

describe('drift and repair', () => {
  it('find every kept value set wrong, and set each right from its recount', async () => {
    const db = await testDatabase()
    await db.run(sql`INSERT INTO users (id, username) VALUES ('u1', 'owner')`)
    await db.run(sql`INSERT INTO uploads (id, user_id, original_name, description, upload_type) VALUES ('p1', 'u1', 'a.png', 'A red café, a red one', 'image')`)
    await db.run(sql`INSERT INTO tags (id, name, slug) VALUES ('t1', 'red', 'red'), ('t2', 'blue', 'blue')`)
    await db.run(sql`INSERT INTO upload_tags (upload_id, tag_id, position) VALUES ('p1', 't1', 0), ('p1', 't2', 1)`)
    await db.run(sql`INSERT INTO votes (id, user_id, upload_id, vote) VALUES ('v1', 'u1', 'p1', 'fucks')`)
    await db.run(sql`INSERT INTO reports (id, upload_id, reporter_id, reason) VALUES ('r1', 'p1', 'u1', 'spam')`)
    await db.run(sql`INSERT INTO favourites (user_id, upload_id) VALUES ('u1', 'p1')`)
    await db.run(sql`INSERT INTO comments (id, upload_id, author_id, body, html) VALUES ('c1', 'p1', 'u1', 'a', '<p>a</p>')`)
    await db.run(sql`UPDATE uploads SET upvotes = 1`)
    // The vote's counts wait for its links (rank_copies_pending): not drift, until copied.
    expect(await db.all(sql`SELECT upload_id FROM rank_copies_pending`)).toEqual([{ upload_id: 'p1' }])
    expect(await findDrift(db)).toEqual([])
    await flushRankCopies(db)
    expect(await db.all(sql`SELECT upload_id FROM rank_copies_pending`)).toEqual([])
    expect(await db.all(sql`SELECT upload_upvotes FROM upload_tags`)).toEqual([{ upload_upvotes: 1 }, { upload_upvotes: 1 }])
    expect(await findDrift(db)).toEqual([])

    for (const wrong of [sql`UPDATE uploads SET downvote_count = 3`, sql`UPDATE upload_days SET public_uploads = 9`,
      sql`UPDATE upload_months SET public_uploads = 9`, sql`UPDATE users SET public_uploads = 9`, sql`UPDATE tags SET public_uploads = 5`,
      sql`UPDATE tag_pairs SET public_uploads = 9`, sql`INSERT INTO tag_triples (first_tag_id, second_tag_id, third_tag_id, public_uploads) VALUES ('t1', 't2', 't9', 4)`, sql`UPDATE user_vote_counts SET votes = 9`, sql`UPDATE uploads SET tag_ids = 'x'`,
      // (The wrong count marked its upload pending; unmarked, its links' copies count as drift.)
      sql`DELETE FROM rank_copies_pending`, sql`UPDATE upload_tags SET upload_upvotes = 7`, sql`UPDATE tag_vote_counts SET links = 5`, sql`UPDATE report_groups SET reason_rank = 0`, sql`UPDATE uploads SET favourites = 4`, sql`UPDATE uploads SET comments = 7`, sql`UPDATE duel_standings SET in_pool = 0`, sql`INSERT INTO upload_days (day, public_uploads) VALUES ('2001-01-01', 2)`,
      sql`UPDATE search_words SET public_uploads = 9 WHERE word = 'red'`, sql`INSERT INTO search_words (word, public_uploads) VALUES ('ghost', 2)`]) {
      await db.run(wrong)
    }
    const drift = await findDrift(db)
    expect(drift.map(d => d.name)).toEqual(KEPT_COUNTS.map(count => count.name))
    expect(drift.find(d => d.name === 'upload_days.public_uploads')!.rows).toEqual([
      { key: '2001-01-01', kept: '2', actual: '0' },
      { key: expect.stringMatching(/^\d{4}-\d\d-\d\d$/), kept: '9', actual: '1' },
    ])
    // Each upload counts a word once, as the index folds it (café: cafe).
    expect(drift.find(d => d.name === 'search_words.public_uploads')!.rows).toEqual([
      { key: 'ghost', kept: '2', actual: '0' },
      { key: 'red', kept: '9', actual: '1' },
    ])
    expect(drift.find(d => d.name === 'tag_triples.public_uploads')!.rows).toEqual([{ key: 't1 t2 t9', kept: '4', actual: '0' }])
    expect(drift.find(d => d.name === 'uploads.tag_ids')!.rows).toEqual([{ key: 'p1', kept: 'x', actual: 't1,t2' }])
    expect(drift.find(d => d.name === 'duel_standings.in_pool')!.rows).toEqual([{ key: 'p1', kept: '0', actual: '1' }])

    await repairKeptCounts(db)
    expect(await findDrift(db)).toEqual([])
    expect(await db.all(sql`SELECT upload_id, in_pool FROM duel_standings`)).toEqual([{ upload_id: 'p1', in_pool: 1 }])
    expect((await db.get<{ upvotes: number, downvote_count: number, tag_ids: string, favourites: number, comments: number }>(sql`SELECT upvotes, downvote_count, tag_ids, favourites, comments FROM uploads`)))
      .toEqual({ upvotes: 1, downvote_count: 0, tag_ids: 't1,t2', favourites: 1, comments: 1 })
    expect(await db.all(sql`SELECT word, public_uploads FROM search_words ORDER BY word`)).toEqual([
      { word: 'a', public_uploads: 1 }, { word: 'cafe', public_uploads: 1 }, { word: 'ghost', public_uploads: 0 },
      { word: 'one', public_uploads: 1 }, { word: 'red', public_uploads: 1 },
    ])
  })
})
