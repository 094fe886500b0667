import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { inject } from 'vitest'
import { openDatabase } from '../../server/database/connection'
import { createSeeder, type SeedUpload, type Seeder } from '../../scripts/lib/seed'
import { api, type TestUser } from './api'

export type { SeedUpload }

const connections = new Map<string, { sqlite: Database.Database, seeder: Seeder }>()

/**
 * The running test server's own SQLite file (WAL, so both sides read and
 * write safely), with the seed module's prepared inserts. Uploads are written
 * here directly; users are registered through the API.
 */
export function serverDatabase(dataDir: string = inject('dataDir')) {
  let found = connections.get(dataDir)
  if (!found) {
    const { sqlite } = openDatabase(join(dataDir, 'app.sqlite'))
    found = { sqlite, seeder: createSeeder(sqlite) }
    connections.set(dataDir, found)
  }
  return found
}

/** Writes an upload owned by `owner` into the server's database; returns its id. */
export function seedUpload(owner: { id: string }, input: Omit<SeedUpload, 'userId'> = {}, dataDir?: string): string {
  return serverDatabase(dataDir).seeder.upload({ ...input, userId: owner.id })
}

/** Makes a registered user an admin (as `npm run admin -- grant` does). */
export function makeAdmin(user: TestUser, dataDir?: string): TestUser {
  serverDatabase(dataDir).sqlite.prepare('UPDATE users SET is_admin = 1 WHERE id = ?').run(user.id)
  return user
}

/** An upload's stored counters. */
export function storedCounts(uploadId: string, dataDir?: string) {
  return serverDatabase(dataDir).sqlite.prepare('SELECT upvotes, downvote_count FROM uploads WHERE id = ?').get(uploadId) as { upvotes: number, downvote_count: number }
}

/** An upload's counts as the vote rows say: users not shadow-banned plus anonymous votes. */
export function countedVotes(uploadId: string, dataDir?: string) {
  return serverDatabase(dataDir).sqlite.prepare(`SELECT
      (SELECT count(*) FROM votes v JOIN users u ON u.id = v.user_id WHERE v.upload_id = @id AND v.vote = 'fucks' AND u.shadow_banned = 0)
      + (SELECT count(*) FROM anonymous_votes WHERE upload_id = @id AND vote = 'upvote') AS upvotes,
      (SELECT count(*) FROM votes v JOIN users u ON u.id = v.user_id WHERE v.upload_id = @id AND v.vote = 'does_not_fuck' AND u.shadow_banned = 0)
      + (SELECT count(*) FROM anonymous_votes WHERE upload_id = @id AND vote = 'downvote') AS downvote_count`)
    .get({ id: uploadId }) as { upvotes: number, downvote_count: number }
}

/** The list entry of one upload as the per-user list shows it (uncached by HTTP). */
export async function listEntryOf(owner: { username: string }, uploadId: string, baseURL?: string) {
  const response = await api(`/api/user/${owner.username}/uploads?limit=50`, { baseURL })
  return response.body.uploads.find((entry: { id: string }) => entry.id === uploadId)
}
