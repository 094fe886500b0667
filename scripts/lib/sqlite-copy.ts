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

/** Pages copied a step while no one else writes (a step is one read; between steps the copy reports progress). */
const STEP_PAGES = 1024
/** What sqlite3_backup_step reads as "every page left" through better-sqlite3 (its largest rate). */
const ALL_PAGES = 0x7fffffff

/**
 * Copies the live database `source` (a site may be running on it) into the
 * new file `target` with SQLite's online backup. Each step reads in one read
 * transaction; a commit by another connection between steps makes SQLite
 * start the copy over, so the result is always the database as one commit
 * left it. Once that has happened, the whole copy is made in a single step (one
 * read transaction, which WAL lets writers work beside), so a busy site
 * cannot keep restarting it.
 */
export async function backupSqlite(source: string, target: string, shown: Progress): Promise<void> {
  const live = new BetterSqlite3(source, { fileMustExist: true, timeout: 5000 })
  try {
    let step = STEP_PAGES
    let remaining = Infinity
    const { totalPages } = await live.backup(target, {
      progress({ totalPages, remainingPages }) {
        // A step copies pages, so fewer remain after it unless the copy started over.
        if (remainingPages >= remaining) step = ALL_PAGES
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
    const images = counts.uploads === undefined ? [] : db.prepare(IMAGES_QUERY).all() as CopiedRows['images']
    return { counts, images }
  }
  finally {
    db.close()
  }
}
