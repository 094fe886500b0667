import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { openDatabase } from '../../server/database/connection'
import type { Database } from '../../server/database/port'
import { sql } from '../../server/database/sql'
import { createSeeder, type SeedUpload, type Seeder } from '../../scripts/lib/seed'
import { api, type TestUser } from './api'
import { sharedServer } from './shared-server'

export type { SeedUpload }

const connections = new Map<string, { db: Database, seeder: Seeder }>()

/**
 * The running test server's own database, through the same port: its
 * PostgreSQL database on the PostgreSQL pass, else its SQLite file (WAL, so
 * both sides read and write safely). Uploads are written here directly;
 * users are registered through the API. `dataDir` names another server's.
 */
export function serverDatabase(dataDir: string = sharedServer().dataDir, databaseUrl: string | undefined = dataDir === sharedServer().dataDir ? sharedServer().databaseUrl : undefined) {
  const key = databaseUrl || dataDir
  let found = connections.get(key)
  if (!found) {
    const db = openDatabase({ url: databaseUrl, sqliteFile: join(dataDir, 'app.sqlite'), poolMax: 4 })
    found = { db, seeder: createSeeder(db) }
    connections.set(key, found)
  }
  return found
}

/** The database of a server started by a test (its own data dir, and PostgreSQL database on that pass). */
export function databaseOf(server: { dataDir: string, databaseUrl?: string }) {
  return serverDatabase(server.dataDir, server.databaseUrl)
}

/** Writes an upload owned by `owner` into the server's database; returns its id. */
export function seedUpload(owner: { id: string }, input: Omit<SeedUpload, 'userId'> = {}, server?: { dataDir: string, databaseUrl?: string }): Promise<string> {
  return (server ? databaseOf(server) : serverDatabase()).seeder.upload({ ...input, userId: owner.id })
}

/** Makes a registered user an admin (as `npm run admin -- grant` does). */
export async function makeAdmin(user: TestUser, server?: { dataDir: string, databaseUrl?: string }): Promise<TestUser> {
  await (server ? databaseOf(server) : serverDatabase()).db.run(sql`UPDATE users SET is_admin = 1 WHERE id = ${user.id}`)
  return user
}

/** An upload's stored counters. */
export async function storedCounts(uploadId: string, server?: { dataDir: string, databaseUrl?: string }) {
  const { db } = server ? databaseOf(server) : serverDatabase()
  return (await db.get<{ upvotes: number, downvote_count: number }>(sql`SELECT upvotes, downvote_count FROM uploads WHERE id = ${uploadId}`))!
}

/** An upload's counts as the vote rows say: users not shadow-banned plus anonymous votes. */
export async function countedVotes(uploadId: string, server?: { dataDir: string, databaseUrl?: string }) {
  const { db } = server ? databaseOf(server) : serverDatabase()
  const count = (userVote: string, anonymousVote: string) => sql`
    (SELECT count(*) FROM votes v JOIN users u ON u.id = v.user_id WHERE v.upload_id = ${uploadId} AND v.vote = ${userVote} AND u.shadow_banned = 0)
    + (SELECT count(*) FROM anonymous_votes WHERE upload_id = ${uploadId} AND vote = ${anonymousVote})`
  return (await db.get<{ upvotes: number, downvote_count: number }>(sql`SELECT ${count('fucks', 'upvote')} AS upvotes,
    ${count('does_not_fuck', 'downvote')} AS downvote_count`))!
}

/** The list entry of one upload as the per-user list shows it (uncached by HTTP). */
export async function listEntryOf(owner: { username: string }, uploadId: string, baseURL?: string) {
  const response = await api(`/api/user/${owner.username}/uploads?limit=50`, { baseURL })
  return response.body.uploads.find((entry: { id: string }) => entry.id === uploadId)
}

/**
 * The generated secrets a test server uses: `<dataDir>/secrets.json` on
 * SQLite, the `app_secrets` table on PostgreSQL (where every instance reads them).
 */
export async function storedSecrets(server?: { dataDir: string, databaseUrl?: string }): Promise<Record<'sessionSecret' | 'sessionPassword' | 'ipHashSecret', string>> {
  const target = server ?? { dataDir: sharedServer().dataDir, databaseUrl: sharedServer().databaseUrl }
  if (!target.databaseUrl) return JSON.parse(readFileSync(join(target.dataDir, 'secrets.json'), 'utf8'))
  const rows = await databaseOf(target).db.all<{ name: string, value: string }>(sql`SELECT name, value FROM app_secrets`)
  return Object.fromEntries(rows.map(row => [row.name, row.value])) as Record<'sessionSecret' | 'sessionPassword' | 'ipHashSecret', string>
}
