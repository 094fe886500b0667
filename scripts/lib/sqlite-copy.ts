import BetterSqlite3 from 'better-sqlite3'
import type { Progress } from './progress'

/** What a backup needs to know of the rows it copied. */
export interface CopiedRows {
  /** Rows per table. */
  counts: Record<string, number>
  /** Every stored image (its media keys follow from id and filename). */
  images: { id: string, filename: string }[]
}

/** The images whose media a backup carries: one query for both engines. */
export const IMAGES_QUERY = `SELECT id, filename FROM uploads WHERE upload_type = 'image' AND filename IS NOT NULL ORDER BY id`

/** First pages copied a step; doubled whenever a write on the live database restarts the copy. */
const FIRST_STEP_PAGES = 1024

/**
 * Copies the live database `source` (a site may be running on it) into the
 * new file `target` with SQLite's online backup: each step reads a consistent
 * set of pages, and a commit by anyone else between steps starts the copy
 * over, so the result is the database as one commit left it. Steps grow
 * while writes keep restarting it, so a busy site cannot hold it off for long.
 */
export async function backupSqlite(source: string, target: string, shown: Progress): Promise<void> {
  const live = new BetterSqlite3(source, { fileMustExist: true, timeout: 5000 })
  try {
    let step = FIRST_STEP_PAGES
    let remaining = Infinity
    const { totalPages } = await live.backup(target, {
      progress({ totalPages, remainingPages }) {
        if (remainingPages > remaining) step *= 2
        remaining = remainingPages
        shown.set(totalPages - remainingPages, totalPages)
        return step
      },
    })
    shown.set(totalPages, totalPages)
    shown.end()
  }
  finally {
    live.close()
  }
}

/**
 * Opens a copy made by `backupSqlite`, makes it one self-contained file
 * (rollback journal instead of WAL), checks its structure and answers its
 * counts and images.
 */
export function inspectSqlite(file: string, options: { detach?: boolean } = {}): CopiedRows {
  const db = new BetterSqlite3(file, { fileMustExist: true })
  try {
    if (options.detach) db.pragma('journal_mode = DELETE')
    const check = db.pragma('quick_check', { simple: true })
    if (check !== 'ok') throw new Error(`The copy of the database fails SQLite's check: ${String(check)}`)
    const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`).pluck().all() as string[]
    const counts = Object.fromEntries(tables.map(table => [table, db.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number]))
    const images = db.prepare(IMAGES_QUERY).all() as CopiedRows['images']
    return { counts, images }
  }
  finally {
    db.close()
  }
}
