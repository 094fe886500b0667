/**
 * Every kept count and kept copy in one place: what it holds, the triggers (or the
 * service) that keep it on each engine, its place in PostgreSQL's lock order, the
 * query that finds where it has drifted from a recount, and the statements that set
 * it from one. The seed fills counts with `repair`, the tests compare with `drift`,
 * and `npm run admin -- recount [--check]` runs either on a live site.
 * docs/database.md ("Kept counts") explains why each exists and how to add one; the
 * triggers' current text is in drizzle/sqlite-triggers.sql and
 * drizzle/postgres-triggers.sql (`npm run db:triggers`).
 */
import type { Executor } from './port'
import { dialects, sql, type Query } from './sql'

export interface KeptCount {
  /** `table.column` (or columns) that holds the kept value. */
  name: string
  /** What the value equals, in words. */
  holds: string
  /** What keeps it on each engine: trigger names, or the service function. */
  keptBy: { sqlite: string[], postgres: string[] }
  /**
   * Its place among the rows an upload's change locks on PostgreSQL (lower first):
   * 1 the upload, 2 its day, 3 its month, 4 its owner (then its description's words,
   * at COMMIT after the owner, in key order), 5 its tags in slug order,
   * 6 its tag pairs and kept triples, then its tags' vote counts, each in key order; votes lock the voter's user row (0) before the
   * upload; a report's change locks the upload before its group (8). SQLite has one
   * writer and needs no order.
   */
  lockOrder: number
  /** Rows whose kept value differs from a recount: `key`, `kept`, `actual` (text). */
  drift: Query
  /** Sets every kept value from a recount, in the caller's transaction. */
  repair: (tx: Executor) => Promise<void>
}

/** Trusted SQL text (no user input) as a query. */
const raw = (text: string): Query => sql`${sql.raw(text)}`

/** Public uploads per key of `grouped` (a SELECT of `key`, `n`), compared with `table`'s kept column; keys missing there count as 0. */
function groupDrift(table: string, keyColumn: string, keptColumn: string, grouped: string): Query {
  return raw(`SELECT drift.key, drift.kept, drift.actual FROM (
      SELECT CAST(k.${keyColumn} AS text) AS key, k.${keptColumn} AS kept, coalesce(c.n, 0) AS actual
        FROM ${table} k LEFT JOIN (${grouped}) c ON c.key = k.${keyColumn}
      UNION ALL
      SELECT CAST(c.key AS text), 0, c.n FROM (${grouped}) c
        WHERE NOT EXISTS (SELECT 1 FROM ${table} k WHERE k.${keyColumn} = c.key)
    ) AS drift WHERE drift.kept <> drift.actual ORDER BY drift.key`)
}

const PUBLIC_PER_DAY = `SELECT substr(created_at, 1, 10) AS key, count(*) AS n FROM uploads WHERE is_private = 0 GROUP BY substr(created_at, 1, 10)`
const PUBLIC_PER_MONTH = `SELECT substr(created_at, 1, 7) AS key, count(*) AS n FROM uploads WHERE is_private = 0 GROUP BY substr(created_at, 1, 7)`
const PUBLIC_PER_OWNER = `SELECT user_id AS key, count(*) AS n FROM uploads WHERE is_private = 0 GROUP BY user_id`
const PUBLIC_PER_TAG = `SELECT ut.tag_id AS key, count(*) AS n FROM upload_tags ut
  JOIN uploads u ON u.id = ut.upload_id AND u.is_private = 0 GROUP BY ut.tag_id`
const PUBLIC_PER_PAIR = `SELECT a.tag_id || ' ' || b.tag_id AS key, a.tag_id AS first_tag_id, b.tag_id AS second_tag_id, count(*) AS n
  FROM upload_tags a JOIN upload_tags b ON b.upload_id = a.upload_id AND b.tag_id > a.tag_id
  JOIN uploads u ON u.id = a.upload_id AND u.is_private = 0 GROUP BY a.tag_id, b.tag_id`
/** Public uploads carrying the three tags of the kept triple `triple` (a row of tag_triples, by its alias or name). */
const publicWithTriple = (triple: string) => `(SELECT count(*) FROM upload_tags a
  JOIN upload_tags b ON b.upload_id = a.upload_id AND b.tag_id = ${triple}.second_tag_id
  JOIN upload_tags c ON c.upload_id = a.upload_id AND c.tag_id = ${triple}.third_tag_id
  JOIN uploads u ON u.id = a.upload_id AND u.is_private = 0 WHERE a.tag_id = ${triple}.first_tag_id)`
/** A tag's public links with votes per pair of counts, from the links' copies (what tag_vote_counts keeps). */
const VOTED_LINKS_PER_COUNTS = `SELECT tag_id, upload_upvotes AS upvotes, upload_downvote_count AS downvotes, count(*) AS n FROM upload_tags
  WHERE upload_is_private = 0 AND upload_upvotes + upload_downvote_count > 0 GROUP BY tag_id, upload_upvotes, upload_downvote_count`
/**
 * Public uploads per word of their descriptions, each upload counting a word once: the
 * words of SQLite's tokenizer table (search_word_tokens, the full-text index's own
 * tokenizer) and the lexemes of PostgreSQL's search_vector.
 */
const PUBLIC_PER_WORD = {
  sqlite: `SELECT t.token AS key, count(DISTINCT u.rowid) AS n FROM uploads u JOIN search_word_tokens t ON t.input = u.description
    WHERE u.is_private = 0 GROUP BY t.token`,
  postgres: `SELECT w.word AS key, count(*) AS n FROM uploads u CROSS JOIN LATERAL unnest(tsvector_to_array(u.search_vector)) AS w(word)
    WHERE u.is_private = 0 GROUP BY w.word`,
}
/** An image's place in the duel pool as its upload says: 1 when public. */
const IN_POOL = 'CASE WHEN u.is_private = 0 THEN 1 ELSE 0 END'
const VOTES_PER_SHARD = `SELECT user_id || ' ' || substr(upload_id, 1, 1) AS key, user_id, substr(upload_id, 1, 1) AS shard, count(*) AS n
  FROM votes GROUP BY user_id, substr(upload_id, 1, 1)`

/** Reports per target (upload, and comment or '') and status: how many, the gravest reason's rank, the first one's time. */
const REPORTS_PER_GROUP = `SELECT upload_id, comment_id, status, count(*) AS n, min(CASE reason WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1
  WHEN 'harassment' THEN 2 WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END) AS rank, min(created_at) AS first_at
  FROM reports GROUP BY upload_id, comment_id, status`

/** Counted votes of one kind on `uploads.id`: accounts not shadow-banned, plus anonymous votes. */
const countedVotes = (userVote: 'fucks' | 'does_not_fuck', anonymousVote: 'upvote' | 'downvote') => `
  ((SELECT count(*) FROM votes v JOIN users us ON us.id = v.user_id
    WHERE v.upload_id = uploads.id AND v.vote = '${userVote}' AND us.shadow_banned = 0)
  + (SELECT count(*) FROM anonymous_votes a WHERE a.upload_id = uploads.id AND a.vote = '${anonymousVote}'))`

/** Favourites of `uploads.id` (favourites_upload_idx). */
const FAVOURITES_OF_UPLOAD = `(SELECT count(*) FROM favourites f WHERE f.upload_id = uploads.id)`

/** Comments of `uploads.id` anyone may see: not deleted, author not shadow-banned (comments_upload_top_idx). */
const COMMENTS_OF_UPLOAD = `(SELECT count(*) FROM comments c WHERE c.upload_id = uploads.id AND c.deleted = 0
  AND NOT EXISTS (SELECT 1 FROM users us WHERE us.id = c.author_id AND us.shadow_banned = 1))`

/** An upload's tag ids in position order, comma-separated, as uploads.tag_ids keeps them. */
const orderedTagIds = dialects({
  sqlite: `coalesce((SELECT group_concat(tag_id, ',') FROM (SELECT tag_id FROM upload_tags WHERE upload_id = uploads.id ORDER BY position)), '')`,
  postgres: `coalesce((SELECT string_agg(tag_id, ',' ORDER BY position) FROM upload_tags WHERE upload_id = uploads.id), '')`,
})

/** Whether a link's copies of its upload's counts and scores differ from the upload's (`u`). */
const COUNT_COPIES_DIFFER = (link: string) => `(${link}.upload_upvotes <> u.upvotes OR ${link}.upload_downvote_count <> u.downvote_count
  OR ${link}.upload_hot_score <> u.hot_score OR ${link}.upload_best_score <> u.best_score OR ${link}.upload_divisive_score <> u.divisive_score)`

/** A query written apart for each engine. */
const perDialect = (write: (dialect: 'sqlite' | 'postgres') => Query): Query => sql`${dialects({ sqlite: write('sqlite'), postgres: write('postgres') })}`

/** Runs statements one after another in the caller's transaction. */
const statements = (...queries: Query[]) => async (tx: Executor) => {
  for (const query of queries) await tx.run(query)
}

export const KEPT_COUNTS: readonly KeptCount[] = [
  {
    name: 'uploads.upvotes, uploads.downvote_count',
    holds: 'the upload\'s counted votes of each kind: votes of accounts that are not shadow-banned, plus anonymous votes',
    keptBy: { sqlite: ['services/votes.ts (castVote, withdrawVote, anonymous votes, recountUploads)'], postgres: ['services/votes.ts (the same)'] },
    lockOrder: 1,
    drift: raw(`SELECT id AS key, CAST(upvotes AS text) || '/' || CAST(downvote_count AS text) AS kept,
        CAST(${countedVotes('fucks', 'upvote')} AS text) || '/' || CAST(${countedVotes('does_not_fuck', 'downvote')} AS text) AS actual
      FROM uploads WHERE upvotes <> ${countedVotes('fucks', 'upvote')} OR downvote_count <> ${countedVotes('does_not_fuck', 'downvote')} ORDER BY id`),
    repair: statements(raw(`UPDATE uploads SET upvotes = ${countedVotes('fucks', 'upvote')}, downvote_count = ${countedVotes('does_not_fuck', 'downvote')}
      WHERE upvotes <> ${countedVotes('fucks', 'upvote')} OR downvote_count <> ${countedVotes('does_not_fuck', 'downvote')}`)),
  },
  {
    name: 'upload_days.public_uploads',
    holds: 'public uploads created on that UTC day',
    keptBy: { sqlite: ['uploads_day_count_insert', 'uploads_day_count_update', 'uploads_day_count_delete'], postgres: ['uploads_counts (uploads_counts_insert, _update, _delete)'] },
    lockOrder: 2,
    drift: groupDrift('upload_days', 'day', 'public_uploads', PUBLIC_PER_DAY),
    repair: statements(
      raw(`INSERT INTO upload_days (day, public_uploads) SELECT c.key, c.n FROM (${PUBLIC_PER_DAY}) c WHERE true
        ON CONFLICT (day) DO UPDATE SET public_uploads = excluded.public_uploads`),
      raw(`UPDATE upload_days SET public_uploads = 0 WHERE public_uploads <> 0 AND day NOT IN (SELECT c.key FROM (${PUBLIC_PER_DAY}) c)`),
    ),
  },
  {
    name: 'upload_months.public_uploads',
    holds: 'public uploads created in that UTC month',
    keptBy: { sqlite: ['uploads_month_count_insert', 'uploads_month_count_update', 'uploads_month_count_delete'], postgres: ['uploads_counts (uploads_counts_insert, _update, _delete)'] },
    lockOrder: 3,
    drift: groupDrift('upload_months', 'month', 'public_uploads', PUBLIC_PER_MONTH),
    repair: statements(
      raw(`INSERT INTO upload_months (month, public_uploads) SELECT c.key, c.n FROM (${PUBLIC_PER_MONTH}) c WHERE true
        ON CONFLICT (month) DO UPDATE SET public_uploads = excluded.public_uploads`),
      raw(`UPDATE upload_months SET public_uploads = 0 WHERE public_uploads <> 0 AND month NOT IN (SELECT c.key FROM (${PUBLIC_PER_MONTH}) c)`),
    ),
  },
  {
    name: 'users.public_uploads',
    holds: 'the account\'s public uploads',
    keptBy: { sqlite: ['uploads_user_public_count_insert', 'uploads_user_public_count_update', 'uploads_user_public_count_delete'], postgres: ['uploads_counts (uploads_counts_insert, _update, _delete)'] },
    lockOrder: 4,
    drift: groupDrift('users', 'id', 'public_uploads', PUBLIC_PER_OWNER),
    repair: statements(
      raw(`UPDATE users SET public_uploads = c.n FROM (${PUBLIC_PER_OWNER}) c WHERE users.id = c.key AND users.public_uploads <> c.n`),
      raw(`UPDATE users SET public_uploads = 0 WHERE public_uploads <> 0 AND id NOT IN (SELECT c.key FROM (${PUBLIC_PER_OWNER}) c)`),
    ),
  },
  {
    name: 'tags.public_uploads',
    holds: 'public uploads carrying the tag',
    keptBy: {
      sqlite: ['upload_tags_public_count_insert', 'upload_tags_public_count_delete', 'upload_tags_public_count_move', 'uploads_public_tag_count_privacy', 'uploads_public_tag_count_delete'],
      postgres: ['upload_tags_public_count', 'upload_tags_public_count_move', 'uploads_public_tag_count_privacy', 'uploads_public_tag_count_delete'],
    },
    lockOrder: 5,
    drift: groupDrift('tags', 'id', 'public_uploads', PUBLIC_PER_TAG),
    repair: statements(
      raw(`UPDATE tags SET public_uploads = c.n FROM (${PUBLIC_PER_TAG}) c WHERE tags.id = c.key AND tags.public_uploads <> c.n`),
      raw(`UPDATE tags SET public_uploads = 0 WHERE public_uploads <> 0 AND id NOT IN (SELECT c.key FROM (${PUBLIC_PER_TAG}) c)`),
    ),
  },
  {
    name: 'tag_pairs.public_uploads',
    holds: 'public uploads carrying both tags of the pair (first_tag_id < second_tag_id)',
    keptBy: {
      sqlite: ['upload_tags_tag_pairs_insert', 'upload_tags_tag_pairs_delete', 'upload_tags_tag_pairs_move', 'uploads_tag_pairs_privacy', 'uploads_tag_pairs_delete'],
      postgres: ['upload_tags_tag_pairs (_insert, _delete)', 'upload_tags_tag_pairs_move', 'uploads_tag_pairs (_privacy, _delete)'],
    },
    lockOrder: 6,
    drift: raw(`SELECT drift.key, drift.kept, drift.actual FROM (
        SELECT p.first_tag_id || ' ' || p.second_tag_id AS key, p.public_uploads AS kept, coalesce(c.n, 0) AS actual
          FROM tag_pairs p LEFT JOIN (${PUBLIC_PER_PAIR}) c ON c.first_tag_id = p.first_tag_id AND c.second_tag_id = p.second_tag_id
        UNION ALL
        SELECT c.key, 0, c.n FROM (${PUBLIC_PER_PAIR}) c
          WHERE NOT EXISTS (SELECT 1 FROM tag_pairs p WHERE p.first_tag_id = c.first_tag_id AND p.second_tag_id = c.second_tag_id)
      ) AS drift WHERE drift.kept <> drift.actual ORDER BY drift.key`),
    repair: statements(
      raw(`INSERT INTO tag_pairs (first_tag_id, second_tag_id, public_uploads) SELECT c.first_tag_id, c.second_tag_id, c.n FROM (${PUBLIC_PER_PAIR}) c WHERE true
        ON CONFLICT (first_tag_id, second_tag_id) DO UPDATE SET public_uploads = excluded.public_uploads`),
      raw(`UPDATE tag_pairs SET public_uploads = 0 WHERE public_uploads <> 0 AND NOT EXISTS (SELECT 1 FROM (${PUBLIC_PER_PAIR}) c
        WHERE c.first_tag_id = tag_pairs.first_tag_id AND c.second_tag_id = tag_pairs.second_tag_id)`),
    ),
  },
  {
    name: 'tag_triples.public_uploads',
    holds: 'public uploads carrying all three tags of a triple a search has asked for (first < second < third); rows exist only for those',
    keptBy: {
      sqlite: ['upload_tags_tag_triples_insert', 'upload_tags_tag_triples_delete', 'upload_tags_tag_triples_move', 'uploads_tag_triples_privacy', 'uploads_tag_triples_delete', 'services/lists/triples.ts (keepTriple)'],
      postgres: ['upload_tags_tag_triples (_insert, _delete)', 'upload_tags_tag_triples_move', 'uploads_tag_triples (_privacy, _delete)', 'services/lists/triples.ts (keepTriple)'],
    },
    lockOrder: 6,
    drift: raw(`SELECT drift.key, drift.kept, drift.actual FROM (
        SELECT k.first_tag_id || ' ' || k.second_tag_id || ' ' || k.third_tag_id AS key, k.public_uploads AS kept, ${publicWithTriple('k')} AS actual
          FROM tag_triples k
      ) AS drift WHERE drift.kept <> drift.actual ORDER BY drift.key`),
    repair: statements(raw(`UPDATE tag_triples SET public_uploads = ${publicWithTriple('tag_triples')}`)),
  },
  {
    name: 'search_words.public_uploads',
    holds: 'public uploads whose description has the word (as the full-text index splits and folds it), each upload once',
    keptBy: {
      sqlite: ['uploads_search_words_insert', 'uploads_search_words_update', 'uploads_search_words_delete'],
      postgres: ['uploads_search_words (uploads_search_words_insert, _update, _delete)'],
    },
    lockOrder: 4,
    drift: perDialect(dialect => groupDrift('search_words', 'word', 'public_uploads', PUBLIC_PER_WORD[dialect])),
    repair: statements(
      perDialect(dialect => raw(`INSERT INTO search_words (word, public_uploads) SELECT c.key, c.n FROM (${PUBLIC_PER_WORD[dialect]}) c WHERE true
        ON CONFLICT (word) DO UPDATE SET public_uploads = excluded.public_uploads`)),
      perDialect(dialect => raw(`UPDATE search_words SET public_uploads = 0 WHERE public_uploads <> 0
        AND word NOT IN (SELECT c.key FROM (${PUBLIC_PER_WORD[dialect]}) c)`)),
    ),
  },
  {
    name: 'user_vote_counts.votes',
    holds: 'the account\'s vote rows, in shards by the first character of the upload id',
    keptBy: { sqlite: ['votes_user_count_insert', 'votes_user_count_delete'], postgres: ['votes_user_count'] },
    lockOrder: 7,
    drift: raw(`SELECT drift.key, drift.kept, drift.actual FROM (
        SELECT k.user_id || ' ' || k.shard AS key, k.votes AS kept, coalesce(c.n, 0) AS actual
          FROM user_vote_counts k LEFT JOIN (${VOTES_PER_SHARD}) c ON c.user_id = k.user_id AND c.shard = k.shard
        UNION ALL
        SELECT c.key, 0, c.n FROM (${VOTES_PER_SHARD}) c
          WHERE NOT EXISTS (SELECT 1 FROM user_vote_counts k WHERE k.user_id = c.user_id AND k.shard = c.shard)
      ) AS drift WHERE drift.kept <> drift.actual ORDER BY drift.key`),
    repair: statements(
      raw(`INSERT INTO user_vote_counts (user_id, shard, votes) SELECT c.user_id, c.shard, c.n FROM (${VOTES_PER_SHARD}) c WHERE true
        ON CONFLICT (user_id, shard) DO UPDATE SET votes = excluded.votes`),
      raw(`UPDATE user_vote_counts SET votes = 0 WHERE votes <> 0 AND NOT EXISTS (SELECT 1 FROM votes v
        WHERE v.user_id = user_vote_counts.user_id AND substr(v.upload_id, 1, 1) = user_vote_counts.shard)`),
    ),
  },
  {
    name: 'uploads.favourites',
    holds: 'the accounts that favourited the upload (its rows in favourites)',
    keptBy: { sqlite: ['favourites_count_insert', 'favourites_count_delete'], postgres: ['favourites_count'] },
    lockOrder: 1,
    drift: raw(`SELECT id AS key, CAST(favourites AS text) AS kept, CAST(${FAVOURITES_OF_UPLOAD} AS text) AS actual
      FROM uploads WHERE favourites <> ${FAVOURITES_OF_UPLOAD} ORDER BY id`),
    repair: statements(raw(`UPDATE uploads SET favourites = ${FAVOURITES_OF_UPLOAD} WHERE favourites <> ${FAVOURITES_OF_UPLOAD}`)),
  },
  {
    name: 'uploads.comments',
    holds: 'the upload\'s comments anyone may see: not deleted, and their author (if any) not shadow-banned',
    keptBy: {
      sqlite: ['comments_count_insert', 'comments_count_update', 'comments_count_delete', 'users_comments_count_shadow_ban'],
      postgres: ['comments_count', 'users_comments_count_shadow_ban'],
    },
    lockOrder: 1,
    drift: raw(`SELECT id AS key, CAST(comments AS text) AS kept, CAST(${COMMENTS_OF_UPLOAD} AS text) AS actual
      FROM uploads WHERE comments <> ${COMMENTS_OF_UPLOAD} ORDER BY id`),
    repair: statements(raw(`UPDATE uploads SET comments = ${COMMENTS_OF_UPLOAD} WHERE comments <> ${COMMENTS_OF_UPLOAD}`)),
  },
  {
    name: 'uploads.tag_ids',
    holds: 'a copy: the upload\'s tag ids in position order, comma-separated',
    keptBy: { sqlite: ['upload_tags_tag_ids_insert', 'upload_tags_tag_ids_update', 'upload_tags_tag_ids_delete'], postgres: ['upload_tags_tag_ids'] },
    lockOrder: 1,
    drift: sql`SELECT id AS key, tag_ids AS kept, ${orderedTagIds} AS actual FROM uploads WHERE tag_ids <> ${orderedTagIds} ORDER BY id`,
    repair: statements(sql`UPDATE uploads SET tag_ids = ${orderedTagIds} WHERE tag_ids <> ${orderedTagIds}`),
  },
  {
    name: 'upload_tags.upload_*',
    holds: 'copies of the upload\'s created_at and is_private on each of its links, and of its counts and scores unless the upload waits in rank_copies_pending, so a tag\'s rankings are one index range',
    keptBy: {
      sqlite: ['upload_tags_upload_order_insert', 'uploads_tag_order_update', 'uploads_rank_copies_pending', 'services/rank-copies.ts (flushRankCopies)'],
      postgres: ['upload_tags_upload_order', 'uploads_tag_order', 'uploads_rank_copies_pending', 'services/rank-copies.ts (flushRankCopies)'],
    },
    lockOrder: 5,
    drift: raw(`SELECT ut.upload_id || ' ' || ut.tag_id AS key, 'copy' AS kept, 'differs' AS actual
      FROM upload_tags ut JOIN uploads u ON u.id = ut.upload_id
      WHERE ut.upload_created_at <> u.created_at OR ut.upload_is_private <> u.is_private OR (${COUNT_COPIES_DIFFER('ut')}
        AND NOT EXISTS (SELECT 1 FROM rank_copies_pending r WHERE r.upload_id = ut.upload_id))
      ORDER BY ut.upload_id, ut.tag_id`),
    repair: statements(
      raw(`DELETE FROM rank_copies_pending`),
      raw(`UPDATE upload_tags SET upload_created_at = u.created_at, upload_is_private = u.is_private,
        upload_upvotes = u.upvotes, upload_downvote_count = u.downvote_count, upload_hot_score = u.hot_score,
        upload_best_score = u.best_score, upload_divisive_score = u.divisive_score
      FROM uploads u WHERE u.id = upload_tags.upload_id AND (upload_tags.upload_created_at <> u.created_at
        OR upload_tags.upload_is_private <> u.is_private OR ${COUNT_COPIES_DIFFER('upload_tags')})`),
    ),
  },
  {
    name: 'tag_vote_counts.links',
    holds: 'a tag\'s public links with votes per pair of counts their copies hold (after the copies above), so one tag\'s count tests are summed over its pairs',
    keptBy: {
      sqlite: ['upload_tags_vote_counts_insert', 'upload_tags_vote_counts_update', 'upload_tags_vote_counts_delete'],
      postgres: ['upload_tags_vote_counts (_insert, _update, _delete)'],
    },
    lockOrder: 6,
    drift: raw(`SELECT drift.key, drift.kept, drift.actual FROM (
        SELECT v.tag_id || ' ' || v.upvotes || ' ' || v.downvotes AS key, v.links AS kept, coalesce(c.n, 0) AS actual
          FROM tag_vote_counts v LEFT JOIN (${VOTED_LINKS_PER_COUNTS}) c
            ON c.tag_id = v.tag_id AND c.upvotes = v.upvotes AND c.downvotes = v.downvotes
        UNION ALL
        SELECT c.tag_id || ' ' || c.upvotes || ' ' || c.downvotes, 0, c.n FROM (${VOTED_LINKS_PER_COUNTS}) c
          WHERE NOT EXISTS (SELECT 1 FROM tag_vote_counts v WHERE v.tag_id = c.tag_id AND v.upvotes = c.upvotes AND v.downvotes = c.downvotes)
      ) AS drift WHERE drift.kept <> drift.actual ORDER BY drift.key`),
    repair: statements(
      raw(`DELETE FROM tag_vote_counts`),
      raw(`INSERT INTO tag_vote_counts (tag_id, upvotes, downvotes, links) SELECT c.tag_id, c.upvotes, c.downvotes, c.n FROM (${VOTED_LINKS_PER_COUNTS}) c ORDER BY 1, 2, 3`),
    ),
  },
  {
    name: 'duel_standings.in_pool',
    holds: 'a copy: 1 while the image is public, so the duel pool and leaderboard are ranges of the standings\' own indexes; one standing per image upload',
    keptBy: {
      sqlite: ['uploads_duel_standing_insert', 'uploads_duel_standing_privacy'],
      postgres: ['uploads_duel_standing_insert', 'uploads_duel_standing_privacy'],
    },
    lockOrder: 1,
    drift: raw(`SELECT u.id AS key, coalesce(CAST(s.in_pool AS text), 'none') AS kept, CAST(${IN_POOL} AS text) AS actual
      FROM uploads u LEFT JOIN duel_standings s ON s.upload_id = u.id
      WHERE u.upload_type = 'image' AND (s.upload_id IS NULL OR s.in_pool <> ${IN_POOL}) ORDER BY u.id`),
    repair: statements(
      raw(`INSERT INTO duel_standings (upload_id, in_pool) SELECT u.id, ${IN_POOL} FROM uploads u
        WHERE u.upload_type = 'image' AND NOT EXISTS (SELECT 1 FROM duel_standings s WHERE s.upload_id = u.id)`),
      raw(`UPDATE duel_standings SET in_pool = (SELECT ${IN_POOL} FROM uploads u WHERE u.id = duel_standings.upload_id)
        WHERE in_pool <> (SELECT ${IN_POOL} FROM uploads u WHERE u.id = duel_standings.upload_id)`),
    ),
  },
  {
    name: 'report_groups.*',
    holds: 'per reported upload or comment and report status: how many reports, the rank of the gravest reason (0 minor_safety … 5 other) and when the first came in, so the admin queue pages one index',
    keptBy: { sqlite: ['reports_group_insert', 'reports_group_update', 'reports_group_delete'], postgres: ['reports_group', 'reports_group_move'] },
    lockOrder: 8,
    drift: raw(`SELECT drift.key, drift.kept, drift.actual FROM (
        SELECT g.upload_id || ' ' || g.comment_id || ' ' || g.status AS key,
          CAST(g.report_count AS text) || '/' || CAST(g.reason_rank AS text) || '/' || g.first_at AS kept,
          coalesce(CAST(c.n AS text) || '/' || CAST(c.rank AS text) || '/' || c.first_at, 'none') AS actual
          FROM report_groups g LEFT JOIN (${REPORTS_PER_GROUP}) c ON c.upload_id = g.upload_id AND c.comment_id = g.comment_id AND c.status = g.status
        UNION ALL
        SELECT c.upload_id || ' ' || c.comment_id || ' ' || c.status, 'none', CAST(c.n AS text) || '/' || CAST(c.rank AS text) || '/' || c.first_at FROM (${REPORTS_PER_GROUP}) c
          WHERE NOT EXISTS (SELECT 1 FROM report_groups g WHERE g.upload_id = c.upload_id AND g.comment_id = c.comment_id AND g.status = c.status)
      ) AS drift WHERE drift.kept <> drift.actual ORDER BY drift.key`),
    repair: statements(
      raw(`DELETE FROM report_groups`),
      raw(`INSERT INTO report_groups (upload_id, comment_id, status, reason_rank, report_count, first_at)
        SELECT c.upload_id, c.comment_id, c.status, c.rank, c.n, c.first_at FROM (${REPORTS_PER_GROUP}) c`),
    ),
  },
]

export interface Drift { name: string, rows: { key: string, kept: string, actual: string }[] }

/** Every kept value that differs from its recount (at most `limit` rows per count); empty when all hold. */
export async function findDrift(db: Executor, limit = 20): Promise<Drift[]> {
  const found: Drift[] = []
  for (const count of KEPT_COUNTS) {
    const rows = (await db.all<{ key: string, kept: unknown, actual: unknown }>(count.drift))
      .slice(0, limit).map(row => ({ key: String(row.key), kept: String(row.kept), actual: String(row.actual) }))
    if (rows.length > 0) found.push({ name: count.name, rows })
  }
  return found
}

/** Sets every kept value from its recount, each count in a transaction of its own. */
export async function repairKeptCounts(db: Executor, only?: (count: KeptCount) => boolean): Promise<void> {
  for (const count of KEPT_COUNTS) {
    if (only && !only(count)) continue
    await db.transaction(tx => count.repair(tx))
  }
}
