import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { testDatabase } from '../support/database'

// An operator's own tools must read the database: the distribution's `sqlite3` command
// (3.40 on Debian 12) parses every trigger and view of the schema before any statement.
// CI installs it (.ci/run); elsewhere the test runs where the command is present.
const cli = spawnSync('sqlite3', ['--version']).status === 0
const required = process.env.CI === 'true'

describe.runIf(cli || required)('a migrated database', () => {
  it('opens in the distribution\'s sqlite3 command, and its triggers keep tag order there', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dif-cli-'))
    const db = await testDatabase(dataDir)
    await db.run(sql`INSERT INTO users (id, username) VALUES ('u1', 'owner')`)
    await db.run(sql`INSERT INTO uploads (id, user_id, original_name, description, upload_type) VALUES ('p1', 'u1', 'a.png', 'a', 'image')`)
    for (const [id, slug] of [['t1', 'red'], ['t2', 'green'], ['t3', 'blue']]) {
      await db.run(sql`INSERT INTO tags (id, name, slug) VALUES (${id}, ${slug}, ${slug})`)
    }
    // Inserted out of position order: tag_ids follows position, not insertion.
    await db.run(sql`INSERT INTO upload_tags (upload_id, tag_id, position) VALUES ('p1', 't3', 2)`)
    await db.run(sql`INSERT INTO upload_tags (upload_id, tag_id, position) VALUES ('p1', 't1', 0)`)
    await db.run(sql`INSERT INTO upload_tags (upload_id, tag_id, position) VALUES ('p1', 't2', 1)`)
    expect((await db.get<{ tagIds: string }>(sql`SELECT tag_ids AS "tagIds" FROM uploads WHERE id = 'p1'`))?.tagIds).toBe('t1,t2,t3')
    db.close()

    const file = join(dataDir, 'app.sqlite')
    const run = (statement: string) => execFileSync('sqlite3', [file, statement], { encoding: 'utf8' }).trim()
    expect(run('PRAGMA integrity_check;')).toBe('ok')
    // A write through the command fires the triggers as its SQLite reads them.
    run(`DELETE FROM upload_tags WHERE upload_id = 'p1' AND tag_id = 't2'; UPDATE upload_tags SET position = 5 WHERE tag_id = 't1';`)
    expect(run(`SELECT tag_ids FROM uploads WHERE id = 'p1';`)).toBe('t3,t1')
    // The hot score (an indexed generated column) computes alike there, so the index agrees.
    expect(run(`SELECT count(*) FROM uploads WHERE hot_score IS NULL;`)).toBe('0')
    expect(run('PRAGMA integrity_check;')).toBe('ok')
  })
})
