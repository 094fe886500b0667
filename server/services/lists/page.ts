/** The statement shell of a page with its total, and its entries. */
import type { Executor } from '../../database/port'
import { sql, type Query } from '../../database/sql'
import { COPIES_PENDING, flushRankCopies } from '../rank-copies'
import { ENTRY_COLUMNS, withTags, type ListRow } from './entry'
import { pageWindow, type Paging } from './paging'
import { NOTHING, ROW_KEY } from './pieces'

/**
 * One statement for a page and its total: the count over `source` and the
 * page's rows, LEFT JOINed so an empty page still yields the total. `source`
 * yields the uploads as `u` from its own bound parameters. A tag-filtered
 * source is matched once (materialised: the row key and the columns its
 * order reads, given in `materialise`) and then counted and paged. Only the
 * order's columns: the scores are virtual columns on SQLite, computed per
 * row read, and every score for each of a tag's 1,139 uploads took its ranked
 * page 7.5 ms against 5.4 ms so (side by side, 100,000 uploads).
 */
export function pageWithTotal(db: Executor, source: Query, order: Query, paging: Paging, options: { username: boolean, materialise?: readonly string[] }) {
  if (!options.materialise) {
    return totalAndPage(db, sql`SELECT count(*) AS total FROM ${source}`,
      sql`SELECT u.${ROW_KEY} AS rid FROM ${source} ORDER BY ${order} ${pageWindow(paging)}`, order, options)
  }
  return totalAndPage(db, sql`SELECT count(*) AS total FROM matched`,
    sql`SELECT u.rid FROM matched u ORDER BY ${order} ${pageWindow(paging)}`, order, {
      ...options,
      prefix: sql`WITH matched AS MATERIALIZED (SELECT u.${ROW_KEY} AS rid, ${sql.raw(options.materialise.map(column => `u.${column}`).join(', '))} FROM ${source})
`,
    })
}

/**
 * The statement shell of every page with its total: `total` yields one row
 * (`total`), `keys` the page's uploads (`rid`, their row key, unless `join`
 * says how they meet `uploads u`), LEFT JOINed so an empty page still
 * yields the total; the entries in `order`, with the owner's username when
 * asked. `prefix` goes before it (a WITH). `copies`: the page (or its total)
 * reads links' copies of the counts; when it read them while some were
 * pending, they are copied and the page is read again (services/rank-copies.ts).
 */
export async function totalAndPage(db: Executor, total: Query, keys: Query, order: Query, options: PageOptions) {
  return entriesWithTotal(db, await pageRows(db, total, keys, order, options))
}

/**
 * totalAndPage where `total` may yield null, a total not known from kept
 * counts alone: then null, before the entries' tags are read, and the
 * caller counts another way.
 */
export async function keptTotalAndPage(db: Executor, total: Query, keys: Query, order: Query, options: PageOptions) {
  const rows = await pageRows(db, total, keys, order, options)
  return rows[0]?.total === null ? null : entriesWithTotal(db, rows)
}

type PageOptions = { username: boolean, prefix?: Query, join?: Query, copies?: boolean }

/** The rows of totalAndPage's statement, read again once pending copies are copied. */
async function pageRows(db: Executor, total: Query, keys: Query, order: Query, options: PageOptions) {
  const statement = sql`${options.prefix ?? NOTHING}SELECT c.total, ${options.copies ? sql`${COPIES_PENDING} AS copies_pending, ` : NOTHING}${ENTRY_COLUMNS}${sql.raw(options.username ? ', us.username' : '')}
    FROM (${total}) c
    LEFT JOIN (${keys}) p ON true
    LEFT JOIN uploads u ON ${options.join ?? sql`u.${ROW_KEY} = p.rid`}
    ${sql.raw(options.username ? 'LEFT JOIN users us ON us.id = u.user_id' : '')}
    ORDER BY ${order}`
  const rows = await db.all<PageRow>(statement)
  if (!options.copies || !rows[0]?.copies_pending) return rows
  await flushRankCopies(db)
  return db.all<PageRow>(statement)
}

/** A row of a page's statement: an entry (or nulls, when the page is empty) with the total, and whether copies were pending. */
type PageRow = ListRow & { total: number | null, copies_pending?: boolean | number }

/**
 * A page's entries and its total, from rows that each carry `total` (one row
 * with a null id when the page is empty). The rows go to withTags as they
 * are: an entry takes its fields by name (toListEntry), so `total` and
 * `copies_pending` stay behind without a copy of each row made to drop them.
 */
async function entriesWithTotal(db: Executor, rows: PageRow[]) {
  const total = rows[0]?.total ?? 0
  return { uploads: await withTags(db, rows.filter(row => row.id !== null)), total }
}
