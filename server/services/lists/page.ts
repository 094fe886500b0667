/** The statement shell of a page with its total, and its entries. */
import type { Executor } from '../../database/port'
import { sql, type Query } from '../../database/sql'
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
 * asked. `prefix` goes before it (a WITH).
 */
export async function totalAndPage(db: Executor, total: Query, keys: Query, order: Query,
  options: { username: boolean, prefix?: Query, join?: Query }) {
  return entriesWithTotal(db, await db.all<ListRow & { total: number }>(sql`${options.prefix ?? NOTHING}SELECT c.total, ${ENTRY_COLUMNS}${sql.raw(options.username ? ', us.username' : '')}
    FROM (${total}) c
    LEFT JOIN (${keys}) p ON true
    LEFT JOIN uploads u ON ${options.join ?? sql`u.${ROW_KEY} = p.rid`}
    ${sql.raw(options.username ? 'LEFT JOIN users us ON us.id = u.user_id' : '')}
    ORDER BY ${order}`))
}

/** A page's entries and its total, from rows that each carry `total` (one row with a null id when the page is empty). */
async function entriesWithTotal(db: Executor, rows: (ListRow & { total: number })[]) {
  const total = rows[0]?.total ?? 0
  const found = rows.filter(row => row.id !== null).map(({ total: _, ...row }) => row)
  return { uploads: await withTags(db, found), total }
}
