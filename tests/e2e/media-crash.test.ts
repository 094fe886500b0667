import { randomUUID } from 'node:crypto'
import { request } from 'node:http'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, registerUser } from '../support/api'
import { randomImage, uploadForm } from '../support/images'
import { databaseOf } from '../support/seed'
import { restartableDatabase } from '../support/postgres'
import { startServer, type RunningServer } from '../support/server'
import { postUpload, uploadImage } from '../support/uploads'
import { sharedServer } from '../support/shared-server'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dif-crash-'))
  dirs.push(dir)
  return dir
}

async function killHard(server: RunningServer): Promise<void> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return
  const exited = new Promise(resolve => server.process.once('exit', resolve))
  server.process.kill('SIGKILL')
  await exited
}

/** Regular files of a folder (none when it does not exist). */
const filesIn = (dir: string) => existsSync(dir) ? readdirSync(dir).filter(name => statSync(join(dir, name)).isFile()) : []

/**
 * What must hold after any crash and restart: no temporary or pending file,
 * every image row has its image and a thumbnail that answers 200, and every
 * media file belongs to a row.
 */
async function expectConsistentMedia(server: RunningServer) {
  const media = join(server.dataDir, 'media')
  const rows = await databaseOf(server).db.all<{ id: string, filename: string }>(sql`SELECT id, filename FROM uploads WHERE upload_type = 'image'`)
  expect(filesIn(join(server.dataDir, 'tmp'))).toEqual([])
  expect(filesIn(join(media, 'pending'))).toEqual([])
  expect([...filesIn(media), ...filesIn(join(media, 'thumbs'))].filter(name => name.endsWith('.tmp'))).toEqual([])
  expect(filesIn(media).sort()).toEqual(rows.map(row => row.filename).sort())
  for (const row of rows) {
    const thumb = await api(`/api/image/${row.id}?size=thumb`, { baseURL: server.url })
    expect(thumb.status, `thumbnail of ${row.id}`).toBe(200)
    expect(thumb.headers.get('content-type')).toBe('image/webp')
    expect((await api(`/api/image/${row.id}`, { baseURL: server.url })).status).toBe(200)
  }
  expect(filesIn(join(media, 'thumbs')).sort()).toEqual(rows.map(row => `${row.id}.webp`).sort())
  return rows.length
}

describe('media writes around a crash', () => {
  it('makes a lost thumbnail again on its first request', async () => {
    const user = await registerUser()
    const { id } = await uploadImage(user, { format: 'png' })
    const thumb = join(sharedServer().dataDir, 'media', 'thumbs', `${id}.webp`)
    unlinkSync(thumb)
    const response = await fetch(`${sharedServer().baseURL}/api/image/${id}?size=thumb`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/webp')
    const data = Buffer.from(await response.arrayBuffer())
    const info = await sharp(data).metadata()
    expect(info.format).toBe('webp')
    expect(Math.max(info.width, info.height)).toBeLessThanOrEqual(480)
    expect(existsSync(thumb)).toBe(true)
    expect((await api(`/api/image/${id}?size=thumb`)).status).toBe(200)
  })

  it('keeps nothing of an upload whose client gives up in the middle of the file', async () => {
    const dataDir = freshDataDir()
    const server = await startServer({}, { dataDir, databaseUrl: await restartableDatabase() })
    try {
      const user = await registerUser({}, server.url)
      // Noise does not compress: a PNG of about 2 MB, sent by halves.
      const png = await sharp({ create: { width: 840, height: 840, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 64 } } }).png().toBuffer()
      const form = new Request(server.url, { method: 'POST', body: uploadForm({ upload_type: 'image', description: 'given up' }, { data: png, name: 'noise.png', type: 'image/png' }) })
      const body = Buffer.from(await form.arrayBuffer())
      const sent = request(`${server.url}/api/upload`, {
        method: 'POST',
        headers: { 'content-type': form.headers.get('content-type')!, 'content-length': body.length, 'cookie': `auth-token=${user.token}` },
      })
      sent.on('error', () => {})
      sent.write(body.subarray(0, body.length >> 1))
      // The server is writing the file to its temporary folder; then the client goes away.
      await expect.poll(() => filesIn(join(dataDir, 'tmp')).length, { timeout: 10_000 }).toBe(1)
      sent.destroy()
      await expect.poll(() => filesIn(join(dataDir, 'tmp')), { timeout: 10_000 }).toEqual([])

      // No row, no file; the next upload of the same file goes through whole.
      const whole = await postUpload(user, { upload_type: 'image', description: 'sent whole' }, { data: png, name: 'noise.png', type: 'image/png' }, server.url)
      expect(whole.status).toBe(201)
      expect(whole.body.upload.description).toBe('sent whole')
      // Its temporary file goes once its answer is sent, a moment after the client has it.
      await expect.poll(() => filesIn(join(dataDir, 'tmp')), { timeout: 10_000 }).toEqual([])
      expect(await expectConsistentMedia(server)).toBe(1)
      // The request's log line says the client went away; nothing is logged as the server's error.
      expect(server.output()).toMatch(/"method":"POST","route":"\/api\/upload","status":499,[^\n]*"clientIp":"127\.0\.0\.1"/)
      expect(server.output()).not.toContain('[api] internal error')
    }
    finally {
      await server.stop()
    }
  })

  it('removes at start the files of an upload whose row never committed, and keeps a committed one\'s', async () => {
    const dataDir = freshDataDir()
    const databaseUrl = await restartableDatabase()
    let server = await startServer({}, { dataDir, databaseUrl })
    const user = await registerUser({}, server.url)
    const committed = (await postUpload(user, { upload_type: 'image', description: 'committed' }, { data: await randomImage('png'), name: 'a.png', type: 'image/png' }, server.url)).body.upload
    await server.stop({ keepData: true })

    // What a kill -9 leaves: files written, marker still there, row missing (or committed but marker not yet removed).
    const orphan = randomUUID()
    const media = join(dataDir, 'media')
    writeFileSync(join(media, `${orphan}.png`), await randomImage('png'))
    writeFileSync(join(media, 'thumbs', `${orphan}.webp`), Buffer.alloc(100, 1))
    mkdirSync(join(media, 'pending'), { recursive: true })
    writeFileSync(join(media, 'pending', orphan), `${orphan}.png`)
    writeFileSync(join(media, 'pending', committed.id), committed.filename)

    server = await startServer({}, { dataDir, databaseUrl })
    try {
      expect(server.output()).toContain('[start] removed the files of 1 upload(s) a crash interrupted')
      expect(existsSync(join(media, `${orphan}.png`))).toBe(false)
      expect(existsSync(join(media, 'thumbs', `${orphan}.webp`))).toBe(false)
      expect(await expectConsistentMedia(server)).toBe(1)
    }
    finally {
      await server.stop({ keepData: true })
    }
  })

  it('keeps every listed upload whole when the server is killed in the middle of uploads', async () => {
    const dataDir = freshDataDir()
    const databaseUrl = await restartableDatabase()
    let server = await startServer({}, { dataDir, databaseUrl })
    const user = await registerUser({}, server.url)
    let created = 0
    try {
      for (const [round, delay] of [0, 10, 25, 60].entries()) {
        const images = await Promise.all(Array.from({ length: 5 }, () => randomImage('png', { width: 320, height: 240 })))
        let answered!: () => void
        const firstAnswer = new Promise<void>((resolve) => {
          answered = resolve
        })
        const uploads = images.map(data => postUpload(user, { upload_type: 'image', description: `round ${round}` }, { data, name: 'a.png', type: 'image/png' }, server.url)
          .then((response) => {
            if (response.status === 201) created++
            answered()
          }, () => { /* cut off by the kill */ }))
        await Promise.race([firstAnswer, new Promise(r => setTimeout(r, 10_000))])
        await new Promise(r => setTimeout(r, delay))
        await killHard(server)
        await Promise.all(uploads)
        server = await startServer({}, { dataDir, databaseUrl })
        await expectConsistentMedia(server)
      }
      // Uploads did go through between the kills (each acknowledged one is listed whole).
      const rows = await databaseOf(server).db.get<{ n: number }>(sql`SELECT count(*) AS n FROM uploads`)
      expect(Number(rows!.n)).toBeGreaterThanOrEqual(created)
      expect(created).toBeGreaterThan(0)
    }
    finally {
      await server.stop({ keepData: true })
    }
  })
})
