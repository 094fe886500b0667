/**
 * The ranking formulas of shared/utils/ranking.ts as SQL, for the generated
 * columns of `uploads` in both schema twins. The text is the same on both
 * engines except for `created_at` as Unix seconds: SQLite's unixepoch(), and
 * on PostgreSQL an immutable parse of the ISO text (a generated column may
 * only use immutable functions, which a text-to-timestamp cast is not).
 */
const U = 'CAST(upvotes AS double precision)'
const N = '(upvotes + downvote_count)'
const P = `(${U} / ${N})`
const Z = '1.96'
const Z2 = '3.8416'

/** sign(u−d)·log10(max(|u−d|,1)) + (epoch − 1700000000)/45000 */
export const hotScoreSql = (epochSeconds: string) => `sign(CAST(upvotes - downvote_count AS double precision))
  * log10(CAST(CASE WHEN abs(upvotes - downvote_count) > 1 THEN abs(upvotes - downvote_count) ELSE 1 END AS double precision))
  + ${hotAgeSql(epochSeconds)}`

/**
 * The hot score's part that grows with the date: the whole score of an
 * upload without votes (its first term is 0 × 0), the same value to the bit.
 */
export const hotAgeSql = (epochSeconds: string) => `(${epochSeconds} - 1700000000) / 45000`

/** Wilson lower bound of u/(u+d) at z = 1.96; 0 with no votes. */
export const bestScoreSql = `CASE WHEN ${N} = 0 THEN 0 ELSE
  (${P} + ${Z2} / (2 * ${N}) - ${Z} * sqrt((${P} * (1 - ${P}) + ${Z2} / (4 * ${N})) / ${N})) / (1 + ${Z2} / ${N}) END`

/** (u+d)^(min(u,d)/max(u,d)); 0 when u or d is 0. */
export const divisiveScoreSql = `CASE WHEN upvotes = 0 OR downvote_count = 0 THEN 0 ELSE
  power(CAST(${N} AS double precision),
    CAST(CASE WHEN upvotes < downvote_count THEN upvotes ELSE downvote_count END AS double precision)
    / CASE WHEN upvotes < downvote_count THEN downvote_count ELSE upvotes END) END`

/**
 * A date column (ISO 8601 UTC text) as Unix seconds with milliseconds: whole seconds
 * and the milliseconds as one integer, divided once, the value unixepoch(x, 'subsec')
 * gives, in functions every SQLite reads ('subsec' needs 3.42; an operator's sqlite3
 * may be older, and would compute NULL for the column and misread its index).
 */
export const sqliteEpochOf = (column: string) => `((CAST(strftime('%s', ${column}) AS INTEGER) * 1000 + CAST(substr(${column}, 21, 3) AS INTEGER)) / 1000.0)`
export const postgresEpochOf = (column: string) => `CAST(extract(epoch FROM make_timestamp(CAST(substr(${column}, 1, 4) AS integer),
  CAST(substr(${column}, 6, 2) AS integer), CAST(substr(${column}, 9, 2) AS integer), CAST(substr(${column}, 12, 2) AS integer),
  CAST(substr(${column}, 15, 2) AS integer), CAST(substr(${column}, 18, 6) AS double precision))) AS double precision)`

/** `created_at` as Unix seconds, as the generated columns of `uploads` read it. */
export const SQLITE_EPOCH = sqliteEpochOf('created_at')
export const POSTGRES_EPOCH = postgresEpochOf('created_at')
