import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/database/connection'
import { runMigrations, type MigrationJournal } from '../../server/database/migrate'
import { ROOT } from '../support/server'

const folder = join(ROOT, 'drizzle')
const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as MigrationJournal
const load = (tag: string) => readFileSync(join(folder, `${tag}.sql`), 'utf8')

describe('migrations', () => {
  it('apply to an empty database, then are a no-op', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dif-unit-')), 'app.sqlite')
    const { sqlite } = openDatabase(file)
    expect(runMigrations(sqlite, journal, load)).toBe(journal.entries.length)
    expect(runMigrations(sqlite, journal, load)).toBe(0)
    const tables = sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all().map(r => (r as { name: string }).name)
    expect(tables).toEqual(['__drizzle_migrations', 'anonymous_votes', 'api_tokens', 'mfa_backup_codes', 'oauth_accounts', 'password_reset_tokens', 'sessions', 'tags', 'upload_tags', 'uploads', 'users', 'votes'])
    expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(sqlite.pragma('busy_timeout', { simple: true })).toBe(5000)
  })

  it('give the list queries their indexes', () => {
    const { sqlite } = openDatabase(':memory:')
    runMigrations(sqlite, journal, load)
    const plan = (sql: string) => JSON.stringify(sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all())
    expect(plan('SELECT id FROM uploads WHERE is_private = 0 ORDER BY created_at DESC LIMIT 10')).toContain('uploads_public_newest_idx')
    expect(plan('SELECT id FROM uploads WHERE is_private = 0 ORDER BY upvotes DESC, downvote_count DESC, created_at DESC LIMIT 6')).toContain('uploads_public_top_idx')
    expect(plan(`SELECT id FROM uploads WHERE user_id = 'u' AND is_private = 0 ORDER BY created_at DESC`)).toContain('uploads_user_date_idx')
    expect(plan(`SELECT id FROM votes WHERE user_id = 'u' AND upload_id = 'x'`)).toContain('votes_user_upload_unique')
    expect(plan(`SELECT id FROM anonymous_votes WHERE upload_id = 'x' AND ip_hash = 'h'`)).toContain('anonymous_votes_upload_ip_idx')
  })
})
