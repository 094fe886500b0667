/** A period's ranking (top of the week, best of the month …): the page merged from the period's days. */
import type { Executor } from '../../database/port'
import { dialects, sql, type Query } from '../../database/sql'
import { callerConditions, type ListView } from './filters'
import { offset, pageWindow, type Paging } from './paging'
import { ROW_KEY } from './pieces'
import { LIST_SORTS, ORDER_COLUMNS } from './sorts'

/**
 * Deepest row (offset + limit) a period's page is merged from day heads for;
 * deeper pages walk the whole period instead (each day would give that many).
 */
export const PERIOD_MERGE_MAX = 200

/**
 * On PostgreSQL, a period's page reads `offset + limit` rows from each of its
 * days up to this many rows in all, and bounds the reads above it (periodPage).
 * An index row costs it about 0.2 µs, starting a read on a day several, so
 * reading more rows in fewer starts wins on small reads: side by side on the
 * bench data, bounded reads took a week's first page from 1.26 to 1.46 ms
 * (160 rows read plainly) but page 2 of a month from 2.9 to 2.0 ms (1,280)
 * and page 3 of a week from 2.5 to 2.2 ms (480); a month's first page (640)
 * costs the same either way.
 */
const PERIOD_BOUND_ROWS = 300

const DAY_MS = 24 * 3600 * 1000

/** How many elements PostgreSQL's planner expects an array parameter to unnest to. */
const ARRAY_PARAM_ROWS = 10

/** Day lists made by periodDays, by first and last day: a few periods of today's. */
const periodDaysKept = new Map<string, readonly string[]>()

/**
 * The UTC days (YYYY-MM-DD) from the one holding `since` to tomorrow (an
 * instance's clock may run ahead). Kept once made: a year's 367 dates took
 * 40% of a year's uncached page on SQLite in a CPU profile.
 */
export function periodDays(since: string, now = Date.now()): readonly string[] {
  const last = new Date(now + DAY_MS).toISOString().slice(0, 10)
  const key = `${since.slice(0, 10)} ${last}`
  const kept = periodDaysKept.get(key)
  if (kept) return kept
  const days: string[] = []
  for (let day = Date.parse(`${since.slice(0, 10)}T00:00:00.000Z`); ; day += DAY_MS) {
    const text = new Date(day).toISOString().slice(0, 10)
    days.push(text)
    if (text >= last) break
  }
  if (periodDaysKept.size >= 16) periodDaysKept.clear()
  periodDaysKept.set(key, Object.freeze(days))
  return days
}

type HeadRow = Record<string, string | number>

/** Rows of a sort's whole index a long period's page first looks among (see periodPage). */
const PERIOD_WALK_ROWS = 1000

/** Periods of more days than this look among the first rows of the whole ranking first. */
const PERIOD_WALK_DAYS = 32

/**
 * A year has 367 days to read (periodPage); but its uploads are usually many
 * among the best of all, so a period of more than PERIOD_WALK_DAYS days is
 * first looked for among the first PERIOD_WALK_ROWS rows of the whole ranking
 * (its index): when offset + limit of them fall within the period, the page
 * of them is the period's page exactly, and the days are not read. The row
 * keys of that page, to be read with its entries in one statement (a page of
 * fewer than `limit` rows says the walk fell short), or null for a shorter
 * period. On PostgreSQL a year's ranking was three round trips (the walk, the
 * entries, their tags) and is two.
 */
export function periodWalk(since: string, view: ListView, paging: Paging): Query | null {
  if (periodDays(since).length <= PERIOD_WALK_DAYS) return null
  const order = LIST_SORTS[view.sort]
  const selected = sql.raw(ORDER_COLUMNS[view.sort].map(column => `u.${column}`).join(', '))
  return sql`SELECT u.rid FROM (SELECT u.${ROW_KEY} AS rid, ${selected} FROM uploads u
      WHERE u.is_private = 0${callerConditions(view)} ORDER BY ${order} LIMIT ${sql.raw(String(PERIOD_WALK_ROWS))}) u
      WHERE u.created_at >= ${since} ORDER BY ${order} ${pageWindow(paging)}`
}

/**
 * The row keys of a page of a period's ranking: the first offset + limit
 * rows of the period's days, read in order from that sort's day index
 * (uploads_public_day_*_idx), merged and cut to the page. Each day read gives
 * as many rows as the page could need from it, so the merge is exact; the
 * cost follows the days in the period, never the uploads they hold or how
 * low the period's uploads rank among all the others (a long period tries
 * periodWalk first).
 */
export async function periodPage(db: Executor, since: string, view: ListView, paging: Paging): Promise<Query> {
  const order = LIST_SORTS[view.sort]
  const columns = ORDER_COLUMNS[view.sort]
  const need = offset(paging) + paging.limit
  const selected = sql.raw(columns.map(column => `u.${column}`).join(', '))
  /** The sort's columns of row `alias` as one row value: a greater one comes first (every column descending). */
  const tuple = (alias: string) => sql.raw(`(${columns.map(column => `${alias}.${column}`).join(', ')})`)
  const page = (rows: HeadRow[]) => rowKeys(rows.slice(offset(paging), need).map(row => row.rid!))
  const days = periodDays(since)
  const head = (day: Query | string, rows: number, inPeriod: Query) => sql`SELECT u.${ROW_KEY} AS rid, ${selected} FROM uploads u
      WHERE u.is_private = 0 AND u.created_day = ${day}${inPeriod}${callerConditions(view)}
      ORDER BY ${order} LIMIT ${sql.raw(String(rows))}`
  /** The sort's order (every column descending) between two rows read here. */
  const inOrder = (a: HeadRow, b: HeadRow) => {
    for (const column of columns) {
      if (a[column] !== b[column]) return a[column]! < b[column]! ? 1 : -1
    }
    return 0
  }
  const first = Math.max(1, Math.ceil(need / days.length))
  if (db.dialect === 'postgres') {
    // Only the first day starts before `since`; every later one lies wholly in the period.
    // Said so, the planner expects a day's whole share of rows (about 90 at 100k uploads)
    // and reads each day's first rows from that sort's day index. With `created_at >= since`
    // on every day it took the two conditions as independent, expected 3 rows a day, and
    // read and sorted each whole day from another index: a month of `best` took 2.3 ms in
    // EXPLAIN ANALYZE.
    const inPeriod = (day: string) => sql` AND (${sql.raw(day)} <> ${days[0]!} OR u.created_at >= ${since})`
    // A generic plan takes an array parameter for ARRAY_PARAM_ROWS days. For a shorter period
    // it then looked dearer than a plan made for the values, and PostgreSQL planned every call
    // anew (pg_prepared_statements: no generic plan in 400 calls at 1,000 uploads): a day's and
    // a week's page took 0.70-1.22 ms there, 0.21-0.43 planned once. The LIMIT gives the count.
    const dayList = days.length < ARRAY_PARAM_ROWS
      ? sql`(SELECT d.day FROM unnest(CAST(${days} AS text[])) AS d(day) LIMIT ${sql.raw(String(days.length))}) d`
      : sql`unnest(CAST(${days} AS text[])) AS d(day)`
    if (days.length * need <= PERIOD_BOUND_ROWS) {
      return sql`SELECT u.rid FROM ${dayList} CROSS JOIN LATERAL (${head(sql`d.day`, need, inPeriod('d.day'))}) u
        ORDER BY ${order} ${pageWindow(paging)}`
    }
    const n = sql.raw(String(first))
    // Past that, the same bound as SQLite's below, in one statement (one snapshot, one round
    // trip). `heads`: each day's first `first` rows, numbered within the day. `bound`: the
    // need-th best of the rows read. `more`: each day not read to its end whose last row read
    // is above the bound, read on down to it (a row-value range on the day index).
    //
    // The bound from the heads alone is loose where the page needs most of them (over
    // three in four), or where the sort's first column ties across days (`favourites`: most
    // uploads have none, so every day's head is its newest upload, and every newer day was
    // read on by a page). There the days are first read on, best last head first, until
    // `need` rows are read (`lead`: the LIMIT ends the loop over the days), and `lasts`
    // holds each day's last row read, so a month of favourites reads about a page of rows,
    // not a page a day. Where the heads' bound is tight (pages 1 and 2 of a month by top),
    // `lead` reads no fewer rows, and its steps cost more than they save.
    const leading = view.sort === 'favourites' || need * 4 > days.length * first * 3
    const readRows = (withKey: boolean) => {
      const selecting = withKey ? sql`u.rid, ${selected}` : selected
      return leading
        ? sql`SELECT ${selecting} FROM heads u UNION ALL SELECT ${selecting} FROM lead u`
        : sql`SELECT ${selecting} FROM heads u`
    }
    const readOn = (bounded: boolean) => sql`SELECT u.* FROM ${sql.raw(leading ? 'lasts' : 'heads')} l${sql.raw(bounded ? ' CROSS JOIN bound b' : '')}
        CROSS JOIN LATERAL (${head(sql`l.day`, need, sql`${inPeriod('l.day')} AND ${tuple('u')} < ${tuple('l')}${bounded ? sql` AND ${tuple('u')} >= ${tuple('b')}` : sql.raw('')}`)}) u
        WHERE ${leading ? sql.raw('') : sql`l.n = ${n} AND `}${bounded ? sql`${tuple('l')} > ${tuple('b')}` : sql`NOT EXISTS (SELECT 1 FROM bound)`}`
    const lead = leading
      ? sql`
      lead AS MATERIALIZED (SELECT l.day, u.* FROM (SELECT u.* FROM heads u WHERE u.n = ${n} ORDER BY ${order} LIMIT ${sql.raw(String(need))}) l
        CROSS JOIN LATERAL (${head(sql`l.day`, need, sql`${inPeriod('l.day')} AND ${tuple('u')} < ${tuple('l')}`)}) u
        LIMIT ${sql.raw(String(need))}),
      lasts AS (SELECT u.day, ${selected} FROM heads u WHERE u.n = ${n} AND u.day NOT IN (SELECT day FROM lead)
        UNION ALL (SELECT DISTINCT ON (u.day) u.day, ${selected} FROM lead u ORDER BY u.day, ${selected})),`
      : sql.raw('')
    return sql`WITH heads AS MATERIALIZED (SELECT d.day, u.*, ${first === 1 ? sql.raw('1') : sql`row_number() OVER (PARTITION BY d.day ORDER BY ${order})`} AS n
        FROM ${dayList} CROSS JOIN LATERAL (${head(sql`d.day`, first, inPeriod('d.day'))}) u),${lead}
      bound AS MATERIALIZED (SELECT ${selected} FROM (${readRows(false)}) u ORDER BY ${order} LIMIT 1 OFFSET ${sql.raw(String(need - 1))}),
      more AS (${readOn(true)} UNION ALL ${readOn(false)})
      SELECT u.rid FROM (${readRows(true)} UNION ALL SELECT u.rid, ${selected} FROM more u) u
      ORDER BY ${order} ${pageWindow(paging)}`
  }
  // SQLite has no LATERAL, and a compound of a year's 367 arms costs more than its reads:
  // prepared statements per day, merged here, reading as few rows as the merge can use
  // (better-sqlite3 builds an object for every row: a day's first 20 rows cost six times
  // its first one). First each day's first `first` rows, together at least `need`; the
  // need-th best of the rows read, `bound`, is never better than the page's last row. A
  // day read to its end, or whose last row read is no better than `bound`, has given every
  // row it can add to the page; the others are read on from their last row down to
  // `bound`, one day at a time, the day with the best first row first, and every day read
  // can only raise `bound` for the days after it: where the first day read on fills the
  // page (a month of `favourites`, whose uploads mostly tie at none and so fall in date
  // order), no other day is read on. A month of `best` read 20 rows from each of its 20
  // best days (400 rows, 1.2–1.7 ms on the bench machine); it reads 33 now (0.36–0.52 ms).
  // The LIMIT is written out (a whole number of ours): SQLite runs a bound LIMIT several
  // times slower on reads this small.
  const inPeriod = sql` AND u.created_at >= ${since}`
  const valueOf = (row: HeadRow) => sql`(${sql.join(columns.map(column => sql`${row[column]}`))})`
  const reads = await Promise.all(days.map(async day => ({ day, rows: await db.all<HeadRow>(head(day, first, inPeriod)) })))
  // The best `need` rows read so far, in order: the page is their end.
  let best = reads.flatMap(read => read.rows).sort(inOrder).slice(0, need)
  const unfinished = reads.filter(read => read.rows.length === first).sort((a, b) => inOrder(a.rows[0]!, b.rows[0]!))
  for (const { day, rows } of unfinished) {
    const last = rows.at(-1)!
    const bound = best.length === need ? best[need - 1]! : undefined
    if (bound && inOrder(last, bound) >= 0) continue
    const upTo = bound ? sql` AND ${tuple('u')} >= ${valueOf(bound)}` : sql.raw('')
    const more = await db.all<HeadRow>(head(day, need, sql`${inPeriod} AND ${tuple('u')} < ${valueOf(last)}${upTo}`))
    best = [...best, ...more].sort(inOrder).slice(0, need)
  }
  return page(best)
}

/** Row keys (in order) as a derived table of one column, `rid`. */
function rowKeys(keys: (string | number)[]): Query {
  return sql`${dialects({
    sqlite: sql`SELECT value AS rid FROM json_each(${JSON.stringify(keys)})`,
    postgres: sql`SELECT unnest(CAST(${keys} AS text[])) AS rid`,
  })}`
}
