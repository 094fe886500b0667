import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { createTestDatabase, dropTestDatabase } from '../support/postgres'
import { ROOT, startServer, testEngine, type RunningServer } from '../support/server'
import { uploadImage, postUpload } from '../support/uploads'

const run = promisify(execFile)
const moveData = (...args: string[]) => run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/move-data.ts'), ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME } })

/**
 * An embedded site (SQLite + media in its data dir) moved to PostgreSQL with
 * `npm run move-data`, then started on the target: the same answers come back.
 */
describe.skipIf(testEngine() !== 'postgres')('npm run move-data', () => {
  const cleanup: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step()
  })

  it('copies rows and secrets, verifies counts and media checksums, refuses a non-empty target', async () => {
    const embedded = await startServer({}, { engine: 'sqlite' })
    cleanup.push(() => embedded.stop())
    const alice = await registerUser({}, embedded.url)
    const bob = await registerUser({}, embedded.url)
    const image = await uploadImage(alice, { tags: 'cats, moved site', baseURL: embedded.url })
    const link = await postUpload(alice, { upload_type: 'link', external_url: 'https://example.com/moved', description: 'a link', tags: 'links' }, undefined, embedded.url)
    expect(link.status).toBe(201)
    await api('/api/vote', { method: 'POST', token: bob.token, body: { uploadId: image.id, vote: 'fucks' }, baseURL: embedded.url })
    await api('/api/vote/anonymous', { method: 'POST', body: { uploadId: image.id, vote: 'downvote', clientFingerprint: 'moved-visitor' }, baseURL: embedded.url })
    expect((await api('/api/profile/filters', { method: 'PUT', token: bob.token, body: { hiddenTags: ['links'] }, baseURL: embedded.url })).status).toBe(200)
    const paths = ['/api/uploads', '/api/uploads?sort=hot', '/api/uploads/filtered?sort=best', `/api/uploads/filtered?tags=cats`, '/api/items-top-voted', `/api/user/${alice.username}/uploads?sort=name`, `/api/upload/${image.id}`, '/api/tags?q=']
    const before = await Promise.all(paths.map(async path => (await api(path, { baseURL: embedded.url })).body))
    const imageBefore = Buffer.from(await (await fetch(`${embedded.url}/api/image/${image.id}`)).arrayBuffer())
    await embedded.stop({ keepData: true })

    const target = await createTestDatabase()
    cleanup.push(() => dropTestDatabase(target))
    const moved = await moveData('--to', target, '--data-dir', embedded.dataDir)
    expect(moved.stdout).toContain('| users | 2 | 2 |')
    expect(moved.stdout).toContain('| uploads | 2 | 2 |')
    expect(moved.stdout).toContain('| votes | 1 | 1 |')
    expect(moved.stdout).toContain('| anonymous_votes | 1 | 1 |')
    expect(moved.stdout).toContain('| user_hidden_tags | 1 | 1 |')
    expect(moved.stdout).toContain('media: 1 file(s) match their SHA-256')
    expect(moved.stdout).toContain('secrets: 4 moved into the database')

    await expect(moveData('--to', target, '--data-dir', embedded.dataDir)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('The target database is not empty'),
    })

    const onTarget: RunningServer = await startServer({ NUXT_DATABASE_URL: target }, { dataDir: embedded.dataDir })
    cleanup.push(() => onTarget.stop({ keepData: true }))
    const after = await Promise.all(paths.map(async path => (await api(path, { baseURL: onTarget.url })).body))
    expect(after).toEqual(before)
    // The sessions made on the embedded site are still valid, and the media are served.
    expect((await api('/api/profile', { token: alice.token, baseURL: onTarget.url })).body.user.id).toBe(alice.id)
    expect((await api('/api/profile/filters', { token: bob.token, baseURL: onTarget.url })).body).toEqual({ hiddenTags: ['links'] })
    expect(Buffer.from(await (await fetch(`${onTarget.url}/api/image/${image.id}`)).arrayBuffer()).equals(imageBefore)).toBe(true)
    // The anonymous visitor is still known by the same keyed hashes.
    const again = await api('/api/vote/anonymous', { method: 'POST', body: { uploadId: image.id, vote: 'upvote', clientFingerprint: 'moved-visitor' }, baseURL: onTarget.url })
    expect(again.status).toBe(409)
  })
})
