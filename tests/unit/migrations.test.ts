import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/database/connection'
import { runMigrations, type MigrationJournal } from '../../server/database/migrate'
import { render, sql, type Query } from '../../server/database/sql'
import type { SqliteDatabase } from '../../server/database/sqlite'
import { taggedIds } from '../../server/services/lists'
import { LINK_SORTS, USER_SORTS } from '../../server/services/lists/sorts'
import { linkSearchPage, oneTagSince } from '../../server/services/lists/tags'
import { onOneTag, parseSearch } from '../../server/services/search'
import { ROOT } from '../../scripts/lib/database'

const folder = join(ROOT, 'drizzle', 'sqlite')
const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as MigrationJournal
const load = (tag: string) => readFileSync(join(folder, `${tag}.sql`), 'utf8')

describe('migrations', () => {
  it('apply to an empty database, then are a no-op', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dif-unit-')), 'app.sqlite')
    const db = openDatabase({ sqliteFile: file }) as SqliteDatabase
    expect(await runMigrations(db, journal, load)).toBe(journal.entries.length)
    expect(await runMigrations(db, journal, load)).toBe(0)
    const tables = (await db.all<{ name: string }>(sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)).map(r => r.name)
    expect(tables).toEqual(['__drizzle_migrations', 'anonymous_votes', 'api_tokens', 'app_secrets', 'banned_media', 'comment_votes', 'comments', 'duel_judgements', 'duel_standings', 'email_verification_tokens', 'favourites', 'media_deletions', 'mfa_backup_codes', 'moderation_log', 'oauth_accounts', 'passkeys', 'password_reset_tokens', 'rank_copies_pending', 'removed_uploads', 'report_groups', 'reports', 'request_keys', 'search_word_tokens', 'search_words', 'sessions', 'tag_aliases', 'tag_implications', 'tag_pairs', 'tag_triples', 'tag_vote_counts', 'tags', 'upload_days', 'upload_months', 'upload_revisions', 'upload_tags', 'uploads', 'uploads_fts', 'uploads_fts_config', 'uploads_fts_data', 'uploads_fts_docsize', 'uploads_fts_idx', 'user_hidden_tags', 'user_vote_counts', 'users', 'votes', 'webauthn_challenges'])
    expect(db.sqlite.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.sqlite.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(db.sqlite.pragma('busy_timeout', { simple: true })).toBe(5000)
  })

  it('give every upload there before edits its revision 1, built from its description, link and tags', async () => {
    const db = openDatabase({ sqliteFile: ':memory:' }) as SqliteDatabase
    const before = journal.entries.findIndex(entry => entry.tag.endsWith('_edits'))
    await runMigrations(db, { ...journal, entries: journal.entries.slice(0, before) }, load)
    db.sqlite.exec(`INSERT INTO users (id, username, email, password_hash) VALUES ('u', 'ann', 'ann@example.com', 'x');
      INSERT INTO uploads (id, user_id, original_name, description, upload_type, external_url, created_at) VALUES
        ('img', 'u', 'a.png', 'An image', 'image', NULL, '2026-01-01T00:00:00.000Z'),
        ('lnk', 'u', 'https://example.com/', 'A link', 'link', 'https://example.com/', '2026-01-02T00:00:00.000Z');
      INSERT INTO tags (id, name, slug) VALUES ('t1', 'Zebra', 'zebra'), ('t2', 'apple', 'apple');
      INSERT INTO upload_tags (upload_id, tag_id, position) VALUES ('img', 't1', 0), ('img', 't2', 1);`)
    await runMigrations(db, journal, load)
    const rows = await db.all<{ upload_id: string, revision: number, actor_id: string, changes: string, reason: null, created_at: string }>(sql`SELECT * FROM upload_revisions ORDER BY upload_id`)
    expect(rows.map(row => ({ ...row, changes: JSON.parse(row.changes) }))).toEqual([
      { upload_id: 'img', revision: 1, actor_id: 'u', reason: null, created_at: '2026-01-01T00:00:00.000Z', changes: { description: { from: null, to: 'An image' }, tagsAdded: ['zebra', 'apple'], tagsRemoved: [] } },
      { upload_id: 'lnk', revision: 1, actor_id: 'u', reason: null, created_at: '2026-01-02T00:00:00.000Z', changes: { description: { from: null, to: 'A link' }, externalUrl: { from: null, to: 'https://example.com/' }, tagsAdded: [], tagsRemoved: [] } },
    ])
    expect(await db.all(sql`SELECT revision, edited_at, locked FROM uploads`)).toEqual([{ revision: 1, edited_at: null, locked: 0 }, { revision: 1, edited_at: null, locked: 0 }])
  })

  it('keep the tag pairs counted before tag_pairs became a WITHOUT ROWID table', async () => {
    const db = openDatabase({ sqliteFile: ':memory:' }) as SqliteDatabase
    const before = journal.entries.findIndex(entry => entry.tag.endsWith('_tag-pairs-without-rowid'))
    await runMigrations(db, { ...journal, entries: journal.entries.slice(0, before) }, load)
    db.sqlite.exec(`INSERT INTO users (id, username, email, password_hash) VALUES ('u', 'ann', 'ann@example.com', 'x');
      INSERT INTO uploads (id, user_id, original_name, description, upload_type, external_url) VALUES ('a', 'u', 'a.png', 'A', 'image', NULL), ('b', 'u', 'b.png', 'B', 'image', NULL);
      INSERT INTO tags (id, name, slug) VALUES ('t1', 'one', 'one'), ('t2', 'two', 'two'), ('t3', 'three', 'three');
      INSERT INTO upload_tags (upload_id, tag_id, position) VALUES ('a', 't1', 0), ('a', 't2', 1), ('b', 't1', 0), ('b', 't2', 1), ('b', 't3', 2);`)
    const pairs = sql`SELECT first_tag_id, second_tag_id, public_uploads FROM tag_pairs ORDER BY 1, 2`
    const counted = [{ first_tag_id: 't1', second_tag_id: 't2', public_uploads: 2 }, { first_tag_id: 't1', second_tag_id: 't3', public_uploads: 1 }, { first_tag_id: 't2', second_tag_id: 't3', public_uploads: 1 }]
    expect(await db.all(pairs)).toEqual(counted)
    await runMigrations(db, journal, load)
    expect(await db.all(pairs)).toEqual(counted)
    expect((await db.get<{ sql: string }>(sql`SELECT sql FROM sqlite_master WHERE name = 'tag_pairs'`))!.sql).toMatch(/\) WITHOUT ROWID$/)
    // The triggers still count: a link removed and one added.
    db.sqlite.exec(`DELETE FROM upload_tags WHERE upload_id = 'b' AND tag_id = 't3'`)
    expect((await db.all<{ public_uploads: number }>(pairs)).map(pair => pair.public_uploads)).toEqual([2, 0, 0])
    db.sqlite.exec(`INSERT INTO upload_tags (upload_id, tag_id, position) VALUES ('a', 't3', 2), ('b', 't3', 2)`)
    expect((await db.all<{ public_uploads: number }>(pairs)).map(pair => pair.public_uploads)).toEqual([2, 2, 2])
    expect(await db.all(sql`SELECT name FROM sqlite_master WHERE name LIKE 'tag_pairs%' ORDER BY name`)).toEqual([{ name: 'tag_pairs' }])
  })

  it('give the list queries their indexes', async () => {
    const db = openDatabase({ sqliteFile: ':memory:' }) as SqliteDatabase
    await runMigrations(db, journal, load)
    const plan = (query: string) => JSON.stringify(db.sqlite.prepare(`EXPLAIN QUERY PLAN ${query}`).all())
    expect(plan('SELECT id FROM uploads WHERE is_private = 0 ORDER BY created_at DESC LIMIT 10')).toContain('uploads_public_newest_idx')
    expect(plan('SELECT id FROM uploads WHERE is_private = 0 ORDER BY upvotes DESC, downvote_count DESC, created_at DESC LIMIT 6')).toContain('uploads_public_top_idx')
    // Each public list's whole order (LIST_SORTS, ties to the id) read in its index's order,
    // with no sort of tied rows: a deep page walks the index instead of sorting every tie.
    const orders = {
      newest: 'created_at DESC, id DESC',
      top: 'upvotes DESC, downvote_count DESC, created_at DESC, id DESC',
      hot: 'hot_score DESC, created_at DESC, id DESC',
      best: 'best_score DESC, created_at DESC, id DESC',
      divisive: 'divisive_score DESC, created_at DESC, id DESC',
    }
    for (const [name, order] of Object.entries(orders)) {
      const found = plan(`SELECT u.rowid AS rid FROM uploads u WHERE u.is_private = 0 ORDER BY ${order} LIMIT 20 OFFSET 9980`)
      expect(found).toMatch(new RegExp(`USING (COVERING )?INDEX uploads_public_${name}_idx`))
      expect(found).not.toContain('TEMP B-TREE')
    }
    // A user's list in each of its orders (USER_SORTS), to the last tie, from its index with no sort.
    for (const [name, order] of Object.entries(USER_SORTS)) {
      const found = plan(render(sql`SELECT u.rowid AS rid FROM uploads u WHERE u.user_id = 'u' AND u.is_private = 0 ORDER BY ${order} LIMIT 20 OFFSET 100`, 'sqlite').text)
      expect(found).toMatch(new RegExp(`USING (COVERING )?INDEX uploads_user_${name}_idx`))
      expect(found).not.toContain('TEMP B-TREE')
    }
    // The image hashes' indexes leave links out (WHERE … IS NOT NULL); the look-ups of duplicates still use them.
    expect(plan(`SELECT id FROM uploads u WHERE (u.sha256 = 'a' OR u.source_sha256 = 'b') AND u.is_private = 0`)).toMatch(/uploads_sha256_idx.*uploads_source_sha256_idx/)
    for (const band of [0, 1, 2, 3]) expect(plan(`SELECT id FROM uploads WHERE phash_band${band} IN ('0001', '0002')`)).toContain(`uploads_phash_band${band}_idx`)
    // A tag's page in each order (taggedIds), as the list renders it: the links of voted uploads
    // read from the order's index alone and those of unvoted ones from theirs by date, merged by a
    // sort of the page.
    for (const sort of LINK_SORTS) {
      const index = sort === 'new' ? 'newest' : sort
      for (const page of [1, 4]) {
        const { text, values } = render(taggedIds(sql`(SELECT id FROM tags WHERE slug = ${'t'})`, sort, { page, limit: 20 }), 'sqlite')
        const steps = (db.sqlite.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...values) as { detail: string }[]).map(step => step.detail)
        const ranges = steps.filter(step => step.startsWith('SEARCH ut'))
        expect(ranges, sort).toEqual([`SEARCH ut USING COVERING INDEX upload_tags_tag_${index}_idx (tag_id=?)`, 'SEARCH ut USING COVERING INDEX upload_tags_tag_unvoted_idx (tag_id=?)'])
        expect(steps.filter(step => step.includes('TEMP B-TREE')), sort).toEqual(['USE TEMP B-TREE FOR ORDER BY'])
      }
    }
    // A tag's uploads of a period (oneTagSince) read the period's part of both ranges.
    const since = render(sql`SELECT u.id FROM ${oneTagSince('t', '2026-11-01T00:00:00.000Z')}`, 'sqlite')
    const sinceSteps = (db.sqlite.prepare(`EXPLAIN QUERY PLAN ${since.text}`).all(...since.values) as { detail: string }[]).map(step => step.detail)
    expect(sinceSteps.filter(step => step.startsWith('SEARCH ut'))).toEqual([
      'SEARCH ut USING COVERING INDEX upload_tags_tag_newest_idx (tag_id=? AND upload_created_at>?)',
      'SEARCH ut USING COVERING INDEX upload_tags_tag_unvoted_idx (tag_id=? AND upload_created_at>?)',
    ])
    // A search one tag's links answer (linkSearchPage) reads its page from covering indexes
    // only, and sums its total from the tag's kept rows per pair of counts (tag_vote_counts).
    await db.run(sql`INSERT INTO tags (id, name, slug) VALUES ('t1', 'cats', 'cats')`)
    const statements: string[] = []
    const recording = Object.assign(Object.create(db) as SqliteDatabase, {
      all: (query: Query) => {
        statements.push(render(query, 'sqlite').text)
        return db.all(query)
      },
    })
    await linkSearchPage(recording, onOneTag(parseSearch('votes:<=6 cats')!)!, { page: 1, limit: 20 }, 'top')
    const page = statements.find(text => text.includes('tag_vote_counts'))!
    const steps = (db.sqlite.prepare(`EXPLAIN QUERY PLAN ${page}`).all(...Array(page.split('?').length - 1).fill('cats')) as { detail: string }[])
      .map(step => step.detail)
    // The page's two ranges (the voted one in whichever voted index).
    const links = steps.filter(step => step.startsWith('SEARCH ut'))
    expect(links).toHaveLength(2)
    for (const step of links) expect(step).toMatch(/^SEARCH ut USING COVERING INDEX upload_tags_tag_(top|unvoted)_idx \(tag_id=\?\)$/)
    // The total: the rows that pass, and all of the tag's rows (the links without votes are the tag's count less those).
    expect(steps.filter(step => step.startsWith('SEARCH v'))).toEqual(Array(2).fill('SEARCH v USING PRIMARY KEY (tag_id=?)'))
    expect(steps.filter(step => /^SCAN (ut|v|u|upload_tags|tag_vote_counts|tags)\b/.test(step))).toEqual([])
    expect(plan(`SELECT id FROM votes WHERE user_id = 'u' AND upload_id = 'x'`)).toContain('votes_user_upload_unique')
    expect(plan(`SELECT id FROM anonymous_votes WHERE upload_id = 'x' AND ip_hash = 'h'`)).toContain('anonymous_votes_upload_ip_unique')
    expect(plan(`SELECT id FROM anonymous_votes WHERE upload_id = 'x' AND fingerprint = 'f'`)).toContain('anonymous_votes_upload_fingerprint_unique')
  })
})
