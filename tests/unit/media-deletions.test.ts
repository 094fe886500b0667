import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { registerAccount } from '../../server/services/accounts'
import { sweepMediaDeletions } from '../../server/services/media-deletions'
import { fsMediaStore, uploadMediaKeys, type MediaStore } from '../../server/services/media-store'
import { toActor } from '../../server/services/sessions'
import { deleteUpload } from '../../server/services/uploads'
import { createSeeder } from '../../scripts/lib/seed'
import { testDatabase } from '../support/database'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/**
 * The media folder behind a switch, as a bucket that goes away and comes
 * back: while `down`, every removal fails the way the bucket store fails
 * (a 503), and the calls that reached it are counted by key.
 */
function switchableStore() {
  const dir = mkdtempSync(join(tmpdir(), 'dif-unit-media-'))
  dirs.push(dir)
  const folder = fsMediaStore(dir)
  const removals = new Map<string, number>()
  const state = { down: false }
  const store: MediaStore = {
    ...folder,
    async remove(keys) {
      if (state.down) throw Object.assign(new Error('Media storage is unavailable, please try again shortly'), { statusCode: 503 })
      for (const key of keys) removals.set(key, (removals.get(key) ?? 0) + 1)
      await new Promise(resolve => setTimeout(resolve, 5))
      await folder.remove(keys)
    },
  }
  return { dir, store, state, removals }
}

async function setUp() {
  const db = await testDatabase()
  const user = await registerAccount(db, { email: 'owner@unit.test', username: 'owner', password: 'correct horse battery' }, false)
  const owner = toActor({ id: user.id, username: user.username, email: user.email, is_admin: 0, email_verified: 0, shadow_banned: 0 }, [])
  const media = switchableStore()
  const seeder = createSeeder(db)
  /** An image upload with every one of its files written. */
  const image = async () => {
    const id = await seeder.upload({ userId: owner.id })
    const keys = uploadMediaKeys(id, `${id}.png`)
    for (const key of keys) writeFileSync(join(media.dir, key), 'x')
    return { id, keys }
  }
  return { db, owner, image, ...media }
}

const filesLeft = (dir: string, keys: string[]) => keys.filter(key => existsSync(join(dir, key)))

describe('media removals that the store does not confirm', () => {
  it('are recorded with the deletion, retried once due, and forgotten once the store confirms', async () => {
    const { db, owner, image, store, state, dir } = await setUp()
    const { id, keys } = await image()
    state.down = true
    expect(await deleteUpload(db, id, owner, store)).toEqual({ success: true })
    expect(filesLeft(dir, keys)).toEqual(keys)
    const row = await db.get<{ filename: string, attempts: number, next_attempt_at: string }>(sql`SELECT filename, attempts, next_attempt_at
      FROM media_deletions WHERE upload_id = ${id}`)
    expect(row).toMatchObject({ filename: `${id}.png`, attempts: 1 })
    // Not due yet: one query, nothing tried.
    expect(await sweepMediaDeletions(db, store)).toBe(0)
    await db.run(sql`UPDATE media_deletions SET next_attempt_at = '2000-01-01T00:00:00.000Z'`)
    // Due while still down: tried, pushed back further (attempt 2 waits 10 s).
    const before = Date.now()
    expect(await sweepMediaDeletions(db, store)).toBe(0)
    const retried = (await db.get<{ attempts: number, next_attempt_at: string }>(sql`SELECT attempts, next_attempt_at FROM media_deletions`))!
    expect(retried.attempts).toBe(2)
    expect(Date.parse(retried.next_attempt_at) - before).toBeGreaterThanOrEqual(10_000)
    expect(Date.parse(retried.next_attempt_at) - before).toBeLessThan(12_000)

    state.down = false
    await db.run(sql`UPDATE media_deletions SET next_attempt_at = '2000-01-01T00:00:00.000Z'`)
    expect(await sweepMediaDeletions(db, store)).toBe(1)
    expect(filesLeft(dir, keys)).toEqual([])
    expect(await db.all(sql`SELECT upload_id FROM media_deletions`)).toEqual([])
  })

  it('are tried by one of two sweeps running at once, and all of them at start on a store of one instance', async () => {
    const { db, owner, image, store, state, removals } = await setUp()
    const uploads = [await image(), await image(), await image()]
    state.down = true
    for (const { id } of uploads) await deleteUpload(db, id, owner, store)
    state.down = false
    await db.run(sql`UPDATE media_deletions SET next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE upload_id <> ${uploads[2]!.id}`)
    const swept = await Promise.all([sweepMediaDeletions(db, store), sweepMediaDeletions(db, store)])
    expect(swept[0]! + swept[1]!).toBe(2)
    for (const { id, keys } of uploads.slice(0, 2)) {
      expect(keys.map(key => removals.get(key)), id).toEqual(keys.map(() => 1))
    }
    // The third is not due; at start on a folder no other instance shares, everything is tried.
    expect(await sweepMediaDeletions(db, store)).toBe(0)
    expect(await sweepMediaDeletions(db, store, { everything: true })).toBe(1)
    expect(await db.all(sql`SELECT upload_id FROM media_deletions`)).toEqual([])
  })

  it('keep the media of an upload that exists again under the same id, and drop the record', async () => {
    const { db, image, store, dir } = await setUp()
    const { id, keys } = await image()
    await db.run(sql`INSERT INTO media_deletions (upload_id, filename, next_attempt_at) VALUES (${id}, ${`${id}.png`}, '2000-01-01T00:00:00.000Z')`)
    expect(await sweepMediaDeletions(db, store)).toBe(1)
    expect(filesLeft(dir, keys)).toEqual(keys)
    expect(await db.all(sql`SELECT upload_id FROM media_deletions`)).toEqual([])
  })
})
