import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { randomImage } from '../support/images'
import { restartableDatabase } from '../support/postgres'
import { startS3, type TestS3 } from '../support/s3'
import { databaseOf } from '../support/seed'
import { ROOT, startServer, testEngine, type RunningServer } from '../support/server'
import { startTcpProxy } from '../support/tcp-proxy'
import { postUpload, uploadImage } from '../support/uploads'

/**
 * Media never outlive their upload (docs/behaviour.md "Uploads and media"):
 * a deletion records its media's removal in the same transaction, and the
 * removal is retried until the store confirms it, whatever the store or the
 * process went through meanwhile.
 */

const run = promisify(execFile)
/** The bucket's answer time on these servers (NUXT_S3_ANSWER_SECONDS; 15 s by default): the waits below follow from it. */
const ANSWER_SECONDS = 5
const UNAVAILABLE = { statusCode: 503, statusMessage: 'Service Unavailable', message: 'Media storage is unavailable, please try again shortly' }
/** Every key an upload's media may have, once its sizes are made. */
const allKeys = (upload: { id: string, filename: string }) => [upload.filename, `display/${upload.id}.webp`, `medium/${upload.id}.webp`, `small/${upload.id}.webp`, `thumbs/${upload.id}.webp`].sort()

/** Polls `probe` until it answers true, for at most `ms`; answers the last result. */
async function eventually(probe: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  for (;;) {
    if (await probe()) return true
    if (Date.now() > deadline) return false
    await new Promise(resolve => setTimeout(resolve, 250))
  }
}

async function killHard(server: RunningServer): Promise<void> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return
  const exited = new Promise(resolve => server.process.once('exit', resolve))
  server.process.kill('SIGKILL')
  await exited
}

/** Asks for every derivative (made then, unless made ahead already): all five keys exist afterwards. */
async function askForSizes(server: RunningServer, id: string) {
  for (const size of ['small', 'medium', 'display']) expect((await fetch(`${server.url}/api/image/${id}?size=${size}`)).status).toBe(200)
}

const upload = (user: TestUser, server: RunningServer, description = 'in a bucket') => randomImage('png').then(data =>
  postUpload(user, { upload_type: 'image', description }, { data, name: 'a.png', type: 'image/png' }, server.url))

describe('media in a bucket that stalls or goes away', () => {
  let s3: TestS3
  let bucket: string
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>
  let server: RunningServer
  let user: TestUser
  const keysOf = async (id: string) => (await s3.keys(bucket)).filter(key => key.includes(id))

  beforeAll(async () => {
    s3 = await startS3()
    bucket = await s3.createBucket()
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port) })
    server = await startServer({ ...s3.env(bucket), NUXT_S3_ENDPOINT: `http://127.0.0.1:${proxy.port}`, NUXT_S3_ANSWER_SECONDS: String(ANSWER_SECONDS) })
    user = await registerUser({}, server.url)
  })

  afterAll(async () => {
    await server?.stop()
    await proxy?.close()
    await s3?.stop()
  })

  it('makes every size a page asks for right after the upload, in the background', async () => {
    const created = await Promise.all([1, 2, 3].map(() => upload(user, server)))
    expect(created.map(response => response.status)).toEqual([201, 201, 201])
    for (const { body } of created) {
      expect(await eventually(async () => (await keysOf(body.upload.id)).length === 5, 20_000)).toBe(true)
      expect(await keysOf(body.upload.id)).toEqual(allKeys(body.upload))
    }
    // Ready before they are asked for: served at once, and nothing new is made.
    const before = await s3.keys(bucket)
    for (const { body } of created) {
      for (const size of ['small', 'thumb', 'medium', 'display']) {
        const response = await fetch(`${server.url}/api/image/${body.upload.id}?size=${size}`)
        expect(response.status, size).toBe(200)
        expect(response.headers.get('content-type')).toBe('image/webp')
      }
    }
    expect(await s3.keys(bucket)).toEqual(before)
  })

  it('answers 200 to a delete while the bucket is down, and removes the objects once it is back', async () => {
    const created = (await upload(user, server)).body.upload
    await askForSizes(server, created.id)
    expect(await keysOf(created.id)).toEqual(allKeys(created))
    const { db } = databaseOf(server)
    await proxy.cut()
    try {
      const deleted = await api(`/api/upload/${created.id}`, { method: 'DELETE', token: user.token, baseURL: server.url })
      expect(deleted.status).toBe(200)
      expect(deleted.body).toEqual({ success: true })
      expect((await api(`/api/upload/${created.id}`, { baseURL: server.url })).status).toBe(404)
      const recorded = await db.get<{ filename: string, attempts: number }>(sql`SELECT filename, attempts FROM media_deletions WHERE upload_id = ${created.id}`)
      expect(recorded).toEqual({ filename: created.filename, attempts: 1 })
    }
    finally {
      await proxy.restore()
    }
    expect(await keysOf(created.id)).toEqual(allKeys(created))
    expect(await eventually(async () => (await keysOf(created.id)).length === 0, 30_000)).toBe(true)
    expect(await eventually(async () => (await db.get(sql`SELECT upload_id FROM media_deletions WHERE upload_id = ${created.id}`)) === undefined, 5_000)).toBe(true)
  })

  // The store gives up after its answer time by its own clock: Node's fetch can ignore the abort of a PUT on a stalled connection.
  it('answers 503 to an upload while the bucket stalls, and removes what the bucket wrote late once it answers', async () => {
    const before = await s3.keys(bucket)
    proxy.stall()
    let refused
    const started = Date.now()
    try {
      refused = await upload(user, server, 'stalled')
    }
    finally {
      proxy.resume()
    }
    expect(refused.status).toBe(503)
    // Given up on after the configured answer time, not the default 15 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(ANSWER_SECONDS * 1000)
    expect(Date.now() - started).toBeLessThan(12_000)
    expect(refused.body).toEqual({ ...UNAVAILABLE, requestId: refused.headers.get('x-request-id') })
    // The stalled write of the `pending/` marker lands once the bucket wakes (mostly at once); the sweep removes it soon after.
    // Judged on the objects of no upload: sizes of earlier uploads may still be made meanwhile.
    const { db } = databaseOf(server)
    const leftovers = async () => {
      const ids = (await db.all<{ id: string }>(sql`SELECT id FROM uploads`)).map(row => row.id)
      return (await s3.keys(bucket)).filter(key => !before.includes(key) && !ids.some(id => key.includes(id)))
    }
    await eventually(async () => (await s3.keys(bucket)).some(key => key.startsWith('pending/')), 5_000)
    expect(await eventually(async () => (await leftovers()).length === 0, 40_000)).toBe(true)
    // The recorded removal is due once a late write can have landed (the answer time after the failure), then swept (every 5 s);
    // the marker itself may have gone sooner, with the unfinished uploads the sweep reclaims.
    expect(await eventually(async () => Number((await databaseOf(server).db.get<{ n: number }>(sql`SELECT count(*) AS n FROM media_deletions`))!.n) === 0, 25_000)).toBe(true)
  }, 90_000)

  it('leaves nothing behind after kill -9 during an account deletion and a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dif-media-kill-'))
    const databaseUrl = await restartableDatabase()
    const env = { ...s3.env(bucket), NUXT_S3_ENDPOINT: `http://127.0.0.1:${proxy.port}`, NUXT_S3_ANSWER_SECONDS: String(ANSWER_SECONDS) }
    proxy.resume()
    let own = await startServer(env, { dataDir, databaseUrl })
    try {
      const owner = await registerUser({}, own.url)
      const uploads = []
      for (let n = 0; n < 3; n++) uploads.push((await upload(owner, own)).body.upload)
      for (const created of uploads) await askForSizes(own, created.id)
      // The bucket stalls: the deletion holds on the first upload's objects, and is killed there.
      proxy.stall()
      const deletion = api('/api/profile', { method: 'DELETE', body: { password: owner.password }, token: owner.token, baseURL: own.url }).catch(() => null)
      const { db } = databaseOf(own)
      expect(await eventually(async () => (await db.get(sql`SELECT upload_id FROM media_deletions`)) !== undefined, 10_000)).toBe(true)
      await killHard(own)
      await deletion
      // What the killed process had sent is lost with it (cut), not carried out late.
      await proxy.cut()
      proxy.resume()
      await proxy.restore()
      own = await startServer(env, { dataDir, databaseUrl })
      const left = await databaseOf(own).db.all<{ id: string }>(sql`SELECT id FROM uploads WHERE user_id = ${owner.id}`)
      expect(left.length).toBeLessThan(3)
      // Every deleted upload's objects go (the sweep of the restarted instance); the others stay whole.
      const gone = uploads.filter(created => !left.some(row => row.id === created.id))
      expect(await eventually(async () => {
        const keys = await s3.keys(bucket)
        return gone.every(created => !keys.some(key => key.includes(created.id)))
      }, 45_000)).toBe(true)
      for (const created of uploads.filter(created => !gone.includes(created))) expect(await keysOf(created.id)).toEqual(allKeys(created))
      expect(await eventually(async () => (await databaseOf(own).db.all(sql`SELECT upload_id FROM media_deletions`)).length === 0, 10_000)).toBe(true)
    }
    finally {
      proxy.resume()
      await own.stop({ keepData: true })
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})

describe('a derivative asked for while its upload is deleted', () => {
  // PostgreSQL: two instances sharing the database and a bucket; SQLite: the embedded site alone.
  let s3: TestS3 | undefined
  let servers: RunningServer[] = []
  let keys: (id: string) => Promise<string[]>

  beforeAll(async () => {
    if (testEngine() === 'postgres') {
      s3 = await startS3()
      const bucket = await s3.createBucket()
      const first = await startServer(s3.env(bucket))
      servers = [first, await startServer({ ...s3.env(bucket), NUXT_DATABASE_URL: first.databaseUrl })]
      keys = async id => (await s3!.keys(bucket)).filter(key => key.includes(id))
    }
    else {
      servers = [await startServer({})]
      const media = join(servers[0]!.dataDir, 'media')
      keys = async id => ['', 'small', 'thumbs', 'medium', 'display', 'pending'].flatMap(folder =>
        (existsSync(join(media, folder)) ? readdirSync(join(media, folder)) : []).filter(name => name.includes(id)).map(name => folder ? `${folder}/${name}` : name))
    }
  })

  afterAll(async () => {
    for (const server of [...servers].reverse()) await server.stop()
    await s3?.stop()
  })

  it('leaves no object behind, whichever finishes first', async () => {
    const [reader, deleter] = [servers[0]!, servers.at(-1)!]
    const user = await registerUser({}, reader.url)
    for (let round = 0; round < 4; round++) {
      const created = (await upload(user, reader, `race ${round}`)).body.upload
      const sizes = ['display', 'medium', 'small', 'thumb'].map(size => fetch(`${reader.url}/api/image/${created.id}?size=${size}`).then(response => response.status))
      await new Promise(resolve => setTimeout(resolve, round * 15))
      const deleted = await api(`/api/upload/${created.id}`, { method: 'DELETE', token: user.token, baseURL: deleter.url })
      expect(deleted.body).toEqual({ success: true })
      for (const status of await Promise.all(sizes)) expect([200, 404]).toContain(status)
      expect(await eventually(async () => (await keys(created.id)).length === 0, 10_000), `round ${round}: ${(await keys(created.id)).join()}`).toBe(true)
    }
  }, 90_000)
})

describe('npm run admin -- media-check', () => {
  // A site of its own: the shared one holds rows that other files write straight into the database.
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({})
  })
  afterAll(async () => {
    await server?.stop()
  })
  const admin = (...args: string[]) => run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/admin.ts'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NUXT_DATA_DIR: server.dataDir, ...(server.databaseUrl ? { NUXT_DATABASE_URL: server.databaseUrl } : {}) },
  }).then(result => ({ code: 0, ...result }), (error: { code: number, stdout: string, stderr: string }) => error)

  it('lists objects without an upload and uploads missing their image, and removes the orphans with --fix', async () => {
    const user = await registerUser({}, server.url)
    const kept = await uploadImage(user, { baseURL: server.url })
    const broken = await uploadImage(user, { baseURL: server.url })
    const media = join(server.dataDir, 'media')
    const brokenImage = readFileSync(join(media, broken.filename))
    const orphan = randomUUID()
    writeFileSync(join(media, `${orphan}.jpg`), Buffer.alloc(10, 1))
    writeFileSync(join(media, 'medium', `${orphan}.webp`), Buffer.alloc(10, 1))
    unlinkSync(join(media, broken.filename))

    const found = await admin('media-check')
    expect(found.code).toBe(1)
    expect(found.stdout).toContain(`orphan (no upload): ${orphan}.jpg\n`)
    expect(found.stdout).toContain(`orphan (no upload): medium/${orphan}.webp\n`)
    expect(found.stdout).toContain(`missing image: upload ${broken.id} has no ${broken.filename}\n`)
    expect(found.stdout).not.toContain(kept.id)
    expect(found.stdout).toMatch(/2 orphan object\(s\) \(run with --fix to remove them\); 1 upload\(s\) missing their image; 0 missing their thumbnail; \d+ small\/medium\/display size\(s\) not made yet/)

    const fixed = await admin('media-check', '--fix')
    expect(fixed.code).toBe(1)
    expect(fixed.stdout).toContain(`orphan (no upload): ${orphan}.jpg (removed)\n`)
    expect(existsSync(join(media, `${orphan}.jpg`))).toBe(false)
    expect(existsSync(join(media, 'medium', `${orphan}.webp`))).toBe(false)
    expect(existsSync(join(media, kept.filename))).toBe(true)

    writeFileSync(join(media, broken.filename), brokenImage)
    const clean = await admin('media-check')
    expect(clean.stdout).toMatch(/\b0 orphan object\(s\); 0 upload\(s\) missing their image/)
    expect(clean.code).toBe(0)

    const usage = await admin('media-check', '--force')
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('media-check --fix')
  }, 60_000)
})
