/** Pieces of SQL every list statement shares. */
import { dialects, sql } from '../../database/sql'

/** The cheapest key from an index entry back to its row: SQLite's rowid, PostgreSQL's primary key. */
export const ROW_KEY = dialects({ sqlite: 'rowid', postgres: 'id' })
/** A join whose order SQLite must keep (CROSS JOIN pins it there); PostgreSQL plans it well as is. */
export const THEN_JOIN = dialects({ sqlite: 'CROSS JOIN', postgres: 'JOIN' })

/** An empty fragment. */
export const NOTHING = sql`${sql.raw('')}`
