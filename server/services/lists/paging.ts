/** A list's page: its number and size, as LIMIT and OFFSET. */
import { sql, type Query } from '../../database/sql'

/**
 * `from: 'start'`: every row up to the page's end instead, from the first
 * (a range the page is later cut from, such as one tag's share of a page of
 * two tags, lists/tags.ts eitherTagPage).
 */
export interface Paging { page: number, limit: number, from?: 'start' }
export const offset = ({ page, limit }: Paging) => (page - 1) * limit

/**
 * A list's LIMIT and OFFSET. The LIMIT is written into the SQL: SQLite runs
 * a bound LIMIT slower (the statement of page 500 of the newest, over 100,000
 * uploads side by side: 0.61 ms bound, 0.45 ms written out; page 1's 0.40 and
 * 0.22 ms). The OFFSET of the first pages (up to WRITTEN_PAGES) is written
 * too, so PostgreSQL plans them knowing how far they read, and keeps that plan
 * (server/database/postgres.ts). A parameter OFFSET beyond what the plan
 * expects the list to hold (a user's list is planned for an average account of
 * about 20 uploads) makes the plan for those values look nearly free, so
 * PostgreSQL never keeps one for all values and plans the page again at every
 * call. Deeper pages keep the OFFSET a parameter, so page numbers add at most
 * WRITTEN_PAGES statements to a list; limits are at most 100 (shared/schemas).
 * Every paged statement here ends with it.
 */
export function pageWindow(paging: Paging): Query {
  if (paging.from === 'start') return sql`LIMIT ${pageReach(paging)} OFFSET 0`
  if (!Number.isSafeInteger(paging.limit) || paging.limit <= 0) return sql`LIMIT ${paging.limit} OFFSET ${offset(paging)}`
  const limit = sql.raw(String(paging.limit))
  return written(paging) ? sql`LIMIT ${limit} OFFSET ${sql.raw(String(offset(paging)))}` : sql`LIMIT ${limit} OFFSET ${offset(paging)}`
}

/** The pages whose OFFSET pageWindow writes out: those most requests ask for. */
const WRITTEN_PAGES = 5
const written = ({ page }: Paging) => Number.isSafeInteger(page) && page >= 1 && page <= WRITTEN_PAGES

/**
 * How far a page reaches (its OFFSET plus its LIMIT), as a LIMIT for a range
 * read before the page is cut from it, written out or sent as pageWindow
 * sends them: written on the first pages, a parameter on the others.
 */
export function pageReach(paging: Paging): Query {
  return written(paging) && Number.isSafeInteger(paging.limit) && paging.limit > 0
    ? sql`${sql.raw(String(offset(paging) + paging.limit))}`
    : sql`${offset(paging) + paging.limit}`
}
