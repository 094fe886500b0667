import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import type { BackupManifest } from '../../scripts/lib/backup-manifest'
import { api, registerUser, type TestUser } from '../support/api'
import { createTestDatabase, dropTestDatabase } from '../support/postgres'
import { startS3 } from '../support/s3'
import { countedVotes, databaseOf, storedCounts } from '../support/seed'
import { ROOT, startServer, testEngine, type RunningServer } from '../support/server'
import { uploadImage } from '../support/uploads'

const run = promisify(execFile)
/** `npm run backup` / `npm run restore` with only these settings in the environment. */
const script = (name: 'backup' | 'restore', env: Record<string, string>, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', join(ROOT, `scripts/${name}.ts`), ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } })
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex')
const imageBytes = async (baseURL: string, id: string, size = '') => Buffer.from(await (await fetch(`${baseURL}/api/image/${id}${size}`)).arrayBuffer())

/**
 * A site backed up with `npm run backup` while votes and uploads flow, then
 * brought back with `npm run restore` and started on what it restored: the
 * same sessions, counts and image bytes. On the PostgreSQL pass the media
 * live in a bucket (the S3 stand-in) and are restored into another one.
 */
describe('npm run backup and npm run restore', () => {
  const postgres = testEngine() === 'postgres'
  const work = mkdtempSync(join(tmpdir(), 'dif-backup-'))
  const cleanup: (() => Promise<unknown>)[] = [async () => rmSync(work, { recursive: true, force: true })]
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {})
  })

  it('restores a backup taken under load to a site that answers as the original; refuses tampered backups and non-empty targets', async () => {
    const s3 = postgres ? await startS3() : undefined
    if (s3) cleanup.push(() => s3.stop())
    const mediaEnv = s3 ? s3.env(await s3.createBucket()) : {}
    const original = await startServer(mediaEnv)
    cleanup.push(() => original.stop())
    const siteEnv = { NUXT_DATA_DIR: original.dataDir, ...(original.databaseUrl ? { NUXT_DATABASE_URL: original.databaseUrl } : {}), ...mediaEnv }
    const baseURL = original.url
    const alice = await registerUser({}, baseURL)
    const voters: TestUser[] = []
    for (let i = 0; i < 3; i++) voters.push(await registerUser({}, baseURL))
    // One image nobody votes on while the backup runs, two that get votes.
    const still = await uploadImage(alice, { tags: 'kept still', baseURL })
    const voted = [await uploadImage(alice, { baseURL }), await uploadImage(alice, { format: 'jpeg', baseURL })]
    expect((await fetch(`${baseURL}/api/image/${voted[0]!.id}?size=small`)).status).toBe(200)

    // The flowing workload: votes changing back and forth, and now and then an upload (at most 300 requests).
    let flowing = true
    let sent = 0
    const flow = (async () => {
      for (let i = 0; flowing && i < 300; i++) {
        if (i % 20 === 19) await uploadImage(voters[i % 3]!, { baseURL })
        else await api('/api/vote', { method: 'POST', token: voters[i % 3]!.token, body: { uploadId: voted[i % 2]!.id, vote: i % 4 < 2 ? 'fucks' : 'does_not_fuck' }, baseURL })
        sent++
        await new Promise(r => setTimeout(r, 5))
      }
    })()
    const backupDir = join(work, 'backup')
    // Made beforehand, readable by all: the backup makes it its owner's only.
    mkdirSync(backupDir, { mode: 0o755 })
    chmodSync(backupDir, 0o755)
    const sentBefore = await (async () => {
      while (sent < 5) await new Promise(r => setTimeout(r, 10))
      return sent
    })()
    const backedUp = await script('backup', siteEnv, '--to', backupDir)
    const sentDuring = sent - sentBefore
    flowing = false
    await flow
    expect(sentDuring).toBeGreaterThan(0)
    const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8')) as BackupManifest
    expect(manifest.engine).toBe(testEngine())
    expect(manifest.media).toMatchObject({ from: postgres ? 's3' : 'fs', missing: [] })
    expect(manifest.counts.users).toBe(4)
    expect(manifest.media.images).toBe(manifest.counts.uploads)
    expect(manifest.files.map(file => file.path)).toEqual(expect.arrayContaining([
      postgres ? 'database.pgdump' : 'database.sqlite', `media/${still.filename}`, `media/small/${voted[0]!.id}.webp`, ...(postgres ? [] : ['secrets.json']),
    ]))
    // Rows and secrets are readable by their owner only, as in the data dir.
    for (const file of ['', postgres ? 'database.pgdump' : 'database.sqlite', ...(postgres ? [] : ['secrets.json'])]) {
      expect((statSync(join(backupDir, file)).mode & 0o777).toString(8)).toBe(file ? '600' : '700')
    }
    expect(backedUp.stdout).toContain(`| uploads | ${manifest.counts.uploads} |`)
    expect(backedUp.stdout).toContain(`| votes | ${manifest.counts.votes} |`)

    // A backup folder that holds anything is refused.
    await expect(script('backup', siteEnv, '--to', backupDir)).rejects.toMatchObject({
      code: 1,
      stderr: `backup: The backup folder ${backupDir} is not empty (it holds database.${postgres ? 'pgdump, manifest.json, media' : 'sqlite, manifest.json, media, …'}): back up into a new or empty folder\n`,
    })

    // Restore into an empty target, and start the site on it.
    const restoredDir = join(work, 'restored')
    // Made beforehand for the service's account, as an operator would: the restore keeps its mode and owner.
    const root = process.getuid?.() === 0
    if (!postgres) {
      mkdirSync(restoredDir)
      chmodSync(restoredDir, 0o750)
      if (root) chownSync(restoredDir, 4242, 4242)
    }
    const targetUrl = postgres ? await createTestDatabase() : ''
    if (postgres) cleanup.push(() => dropTestDatabase(targetUrl))
    const restoredMediaEnv = s3 ? s3.env(await s3.createBucket()) : {}
    const target = postgres ? ['--to', targetUrl, '--media', 's3'] : ['--to', restoredDir]
    const restored = await script('restore', restoredMediaEnv, '--from', backupDir, ...target)
    expect(restored.stdout).toContain(`| users | 4 | 4 |`)
    expect(restored.stdout).toContain(`| uploads | ${manifest.counts.uploads} | ${manifest.counts.uploads} |`)
    expect(restored.stdout).toContain(`media: ${manifest.media.objects} file(s) written to`)
    if (!postgres) {
      expect(statSync(restoredDir).mode & 0o777).toBe(0o750)
      const owners = new Set([restoredDir, join(restoredDir, 'app.sqlite'), join(restoredDir, 'media', still.filename)].map(path => statSync(path).uid))
      expect([...owners]).toEqual([root ? 4242 : process.getuid!()])
    }
    const copy: RunningServer = postgres
      ? await startServer(restoredMediaEnv, { databaseUrl: targetUrl, dataDir: mkdtempSync(join(work, 'data-')) })
      : await startServer({}, { dataDir: restoredDir })
    cleanup.push(() => copy.stop({ keepData: true }))

    // The same sessions still work.
    for (const user of [alice, ...voters]) {
      const profile = await api('/api/profile', { token: user.token, baseURL: copy.url })
      expect(profile.status).toBe(200)
      expect(profile.body.user.id).toBe(user.id)
    }
    // The rows are one moment of the site: counts as the manifest says, every counter as its votes say.
    const { db } = databaseOf(copy)
    for (const table of ['users', 'sessions', 'uploads', 'votes', 'upload_tags']) {
      expect(Number((await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.raw(table)}`))!.n)).toBe(manifest.counts[table])
    }
    const uploads = await db.all<{ id: string, sha256: string }>(sql`SELECT id, sha256 FROM uploads ORDER BY id`)
    for (const upload of uploads) expect(await storedCounts(upload.id, copy)).toEqual(await countedVotes(upload.id, copy))
    // The image no vote touched answers exactly as on the original, which still runs.
    const detail = async (server: RunningServer) => (await api(`/api/upload/${still.id}`, { baseURL: server.url })).body
    expect(await detail(copy)).toEqual(await detail(original))
    // Every image byte for byte, and the derivative that existed.
    for (const upload of uploads) {
      const bytes = await imageBytes(copy.url, upload.id)
      expect(sha256(bytes)).toBe(upload.sha256)
      expect(bytes.equals(await imageBytes(original.url, upload.id))).toBe(true)
    }
    expect((await imageBytes(copy.url, voted[0]!.id, '?size=small')).equals(await imageBytes(original.url, voted[0]!.id, '?size=small'))).toBe(true)

    // A target that holds anything is refused before anything is written.
    await expect(script('restore', restoredMediaEnv, '--from', backupDir, ...target)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(postgres ? `restore: The target database ${targetUrl} is not empty (` : `restore: The data dir ${restoredDir} is not empty (`),
    })

    if (postgres) {
      // The same backup with the media put on disk instead, into a data dir that a start already made folders in.
      const onDisk = await createTestDatabase()
      cleanup.push(() => dropTestDatabase(onDisk))
      const dataDir = join(work, 'pg-data')
      mkdirSync(join(dataDir, 'media', 'thumbs'), { recursive: true })
      const toDisk = await script('restore', {}, '--from', backupDir, '--to', onDisk, '--data-dir', dataDir)
      expect(toDisk.stdout).toContain(`media: ${manifest.media.objects} file(s) written to ${join(dataDir, 'media')} and read back`)
      expect(readFileSync(join(dataDir, 'media', still.filename)).equals(await imageBytes(original.url, still.id))).toBe(true)
      // Every small size the backup holds (sizes are made ahead after each upload), that voted-on upload's among them.
      const smalls = manifest.files.map(file => file.path).filter(path => path.startsWith('media/small/')).map(path => path.slice('media/small/'.length))
      expect(smalls).toContain(`${voted[0]!.id}.webp`)
      expect(readdirSync(join(dataDir, 'media', 'small')).sort()).toEqual(smalls.sort())
    }

    // A tampered backup is refused, and the target stays empty.
    const image = join(backupDir, 'media', still.filename)
    const bytes = readFileSync(image)
    bytes[bytes.length - 1]! ^= 0xff
    writeFileSync(image, bytes)
    const second = postgres ? await createTestDatabase() : join(work, 'second')
    if (postgres) cleanup.push(() => dropTestDatabase(second))
    else mkdirSync(second)
    const secondMediaEnv = s3 ? s3.env(await s3.createBucket()) : {}
    await expect(script('restore', secondMediaEnv, '--from', backupDir, '--to', second, ...(postgres ? ['--media', 's3'] : []))).rejects.toMatchObject({
      code: 1,
      stderr: `restore: The backup in ${backupDir} does not match its manifest, nothing was restored: media/${still.filename} has another SHA-256 than the manifest says\n`,
    })
    const secondIsEmpty = async () => {
      if (postgres) {
        expect(await databaseOf({ dataDir: work, databaseUrl: second }).db.all(sql`SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`)).toEqual([])
        expect(await s3!.keys(secondMediaEnv.NUXT_S3_BUCKET!)).toEqual([])
      }
      else {
        expect(readdirSync(second)).toEqual([])
      }
      expect(readdirSync(work).filter(name => name.includes('.restoring-'))).toEqual([])
    }
    await secondIsEmpty()

    // A restore that fails after writing (here: the rows do not match the manifest's counts) removes what it wrote.
    bytes[bytes.length - 1]! ^= 0xff
    writeFileSync(image, bytes)
    writeFileSync(join(backupDir, 'manifest.json'), JSON.stringify({ ...manifest, counts: { ...manifest.counts, votes: manifest.counts.votes! + 1 } }))
    await expect(script('restore', secondMediaEnv, '--from', backupDir, '--to', second, ...(postgres ? ['--media', 's3'] : []))).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`restore: Row counts differ after the restore: votes ${manifest.counts.votes! + 1} → ${manifest.counts.votes}\n`),
    })
    await secondIsEmpty()
  }, 180_000)
})
