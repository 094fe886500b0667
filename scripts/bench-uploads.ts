/**
 * Upload and media benchmark against the built server on 127.0.0.1
 * (`npm run build` first; run with `npx tsx scripts/bench-uploads.ts`).
 *
 * 1. The upload rows, each held to a reference on the same engine, taking
 *    turns ROUNDS times (median run kept), on a small seeded site
 *    (BENCH_SEED_UPLOADS, default 1000):
 *    - a link (POST /api/upload, `upload_type` link, signed in, a distinct URL
 *      and description and 5-10 tags each) at >= 0.50 of a minimal node:http
 *      server doing the same write (scripts/lib/bench-minimal-uploads.ts),
 *      BENCH_CONNECTIONS (32) connections for BENCH_DURATION (5) seconds each;
 *    - an image (POST /api/upload multipart, a distinct photo-like JPEG each)
 *      at >= 0.80 of sharp alone doing our pipeline's work before the 201 on
 *      the same files, BENCH_IMAGE_CONCURRENCY (2) uploads (jobs) at once.
 * 2. POST /api/upload throughput with distinct ~2 MB JPEGs (autocannon).
 * 3. GET /api/image/{id} (full and thumbnail) throughput and latency (wrk when
 *    installed, else autocannon), next to node:http streaming the same bytes from
 *    a file with the same headers.
 * 4. Peak RSS (VmHWM) of a fresh server while BENCH_PARALLEL (4) uploads of
 *    ~10 MB run at once; must stay under 300 MB.
 *
 * On SQLite by default; on PostgreSQL with BENCH_DATABASE_URL (seeded when it
 * has no uploads yet). BENCH_ONLY picks parts, `|` between them: `link`,
 * `image` (the rows of 1), `throughput` (2 and 3), `rss` (4).
 * BENCH_MALLOC_ARENA_MAX sets our server's MALLOC_ARENA_MAX and sharp
 * alone's (1 when unset, as `npm start` runs it).
 * Bounded in count and time; talks only to the servers it starts.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os'
import { Agent, request } from 'node:http'
import { join } from 'node:path'
import autocannon from 'autocannon'
import sharp from 'sharp'
import { openDatabase } from '../server/database/connection'
import type { Database } from '../server/database/port'
import { sql } from '../server/database/sql'
import { startServer, type RunningServer } from '../tests/support/server'
import { BENCH_SERVER_ENV, captureAnswer, startReference, type FixedAnswers } from './lib/bench-reference'
import { runSharpAlone, startMinimalUploads, type SharpRun } from './lib/bench-minimal-uploads'
import { needsSeed } from './lib/database'
import { hasWrk, loadGet, loadWrite, median, type LoadResult, type WriteRequest } from './lib/load'
import { random } from './lib/seed'
import { seedDatabase } from './seed'

const MB = 1024 * 1024
/** Turns each side of a scenario takes; each keeps its median run. */
const ROUNDS = 3
const RSS_LIMIT_MB = 300
/** PostgreSQL when set, else SQLite (each server's own data dir, or the seeded one). */
const DATABASE_URL = process.env.BENCH_DATABASE_URL || undefined
const ENGINE = DATABASE_URL ? 'postgres' : 'sqlite'
/** Our server as every part runs it, on the chosen engine. */
const SITE_ENV: Record<string, string> = {
  ...BENCH_SERVER_ENV,
  ...(process.env.BENCH_MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.BENCH_MALLOC_ARENA_MAX } : {}),
  ...(DATABASE_URL ? { NUXT_DATABASE_URL: DATABASE_URL } : {}),
}
/** Seconds of each measured run of the upload rows, and connections of the link row. */
const DURATION = Number(process.env.BENCH_DURATION ?? 5)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
/** Image uploads sent at once, and jobs sharp alone runs at once: as many as the machine's cores. */
const IMAGE_CONCURRENCY = Number(process.env.BENCH_IMAGE_CONCURRENCY ?? 2)

/** A JPEG of noise close to (and not over) `targetBytes`. */
async function noiseJpeg(targetBytes: number): Promise<Buffer> {
  let side = Math.round(Math.sqrt(targetBytes / 1.2))
  for (;;) {
    const width = Math.round(side * 1.25)
    const height = side
    const pixels = randomBytes(width * height * 3)
    const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer()
    if (jpeg.length <= targetBytes && jpeg.length > targetBytes * 0.85) return jpeg
    side = Math.round(side * Math.sqrt(targetBytes * 0.95 / jpeg.length))
  }
}

/** A ready multipart body (autocannon sends raw bytes). */
function multipart(fields: Record<string, string>, file: Buffer, name: string) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`
  const parts: Buffer[] = Object.entries(fields).map(([key, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`))
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/jpeg\r\n\r\n`), file, Buffer.from(`\r\n--${boundary}--\r\n`))
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` }
}

/** Kept-alive connections for the image uploads: node:http sends a ready body with the least work on this side. */
const uploadAgent = new Agent({ keepAlive: true, maxSockets: 16 })

/** POSTs `body` and reads the whole answer; resolves with its status. */
function postBody(url: string, headers: Record<string, string>, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: 'POST', agent: uploadAgent, headers: { ...headers, 'content-length': String(body.length) } }, (response) => {
      response.on('data', () => {})
      response.on('end', () => resolve(response.statusCode ?? 0))
      response.on('error', reject)
    })
    sent.on('error', reject)
    sent.end(body)
  })
}

async function register(server: RunningServer): Promise<{ token: string, userId: string }> {
  const response = await fetch(`${server.url}/api/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'register', email: `bench-${randomBytes(4).toString('hex')}@bench.test`, username: `bench_${randomBytes(4).toString('hex')}`, password: 'benchmark password' }),
  })
  const { token, user } = (await response.json()) as { token: string, user: { id: string } }
  return { token, userId: user.id }
}

function vmHwmMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(status.match(/VmHWM:\s+(\d+) kB/)![1]) / 1024
}

function vmRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(status.match(/VmRSS:\s+(\d+) kB/)![1]) / 1024
}

async function uploadThroughput(count: number) {
  const server = await startServer(SITE_ENV, { engine: ENGINE })
  try {
    const { token } = await register(server)
    const images = await Promise.all(Array.from({ length: count }, () => noiseJpeg(2 * MB)))
    const bodies = images.map((image, i) => multipart({ upload_type: 'image', description: `bench ${i}` }, image, `bench-${i}.jpg`))
    let next = 0
    const started = Date.now()
    const result = await autocannon({
      url: server.url,
      connections: 2,
      amount: count,
      requests: [{
        method: 'POST',
        path: '/api/upload',
        setupRequest: (request) => {
          const { body, contentType } = bodies[next++ % bodies.length]!
          return { ...request, body, headers: { ...request.headers, 'cookie': `auth-token=${token}`, 'content-type': contentType } }
        },
      }],
    })
    const created = result['2xx']
    console.log(`upload 2 MB JPEG: ${created}/${count} created, ${(created / (result.duration)).toFixed(1)} uploads/s, `
      + `${(images.reduce((s, i) => s + i.length, 0) / count / MB).toFixed(2)} MB each, latency p50 ${result.latency.p50} ms p99 ${result.latency.p99} ms`)
    // The 201 does not wait for the other sizes: they are made in the background afterwards. Counted here
    // until the last one is written, so that work is in the figure, and out of the way of the image runs below.
    const displays = join(server.dataDir, 'media', 'display')
    const deadline = Date.now() + 120_000
    while ((existsSync(displays) ? readdirSync(displays).filter(name => name.endsWith('.webp')).length : 0) < created && Date.now() < deadline) {
      await new Promise(resolve => setTimeout(resolve, 100))
    }
    const withSizes = (Date.now() - started) / 1000
    const ready = readdirSync(displays).filter(name => name.endsWith('.webp')).length
    console.log(`upload 2 MB JPEG with every size made (background work included): ${(ready / withSizes).toFixed(2)} uploads/s, `
      + `${ready}/${created} ready ${withSizes.toFixed(1)} s after the first request`)

    const served = multipart({ upload_type: 'image', description: 'served' }, await noiseJpeg(200 * 1024), 'served.jpg')
    const upload = await fetch(`${server.url}/api/upload`, { method: 'POST', headers: { 'cookie': `auth-token=${token}`, 'content-type': served.contentType }, body: served.body })
    const id = ((await upload.json()) as { upload?: { id: string } }).upload?.id
    if (!id) throw new Error('could not create the image to serve')
    // The reference: node:http streaming the same bytes from a file, with the same headers.
    const files = mkdtempSync(join(tmpdir(), 'dif-bench-fs-'))
    const paths = { [`/api/image/${id}`]: 'full', [`/api/image/${id}?size=thumb`]: 'thumb' }
    const answers: FixedAnswers = {}
    for (const [path, name] of Object.entries(paths)) {
      const answer = await captureAnswer(server.url, path)
      writeFileSync(join(files, name), Buffer.from(answer.body!, 'base64'))
      answers[path] = { status: answer.status, headers: answer.headers, file: join(files, name) }
    }
    const reference = await startReference('fs', answers)
    const useWrk = await hasWrk()
    const rows: string[] = []
    try {
      for (const path of Object.keys(paths)) {
        // Ours and the reference take turns ROUNDS times (who goes first alternates), and
        // each side keeps its median run: one run each swung 2x with the machine's speed.
        const oursRuns: LoadResult[] = []
        const fsRuns: LoadResult[] = []
        for (let round = 0; round < ROUNDS; round++) {
          const sides = [[oursRuns, server.url], [fsRuns, reference.url]] as const
          for (const [runs, url] of round % 2 ? [...sides].reverse() : sides) runs.push(await loadGet(`${url}${path}`, { connections: 10, seconds: 5, wrk: useWrk }))
        }
        const [ours, fs] = [median(oursRuns), median(fsRuns)]
        const ratio = ours.rps / fs.rps
        const met = ratio >= 0.8 && ours.p99 < 20 ? 'met' : 'MISSED'
        rows.push(`| GET ${path.replace(id, '{id}')} | ${(Number(answers[path]!.headers['content-length']) / 1024).toFixed(0)} KB | ${ours.rps.toFixed(0)} | ${ours.p99.toFixed(1)} | ${fs.rps.toFixed(0)} | ${fs.p99.toFixed(1)} | ${ratio.toFixed(2)} | ${met}${ours.bad ? ` (${ours.bad} failed)` : ''} |`)
      }
    }
    finally {
      await reference.stop()
      rmSync(files, { recursive: true, force: true })
    }
    console.log(`\nImages, 10 connections, ${ROUNDS} turns of 5 s each side (median run kept), load from ${useWrk ? 'wrk' : 'autocannon (install wrk: autocannon caps large answers, see scripts/lib/load.ts)'}; held to >= 0.80 of node:http streaming the same file, p99 < 20 ms:\n`)
    console.log('| path | size | req/s | p99 ms | node:http + fs stream req/s | its p99 ms | ratio | goal |')
    console.log('|---|---:|---:|---:|---:|---:|---:|---|')
    for (const row of rows) console.log(row)
  }
  finally {
    await server.stop()
  }
}

async function peakRss() {
  const server = await startServer(SITE_ENV, { engine: ENGINE })
  try {
    const { token } = await register(server)
    const images = await Promise.all(Array.from({ length: Number(process.env.BENCH_PARALLEL ?? 4) }, () => noiseJpeg(10 * MB - 64 * 1024)))
    const pid = server.process.pid!
    const before = vmRssMb(pid)
    const statuses = await Promise.all(images.map((image, i) => {
      const { body, contentType } = multipart({ upload_type: 'image', description: `large ${i}` }, image, `large-${i}.jpg`)
      return fetch(`${server.url}/api/upload`, { method: 'POST', headers: { 'cookie': `auth-token=${token}`, 'content-type': contentType }, body }).then(async (r) => {
        await r.arrayBuffer()
        return r.status
      })
    }))
    const peak = vmHwmMb(pid)
    console.log(`${images.length} concurrent uploads of ${(images[0]!.length / MB).toFixed(2)} MB: statuses ${statuses.join(',')}, RSS before ${before.toFixed(0)} MB, peak RSS ${peak.toFixed(0)} MB (limit ${RSS_LIMIT_MB} MB)`)
    if (peak >= RSS_LIMIT_MB) process.exitCode = 1
  }
  finally {
    await server.stop()
  }
}

/** What the upload rows print: ours and the reference, each side's median run. */
interface UploadRow {
  name: string
  unit: string
  ours: { rate: number, p99: number }
  reference: { name: string, rate: number, p99: number }
  goal: number
  runs: string
  bad: number
}

/**
 * The upload rows (1 in the header) on one server of ours over a small
 * seeded site: the link row, then the image row.
 */
async function uploadRows(chosen: { link: boolean, image: boolean }) {
  const seedUploads = Number(process.env.BENCH_SEED_UPLOADS ?? 1000)
  const dataDir = mkdtempSync(join(tmpdir(), 'dif-bench-uploads-'))
  const target = { url: DATABASE_URL, dataDir }
  if (await needsSeed(target)) {
    console.info(`Seeding ${seedUploads} uploads into ${DATABASE_URL ? 'PostgreSQL' : dataDir} ...`)
    await seedDatabase(target, { uploads: seedUploads })
  }
  const wrk = await hasWrk()
  const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${availableParallelism()} cores, Node ${process.versions.node}, load average ${loadavg()[0]!.toFixed(1)} at start`
  const server = await startServer(SITE_ENV, { dataDir, engine: ENGINE })
  const db = openDatabase({ url: DATABASE_URL, sqliteFile: join(dataDir, 'app.sqlite') })
  const rows: UploadRow[] = []
  try {
    const user = await register(server)
    if (chosen.link) rows.push(await linkRow(server, db, dataDir, user, wrk))
    if (chosen.image) rows.push(await imageRow(server, user.token))
  }
  finally {
    await db.close()
    await server.stop({ keepData: true })
    rmSync(dataDir, { recursive: true, force: true })
  }
  console.info(`\nUploads on ${DATABASE_URL ? 'PostgreSQL' : 'SQLite'}, ${seedUploads} seeded uploads, rate limiter on; ${machine}. `
    + `Links: ${CONNECTIONS} connections, ${ROUNDS} turns of ${DURATION} s each side (median run kept), load from ${wrk ? 'wrk (one thread)' : 'autocannon'}. `
    + `Images: ${IMAGE_CONCURRENCY} at once, ${ROUNDS} turns of ${DURATION} s each side (median run kept).\n`)
  console.info('| upload | ours | p99 ms | reference | its rate | its p99 ms | ratio | goal |')
  console.info('|---|---:|---:|---|---:|---:|---:|---|')
  for (const row of rows) {
    const ratio = row.ours.rate / row.reference.rate
    console.info(`| ${row.name} | ${row.ours.rate.toFixed(row.ours.rate < 100 ? 2 : 0)} ${row.unit} | ${row.ours.p99.toFixed(1)} | ${row.reference.name} | ${row.reference.rate.toFixed(row.reference.rate < 100 ? 2 : 0)} | ${row.reference.p99.toFixed(1)} `
      + `| ${ratio.toFixed(2)} | >= ${row.goal.toFixed(2)} ${ratio >= row.goal ? 'met' : 'MISSED'}${row.bad ? ` (${row.bad} failed)` : ''} |`)
  }
  console.info('')
  for (const row of rows) console.info(`${row.name}: ${row.runs}`)
}

/** The multipart boundary of every link form (the run's Content-Type names it). */
const LINK_BOUNDARY = '----DifBenchLinkForm'

/** A link upload's form as the site's upload form sends it: type, URL, description and tags. */
function linkForm(fields: Record<string, string>): string {
  return Object.entries(fields).map(([name, value]) => `--${LINK_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') + `--${LINK_BOUNDARY}--\r\n`
}

/**
 * Link uploads, each with a URL and description of its own and 5 to 10 of
 * the site's tags (the commoner ones more often, as the seed uses them), for
 * both sides alike; each run takes fresh ones.
 */
function linkRequests(tagNames: string[]) {
  const next = random(7)
  let n = 0
  const one = (): WriteRequest => {
    n++
    const count = 5 + Math.floor(next() * 6)
    const tags = new Set<string>()
    while (tags.size < count) tags.add(tagNames[Math.floor(tagNames.length * next() ** 2)]!)
    const body = linkForm({
      upload_type: 'link',
      external_url: `https://example.com/articles/${n}-${Math.floor(next() * 1e9).toString(36)}?ref=bench`,
      description: `Bench link ${n}: does ${Math.floor(next() * 1e6).toString(36)} fuck? Read this one and vote.`,
      tags: [...tags].join(','),
    })
    return { method: 'POST', path: '/api/upload', body }
  }
  // Generous: neither side gets through this many a second, so none is sent twice.
  return { perSecond: 4000, take: (count: number) => Array.from({ length: count }, one) }
}

/** One link upload to `url`, checked: 201 with the created row. */
async function checkLink(url: string, headers: Record<string, string>, body: string, label: string) {
  const response = await fetch(`${url}/api/upload`, { method: 'POST', headers, body })
  const answer = await response.json() as { upload?: { id?: string, uploadType?: string, externalUrl?: string } }
  if (response.status !== 201 || answer.upload?.uploadType !== 'link' || !answer.upload.externalUrl) throw new Error(`${label} answered a link upload with ${response.status}: ${JSON.stringify(answer)}`)
}

async function linkRow(server: RunningServer, db: Database, dataDir: string, user: { token: string, userId: string }, wrk: boolean): Promise<UploadRow> {
  const session = (await db.get<{ id: string, userId: string, expiresAt: string }>(sql`SELECT id, user_id AS "userId", expires_at AS "expiresAt" FROM sessions WHERE user_id = ${user.userId}`))!
  const secrets = DATABASE_URL
    ? Object.fromEntries((await db.all<{ name: string, value: string }>(sql`SELECT name, value FROM app_secrets`)).map(row => [row.name, row.value]))
    : JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as Record<string, string>
  const tags = await db.all<{ id: string, name: string, slug: string }>(sql`SELECT id, name, slug FROM tags`)
  const minimal = await startMinimalUploads({
    databaseUrl: DATABASE_URL,
    dataDir,
    secret: secrets.sessionSecret!,
    session,
    uploadIds: (await db.all<{ id: string }>(sql`SELECT id FROM uploads`)).map(row => row.id),
    tags,
    links: await db.all<{ uploadId: string, tagId: string, position: number }>(sql`SELECT upload_id AS "uploadId", tag_id AS "tagId", position FROM upload_tags`),
  })
  try {
    // The seed's tags, in its order: `tag 0` is the commonest.
    const names = tags.map(tag => tag.name).sort((a, b) => Number(a.split(' ')[1]) - Number(b.split(' ')[1]))
    const requests = linkRequests(names)
    const headers = { 'cookie': `auth-token=${user.token}`, 'content-type': `multipart/form-data; boundary=${LINK_BOUNDARY}` }
    for (const [url, label] of [[server.url, 'our server'], [minimal.url, 'the minimal reference']] as const) await checkLink(url, headers, requests.take(1)[0]!.body!, label)
    // On PostgreSQL every run starts from vacuumed tables: each tag upsert leaves a dead version of its tag row (see scripts/bench.ts).
    const settle = async () => {
      if (db.dialect === 'postgres') await db.exec('VACUUM')
    }
    const oursRuns: LoadResult[] = []
    const minimalRuns: LoadResult[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const sides = [[oursRuns, server.url], [minimalRuns, minimal.url]] as const
      for (const [runs, url] of round % 2 ? [...sides].reverse() : sides) {
        await settle()
        runs.push(await loadWrite(`${url}/api/upload`, { connections: CONNECTIONS, seconds: DURATION, headers, wrk, requests }))
      }
    }
    const [ours, reference] = [median(oursRuns), median(minimalRuns)]
    const list = (runs: LoadResult[]) => runs.map(run => run.rps.toFixed(0)).join(' / ')
    return {
      name: 'POST /api/upload, link with 5-10 tags',
      unit: 'req/s',
      ours: { rate: ours.rps, p99: ours.p99 },
      reference: { name: 'minimal node:http write', rate: reference.rps, p99: reference.p99 },
      goal: 0.5,
      runs: `ours ${list(oursRuns)} req/s, minimal write ${list(minimalRuns)} req/s`,
      bad: [...oursRuns, ...minimalRuns].reduce((sum, run) => sum + run.bad, 0),
    }
  }
  finally {
    await minimal.stop()
  }
}

/** Width and height of the bench's photos as stored (turned upright by their EXIF orientation), about 2 MB each. */
const PHOTO = { width: 3000, height: 2000 }
/** Where the photos are kept between runs (each run's uploads need distinct ones; making one takes about half a second). */
const PHOTO_DIR = join(tmpdir(), `dif-bench-photos-${PHOTO.width}x${PHOTO.height}-v2`)

/**
 * A photo-like JPEG of its own: smooth shapes, finer detail and sensor
 * grain (random, so no two are near duplicates), quality 90, with EXIF
 * saying it was taken turned (orientation 6), as a phone held upright
 * stores a picture, so orienting it is work.
 */
async function photoJpeg(): Promise<Buffer> {
  const { width, height } = PHOTO
  const layer = (w: number, h: number) => sharp(randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } }).resize(width, height, { kernel: 'cubic' }).raw().toBuffer()
  const [shapes, detail] = await Promise.all([layer(24, 16), layer(600, 400)])
  const grain = randomBytes(shapes.length)
  for (let i = 0; i < shapes.length; i++) shapes[i] = Math.max(0, Math.min(255, shapes[i]! * 0.65 + detail[i]! * 0.35 + (grain[i]! % 25) - 12))
  return sharp(shapes, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: 'Bench', Model: 'Photo 1' } }).withMetadata({ orientation: 6 }).toBuffer()
}

/** The first `count` photos (made when missing), as files. */
async function photos(count: number): Promise<string[]> {
  mkdirSync(PHOTO_DIR, { recursive: true })
  const files = Array.from({ length: count }, (_, i) => join(PHOTO_DIR, `photo-${i}.jpg`))
  for (const file of files) if (!existsSync(file)) writeFileSync(file, await photoJpeg())
  return files
}

/** What one run of image uploads measured. */
interface ImageRun extends SharpRun {
  bad: number
  statuses: Set<number>
}

/**
 * `IMAGE_CONCURRENCY` connections each upload the next photo of `files`
 * (from `from`) until `seconds` are up (or `each` uploads each); uploads/s
 * counts the 201s over the time until the last answer.
 */
async function uploadImages(server: RunningServer, token: string, files: string[], from: { next: number }, seconds: number, each = Infinity): Promise<ImageRun> {
  const times: number[] = []
  const statuses = new Set<number>()
  let bad = 0
  const started = performance.now()
  const end = started + seconds * 1000
  await Promise.all(Array.from({ length: IMAGE_CONCURRENCY }, async () => {
    for (let sent = 0; sent < each && performance.now() < end; sent++) {
      const i = from.next++
      if (i >= files.length) throw new Error(`Out of photos after ${files.length}: raise the count made in imageRow`)
      const { body, contentType } = multipart({ upload_type: 'image', description: `Bench photo ${i}` }, readFileSync(files[i]!), `photo-${i}.jpg`)
      const start = performance.now()
      const status = await postBody(`${server.url}/api/upload`, { 'cookie': `auth-token=${token}`, 'content-type': contentType }, body)
      if (status === 201) times.push(performance.now() - start)
      else {
        bad++
        statuses.add(status)
      }
    }
  }))
  const elapsed = (performance.now() - started) / 1000
  times.sort((a, b) => a - b)
  return { done: times.length, seconds: elapsed, p50: times[Math.floor(times.length / 2)] ?? 0, p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] ?? 0, bad, statuses }
}

/** Waits (up to two minutes) until every size of `created` image uploads has been made after their 201s. */
async function derivativesMade(server: RunningServer, created: number) {
  const displays = join(server.dataDir, 'media', 'display')
  const made = () => existsSync(displays) ? readdirSync(displays).filter(name => name.endsWith('.webp')).length : 0
  const deadline = Date.now() + 120_000
  while (made() < created && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 100))
}

/**
 * Ours and sharp alone take turns (sharp first, to size the photos ours
 * needs). Our server makes the other sizes of each upload after its 201, in
 * the background; a turn of ours is over at its last answer, and the next
 * turn starts once those sizes are made, so neither side's turn carries
 * that work (the throughput part counts it).
 */
async function imageRow(server: RunningServer, token: string): Promise<UploadRow> {
  // The reference goes round these; ours takes a new one each upload.
  const shared = await photos(16)
  const sharpEnv = { MALLOC_ARENA_MAX: SITE_ENV.MALLOC_ARENA_MAX ?? '1' }
  const oursRuns: ImageRun[] = []
  const sharpRuns: SharpRun[] = []
  const from = { next: 0 }
  let files = shared
  let created = 0
  for (let round = 0; round < ROUNDS; round++) {
    const sides = round % 2 ? ['ours', 'sharp'] : ['sharp', 'ours']
    for (const side of sides) {
      if (side === 'sharp') {
        sharpRuns.push(await runSharpAlone(shared, IMAGE_CONCURRENCY, DURATION, sharpEnv))
        continue
      }
      if (files === shared) {
        // Photos for every turn of ours and its warm-up, were it a third faster than sharp alone.
        const rate = sharpRuns[0]!.done / sharpRuns[0]!.seconds
        files = await photos(Math.ceil(rate * 1.33 * (ROUNDS * DURATION + 2)) + 4 * IMAGE_CONCURRENCY)
        // Warm-up, not counted: each connection's first upload.
        const warm = await uploadImages(server, token, files, from, 60, 1)
        if (warm.bad) throw new Error(`The warm-up image uploads failed: ${[...warm.statuses].join(', ')}`)
        created += warm.done
        await derivativesMade(server, created)
      }
      const run = await uploadImages(server, token, files, from, DURATION)
      oursRuns.push(run)
      created += run.done
      await derivativesMade(server, created)
    }
  }
  const rate = (run: SharpRun) => run.done / run.seconds
  const middle = <T extends SharpRun>(runs: T[]) => [...runs].sort((a, b) => rate(a) - rate(b))[Math.floor(runs.length / 2)]!
  const [ours, alone] = [middle(oursRuns), middle(sharpRuns)]
  const list = (runs: SharpRun[]) => runs.map(run => `${rate(run).toFixed(2)} (p50 ${run.p50.toFixed(0)} ms)`).join(' / ')
  const bad = oursRuns.reduce((sum, run) => sum + run.bad, 0)
  const statuses = new Set(oursRuns.flatMap(run => [...run.statuses]))
  return {
    name: `POST /api/upload, ${PHOTO.width}×${PHOTO.height} JPEG (${(readFileSync(shared[0]!).length / MB).toFixed(1)} MB)`,
    unit: 'uploads/s',
    ours: { rate: rate(ours), p99: ours.p99 },
    reference: { name: `sharp alone, ${IMAGE_CONCURRENCY} jobs at once`, rate: rate(alone), p99: alone.p99 },
    goal: 0.8,
    runs: `ours ${list(oursRuns)} uploads/s, sharp alone ${list(sharpRuns)} images/s${bad ? `; failed answers: ${[...statuses].join(', ')}` : ''}`,
    bad,
  }
}

const only = process.env.BENCH_ONLY?.split('|')
const part = (name: string) => !only || only.includes(name)
if (part('link') || part('image')) await uploadRows({ link: part('link'), image: part('image') })
if (part('throughput')) await uploadThroughput(Number(process.env.BENCH_UPLOADS ?? 24))
if (part('rss')) await peakRss()
