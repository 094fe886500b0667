/**
 * Upload and media benchmark against the built server on 127.0.0.1
 * (`npm run build` first; run with `npx tsx scripts/bench-uploads.ts`).
 *
 * 1. POST /api/upload throughput with distinct ~2 MB JPEGs (autocannon).
 * 2. GET /api/image/{id} (full and thumbnail) throughput and latency (wrk when
 *    installed, else autocannon), next to node:http streaming the same bytes from
 *    a file with the same headers.
 * 3. Peak RSS (VmHWM) of a fresh server while 4 uploads of ~10 MB run at once;
 *    must stay under 300 MB.
 *
 * Bounded in count and time; talks only to the server it starts.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import sharp from 'sharp'
import { startServer, type RunningServer } from '../tests/support/server'
import { BENCH_SERVER_ENV, captureAnswer, startReference, type FixedAnswers } from './lib/bench-reference'
import { hasWrk, loadGet, median, type LoadResult } from './lib/load'

const MB = 1024 * 1024
/** Turns each side of an image scenario takes; each keeps its median run. */
const ROUNDS = 3
const RSS_LIMIT_MB = 300

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

async function register(server: RunningServer): Promise<string> {
  const response = await fetch(`${server.url}/api/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'register', email: `bench-${randomBytes(4).toString('hex')}@bench.test`, username: `bench_${randomBytes(4).toString('hex')}`, password: 'benchmark password' }),
  })
  return ((await response.json()) as { token: string }).token
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
  const server = await startServer({ ...BENCH_SERVER_ENV, ...(process.env.BENCH_MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.BENCH_MALLOC_ARENA_MAX } : {}) })
  try {
    const token = await register(server)
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
  const server = await startServer({ ...BENCH_SERVER_ENV, ...(process.env.BENCH_MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.BENCH_MALLOC_ARENA_MAX } : {}) })
  try {
    const token = await register(server)
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

if (process.env.BENCH_ONLY !== 'rss') await uploadThroughput(Number(process.env.BENCH_UPLOADS ?? 24))
await peakRss()
