import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { findDrift } from '../../server/database/kept-counts'
import { sql } from '../../server/database/sql'
import { api, registerUser } from '../support/api'
import { createTestDatabase, dropTestDatabase } from '../support/postgres'
import { startS3 } from '../support/s3'
import { startTcpProxy } from '../support/tcp-proxy'
import { databaseOf, makeAdmin } from '../support/seed'
import { ROOT, startServer, testEngine, type RunningServer } from '../support/server'
import { uploadImage, postUpload } from '../support/uploads'

const run = promisify(execFile)
const moveData = (...args: string[]) => moveDataWith({}, ...args)
const moveDataWith = (env: Record<string, string>, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/move-data.ts'), ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } })
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex')

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
    // A report, and an admin action in the moderation log.
    expect((await api(`/api/upload/${link.body.upload.id}/report`, { method: 'POST', token: bob.token, body: { reason: 'spam' }, baseURL: embedded.url })).status).toBe(201)
    const moderator = await makeAdmin(await registerUser({}, embedded.url), embedded)
    expect((await api(`/api/admin/users/${bob.id}/shadow-ban`, { method: 'POST', token: moderator.token, body: { shadowBanned: false }, baseURL: embedded.url })).status).toBe(200)
    expect((await api('/api/profile/filters', { method: 'PUT', token: bob.token, body: { hiddenTags: ['links'] }, baseURL: embedded.url })).status).toBe(200)
    // A tag alias and an implication (both logged).
    expect((await api('/api/admin/tags/aliases', { method: 'POST', token: moderator.token, body: { from: 'kitties', to: 'cats' }, baseURL: embedded.url })).status).toBe(201)
    expect((await api('/api/admin/tags/implications', { method: 'POST', token: moderator.token, body: { tag: 'cats', implies: 'moved-site' }, baseURL: embedded.url })).status).toBe(201)
    const paths = ['/api/tags/kitties', '/api/uploads/filtered?tags=kitties', '/api/uploads', '/api/uploads?sort=hot', '/api/uploads/filtered?sort=best', `/api/uploads/filtered?tags=cats`, '/api/items-top-voted', `/api/user/${alice.username}/uploads?sort=name`, `/api/upload/${image.id}`, '/api/tags?q=']
    const before = await Promise.all(paths.map(async path => (await api(path, { baseURL: embedded.url })).body))
    const imageBefore = Buffer.from(await (await fetch(`${embedded.url}/api/image/${image.id}`)).arrayBuffer())
    await embedded.stop({ keepData: true })

    const target = await createTestDatabase()
    cleanup.push(() => dropTestDatabase(target))
    const moved = await moveData('--to', target, '--data-dir', embedded.dataDir)
    expect(moved.stdout).toContain('| users | 3 | 3 |')
    expect(moved.stdout).toContain('| uploads | 2 | 2 |')
    expect(moved.stdout).toContain('| votes | 1 | 1 |')
    expect(moved.stdout).toContain('| anonymous_votes | 1 | 1 |')
    expect(moved.stdout).toContain('| reports | 1 | 1 |')
    expect(moved.stdout).toContain('| moderation_log | 3 | 3 |')
    expect(moved.stdout).toContain('| tag_aliases | 1 | 1 |')
    expect(moved.stdout).toContain('| tag_implications | 1 | 1 |')
    expect(moved.stdout).toContain('| user_hidden_tags | 1 | 1 |')
    // Every account registered here got a verification link, which must still work on the target.
    expect(moved.stdout).toContain('| email_verification_tokens | 3 | 3 |')
    expect(moved.stdout).toContain('media: 1 file(s) match their SHA-256')
    expect(moved.stdout).toContain('secrets: 4 moved into the database')

    await expect(moveData('--to', target, '--data-dir', embedded.dataDir)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('The target database is not empty'),
    })

    // Counts kept by triggers are not copied: the target's triggers counted them as the rows arrived, many a statement.
    const kept = await databaseOf({ dataDir: embedded.dataDir, databaseUrl: target }).db.all<{ slugs: string, public_uploads: number }>(sql`SELECT
        a.slug || ' & ' || b.slug AS slugs, p.public_uploads FROM tag_pairs p JOIN tags a ON a.id = p.first_tag_id JOIN tags b ON b.id = p.second_tag_id`)
    expect(kept.map(row => ({ ...row, slugs: row.slugs.split(' & ').sort().join(' & ') }))).toEqual([{ slugs: 'cats & moved-site', public_uploads: 1 }])
    expect(await databaseOf({ dataDir: embedded.dataDir, databaseUrl: target }).db.all(sql`SELECT user_id, votes FROM user_vote_counts`)).toEqual([{ user_id: bob.id, votes: 1 }])
    // Every other kept count too (the words of the descriptions among them).
    expect(await findDrift(databaseOf({ dataDir: embedded.dataDir, databaseUrl: target }).db)).toEqual([])
    const onTarget: RunningServer = await startServer({ NUXT_DATABASE_URL: target }, { dataDir: embedded.dataDir })
    cleanup.push(() => onTarget.stop({ keepData: true }))
    const after = await Promise.all(paths.map(async path => (await api(path, { baseURL: onTarget.url })).body))
    expect(after).toEqual(before)
    // The sessions made on the embedded site are still valid, and the media are served.
    expect((await api('/api/profile', { token: alice.token, baseURL: onTarget.url })).body.user.id).toBe(alice.id)
    expect((await api('/api/profile/filters', { token: bob.token, baseURL: onTarget.url })).body).toEqual({ hiddenTags: ['links'], blindVoting: false })
    expect(Buffer.from(await (await fetch(`${onTarget.url}/api/image/${image.id}`)).arrayBuffer()).equals(imageBefore)).toBe(true)
    // The anonymous visitor is still known by the same keyed hashes.
    const again = await api('/api/vote/anonymous', { method: 'POST', body: { uploadId: image.id, vote: 'upvote', clientFingerprint: 'moved-visitor' }, baseURL: onTarget.url })
    expect(again.status).toBe(409)
  }, 90_000)

  it('with --media s3 copies images and derivatives into the bucket, checks them, and refuses a bucket holding media', async () => {
    const embedded = await startServer({}, { engine: 'sqlite' })
    cleanup.push(() => embedded.stop())
    const alice = await registerUser({}, embedded.url)
    const images = [await uploadImage(alice, { tags: 'to the bucket', baseURL: embedded.url }), await uploadImage(alice, { format: 'jpeg', baseURL: embedded.url })]
    for (const size of ['small', 'medium', 'display']) expect((await fetch(`${embedded.url}/api/image/${images[0]!.id}?size=${size}`)).status).toBe(200)
    // The first image has every derivative made, the second only its thumbnail.
    const served = async (baseURL: string) => Promise.all(images.flatMap((image, i) => (i === 0 ? ['', '?size=small', '?size=thumb', '?size=medium', '?size=display'] : ['', '?size=thumb']).map(async (size) => {
      const response = await fetch(`${baseURL}/api/image/${image.id}${size}`)
      return { status: response.status, etag: response.headers.get('etag'), type: response.headers.get('content-type'), sha256: sha256(Buffer.from(await response.arrayBuffer())) }
    })))
    const before = await served(embedded.url)
    await embedded.stop({ keepData: true })

    const s3 = await startS3()
    cleanup.push(() => s3.stop())
    const bucket = await s3.createBucket()
    const env = s3.env(bucket)
    const target = await createTestDatabase()
    cleanup.push(() => dropTestDatabase(target))
    const moved = await moveDataWith(env, '--to', target, '--data-dir', embedded.dataDir, '--media', 's3')
    expect(moved.stdout).toContain('| uploads | 2 | 2 |')
    expect(moved.stdout).toContain(`media: 2 file(s) match their SHA-256 in bucket "${bucket}" at ${s3.endpoint}`)
    // Every size a page asks for is in the bucket, those not made yet made on the way.
    expect(moved.stdout).toContain('media: 10 object(s) (images and their derivatives) copied into the bucket and read back unchanged')
    expect(moved.stdout).toMatch(/media: \d+ picture size\(s\) not made yet were made, so pages find every size ready/)
    expect(await s3.keys(bucket)).toEqual(images.flatMap(image => [image.filename, ...['display', 'medium', 'small', 'thumbs'].map(folder => `${folder}/${image.id}.webp`)]).sort())

    // A second move into another empty database finds the bucket holding media: refused, nothing written.
    const second = await createTestDatabase()
    cleanup.push(() => dropTestDatabase(second))
    await expect(moveDataWith(env, '--to', second, '--data-dir', embedded.dataDir, '--media', 's3')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`move-data: The bucket "${bucket}" at ${s3.endpoint} already holds media (10 object(s)`),
    })
    const rows = await databaseOf({ dataDir: embedded.dataDir, databaseUrl: second }).db.get<{ n: number }>(sql`SELECT count(*) AS n FROM uploads`)
    expect(Number(rows!.n)).toBe(0)
    // No bucket settings: refused before anything is read.
    await expect(moveDataWith({}, '--to', second, '--data-dir', embedded.dataDir, '--media', 's3')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('move-data: Media in S3 need NUXT_S3_BUCKET'),
    })

    // The moved site, on a fresh data dir: every image from the bucket, the same bytes and ETags.
    const dataDir = mkdtempSync(join(tmpdir(), 'dif-moved-'))
    cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }))
    const onTarget = await startServer({ NUXT_DATABASE_URL: target, ...env }, { dataDir })
    cleanup.push(() => onTarget.stop({ keepData: true }))
    expect(await served(onTarget.url)).toEqual(before)
    expect(existsSync(join(dataDir, 'media'))).toBe(false)
  }, 90_000)

  it('reads a live site as one snapshot: votes flowing during the move leave the target consistent', async () => {
    const embedded = await startServer({}, { engine: 'sqlite' })
    cleanup.push(() => embedded.stop())
    const owner = await registerUser({}, embedded.url)
    const voters = await Promise.all(Array.from({ length: 6 }, () => registerUser({}, embedded.url)))
    const { seeder } = databaseOf(embedded)
    const ids: string[] = []
    // Enough rows that the copy takes a while, so votes land between the tables' reads.
    for (let n = 0; n < 3000; n++) ids.push(await seeder.upload({ userId: owner.id, uploadType: 'link', externalUrl: `https://example.com/${n}`, description: `link ${n}` }))
    const voted = ids.slice(0, 40)
    let flowing = true
    let votes = 0
    const flow = voters.map(async (voter, v) => {
      for (let n = v; flowing && n < 5000; n++) {
        const response = await api('/api/vote', { method: 'POST', token: voter.token, body: { uploadId: voted[n % voted.length], vote: n % 3 ? 'fucks' : 'does_not_fuck' }, baseURL: embedded.url })
          .catch(() => ({ status: 0 }))
        if (response.status === 200) votes++
      }
    })
    const target = await createTestDatabase()
    cleanup.push(() => dropTestDatabase(target))
    try {
      const moved = await moveData('--to', target, '--data-dir', embedded.dataDir)
      expect(moved.stdout).toContain('| uploads | 3000 | 3000 |')
    }
    finally {
      flowing = false
      await Promise.all(flow)
    }
    expect(votes).toBeGreaterThan(0)
    expect(embedded.process.exitCode, embedded.output().slice(-2000)).toBeNull()
    const { db } = databaseOf({ dataDir: embedded.dataDir, databaseUrl: target })
    const counted = (userVote: string, anonymousVote: string) => sql`(SELECT count(*) FROM votes v JOIN users us ON us.id = v.user_id
      WHERE v.upload_id = u.id AND v.vote = ${userVote} AND us.shadow_banned = 0)
      + (SELECT count(*) FROM anonymous_votes a WHERE a.upload_id = u.id AND a.vote = ${anonymousVote})`
    const wrong = await db.all(sql`SELECT u.id, u.upvotes, u.downvote_count FROM uploads u
      WHERE u.upvotes <> ${counted('fucks', 'upvote')} OR u.downvote_count <> ${counted('does_not_fuck', 'downvote')}`)
    expect(wrong).toEqual([])
  }, 120_000)

  it('says the move is done, with exit code 3, when an image file was already missing from the data dir', async () => {
    const embedded = await startServer({}, { engine: 'sqlite' })
    cleanup.push(() => embedded.stop())
    const alice = await registerUser({}, embedded.url)
    const image = await uploadImage(alice, { baseURL: embedded.url })
    await embedded.stop({ keepData: true })
    const { filename } = (await databaseOf(embedded).db.get<{ filename: string }>(sql`SELECT filename FROM uploads WHERE id = ${image.id}`))!
    rmSync(join(embedded.dataDir, 'media', filename))
    const target = await createTestDatabase()
    cleanup.push(() => dropTestDatabase(target))
    const moved = await moveData('--to', target, '--data-dir', embedded.dataDir).then(() => ({ code: 0, stdout: '', stderr: '' }), (error: { code: number, stdout: string, stderr: string }) => error)
    expect(moved.code).toBe(3)
    expect(moved.stdout).toContain('| uploads | 1 | 1 |')
    expect(moved.stderr).toContain(`media: missing ${filename}\n`)
    expect(moved.stderr).toContain(`The move is done: the target holds every row. 1 image file(s) in ${join(embedded.dataDir, 'media')} were missing or differ from their upload`)
    const { db } = databaseOf({ dataDir: embedded.dataDir, databaseUrl: target })
    expect(Number((await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM uploads`))!.n)).toBe(1)
  }, 60_000)

  it('names a row the target refuses by table and id, and leaves the target empty', async () => {
    const embedded = await startServer({}, { engine: 'sqlite' })
    cleanup.push(() => embedded.stop())
    const alice = await registerUser({}, embedded.url)
    const { db: source, seeder } = databaseOf(embedded)
    const bad = await seeder.upload({ userId: alice.id, uploadType: 'link', externalUrl: 'https://example.com/nul', description: 'fine' })
    await source.run(sql`UPDATE uploads SET description = ${'a NUL \u0000 inside'} WHERE id = ${bad}`)
    const target = await createTestDatabase()
    cleanup.push(() => dropTestDatabase(target))
    const failed = await moveData('--to', target, '--data-dir', embedded.dataDir).then(() => ({ code: 0, stdout: '', stderr: '' }), (error: { code: number, stdout: string, stderr: string }) => error)
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain(`move-data: The target refused the row uploads ${bad}: invalid byte sequence for encoding "UTF8": 0x00\n`)
    const { db } = databaseOf({ dataDir: embedded.dataDir, databaseUrl: target })
    for (const table of ['users', 'uploads', 'app_secrets']) expect(Number((await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.raw(table)}`))!.n), table).toBe(0)
  }, 60_000)

  it('leaves both the database and the bucket empty when the bucket is lost in the middle of the copy', async () => {
    const embedded = await startServer({}, { engine: 'sqlite' })
    cleanup.push(() => embedded.stop())
    const alice = await registerUser({}, embedded.url)
    for (let n = 0; n < 4; n++) await uploadImage(alice, { baseURL: embedded.url })
    const s3 = await startS3()
    cleanup.push(() => s3.stop())
    const bucket = await s3.createBucket()
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port) })
    cleanup.push(() => proxy.close())
    const target = await createTestDatabase()
    cleanup.push(() => dropTestDatabase(target))
    // Lost after a few objects went in; back two seconds later, while the move still tries to empty it.
    const lost = proxy.cutAfter(8_000).then(() => new Promise(resolve => setTimeout(resolve, 2000))).then(() => proxy.restore())
    const failed = await moveDataWith({ ...s3.env(bucket), NUXT_S3_ENDPOINT: `http://127.0.0.1:${proxy.port}` }, '--to', target, '--data-dir', embedded.dataDir, '--media', 's3')
      .then(() => ({ code: 0, stdout: '', stderr: '' }), (error: { code: number, stdout: string, stderr: string }) => error)
    await lost
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain('move-data: Media storage is unavailable, please try again shortly')
    expect(failed.stdout).toMatch(/removed the \d+ object\(s\) this move had put into the bucket/)
    expect(await s3.keys(bucket)).toEqual([])
    const { db } = databaseOf({ dataDir: embedded.dataDir, databaseUrl: target })
    for (const table of ['users', 'uploads', 'app_secrets']) expect(Number((await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.raw(table)}`))!.n), table).toBe(0)
  }, 120_000)
})
