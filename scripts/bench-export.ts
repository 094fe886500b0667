/**
 * The data export under load: BENCH_EXPORTS (default 8) exports at once of an
 * account with BENCH_EXPORT_VOTES votes (default 100,000) against the built
 * server (`npm run build` first) on SQLite, while `/api/health` is asked in a
 * loop. Prints the server's resident memory before and its peak during the
 * exports (read from /proc), the longest health answer, each export's size
 * and time, and checks every document parses and holds every vote. Goals: the
 * peak less than 50 MB above the memory before, and health answered within
 * 50 ms (docs/performance.md, "The latest runs of the other benches").
 * BENCH_SERVER_LOG=1 shows the server's stdout (hidden by default).
 *
 *   npx tsx scripts/bench-export.ts
 */
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { get } from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { openMigrated } from './lib/database'
import { sql } from '../server/database/sql'
import { cpuMs, freePort } from '../tests/support/server'

const VOTES = Number(process.env.BENCH_EXPORT_VOTES ?? 100_000)
const EXPORTS = Number(process.env.BENCH_EXPORTS ?? 8)
const ROOT = resolve(import.meta.dirname, '..')

/** Asks the URL in a loop (one at a time, 20 ms apart, a new connection each) until stdin ends; prints the times in ms as JSON. */
const PROBE = `
const { get } = require('node:http')
const times = []
let running = true
process.stdin.on('end', () => { running = false }).resume()
;(async () => {
  while (running) {
    const started = performance.now()
    await new Promise((done) => get(process.argv[1], { agent: false }, (res) => res.resume().on('end', done)).on('error', done))
    times.push(performance.now() - started)
    await new Promise(r => setTimeout(r, 20))
  }
  process.stdout.write(JSON.stringify(times))
})()
`

/** Resident memory of a process in MB (VmRSS). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find(l => l.startsWith('VmRSS:'))!
  return Number(line.replace(/\D+/g, '')) / 1024
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'dif-bench-export-'))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, [join(ROOT, '.output/server/index.mjs')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), NUXT_DATA_DIR: dataDir, NUXT_PUBLIC_SITE_URL: url, NUXT_RATE_LIMIT_ENABLED: 'false', MALLOC_ARENA_MAX: '1' },
    stdio: ['ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore', 'inherit'],
  })
  try {
    for (let started = Date.now(); ;) {
      try {
        if ((await fetch(`${url}/robots.txt`)).status < 500) break
      }
      catch { /* not yet */ }
      if (Date.now() - started > 60_000) throw new Error('server did not start')
      await new Promise(r => setTimeout(r, 200))
    }
    const name = `exporter_${randomUUID().slice(0, 6)}`
    const registered = await fetch(`${url}/api/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'register', username: name, email: `${name}@bench.test`, password: 'correct horse battery' }) })
    const { user, token } = await registered.json() as { user: { id: string }, token: string }

    // The votes (and the uploads they are on), written beside the running server (SQLite WAL).
    const db = await openMigrated({ dataDir })
    const owner = randomUUID()
    await db.run(sql`INSERT INTO users (id, email, username) VALUES (${owner}, 'owner@bench.test', 'owner')`)
    for (let i = 0; i < VOTES; i += 1000) {
      await db.transaction(async (tx) => {
        const uploads = []
        const votes = []
        for (let k = i; k < Math.min(VOTES, i + 1000); k++) {
          const id = randomUUID()
          uploads.push(sql`(${id}, ${owner}, 'l', ${`Seeded upload number ${k}`}, 'link', 'https://example.com/', ${k % 2}, ${1 - (k % 2)})`)
          votes.push(sql`(${randomUUID()}, ${user.id}, ${id}, ${k % 2 ? 'fucks' : 'does_not_fuck'})`)
        }
        await tx.run(sql`INSERT INTO uploads (id, user_id, original_name, description, upload_type, external_url, upvotes, downvote_count) VALUES ${sql.join(uploads)}`)
        await tx.run(sql`INSERT INTO votes (id, user_id, upload_id, vote) VALUES ${sql.join(votes)}`)
      })
    }
    await db.close()

    /** One export read with node:http (the bytes counted and kept), parsed and checked once it is all in. */
    const exportOnce = () => new Promise<{ ms: number, bytes: number }>((done, fail) => {
      const started = performance.now()
      get(`${url}/api/profile/export`, { headers: { cookie: `auth-token=${token}` }, agent: false }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', fail)
        response.on('end', () => {
          const ms = performance.now() - started
          const text = Buffer.concat(chunks).toString('utf8')
          const data = JSON.parse(text) as { votes: unknown[] }
          if (response.statusCode !== 200 || data.votes.length !== VOTES) return fail(new Error(`export: ${response.statusCode}, ${data.votes.length} votes`))
          done({ ms, bytes: text.length })
        })
      }).on('error', fail)
    })
    // One first, so that code and caches are warm and the baseline is the server at rest after one export.
    await exportOnce()
    await new Promise(r => setTimeout(r, 1000))
    const before = rssMb(child.pid!)

    /** /api/health asked from a process of its own (so that reading the exports here does not delay it) while `during` runs. */
    async function probeHealth<T>(during: () => Promise<T>): Promise<{ result: T, times: number[] }> {
      const prober = spawn(process.execPath, ['-e', PROBE, `${url}/api/health`], { stdio: ['pipe', 'pipe', 'inherit'] })
      let probed = ''
      prober.stdout!.on('data', (chunk: Buffer) => {
        probed += chunk
      })
      await new Promise(r => setTimeout(r, 300))
      const result = await during()
      prober.stdin!.end()
      await new Promise(r => prober.once('exit', r))
      return { result, times: JSON.parse(probed) as number[] }
    }
    const stats = (times: number[]) => {
      const sorted = [...times].sort((a, b) => a - b)
      return `${times.length} answers, median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, `
        + `p99 ${sorted[Math.floor(sorted.length * 0.99)]!.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`
    }
    // The machine's own noise: the same probe with the server at rest.
    const { times: atRest } = await probeHealth(() => new Promise(r => setTimeout(r, 5000)))

    let peak = before
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(child.pid!))
    }, 10)
    const cpuBefore = cpuMs(child.pid!)
    const { result: runs, times: health } = await probeHealth(() => Promise.all(Array.from({ length: EXPORTS }, exportOnce)))
    clearInterval(sampler)
    const cpuUsed = cpuMs(child.pid!) - cpuBefore

    console.log(`${EXPORTS} exports at once of ${VOTES.toLocaleString('en')} votes: ${(runs[0]!.bytes / 1e6).toFixed(1)} MB each, `
      + `${Math.round(Math.min(...runs.map(r => r.ms)))}-${Math.round(Math.max(...runs.map(r => r.ms)))} ms`)
    console.log(`server CPU ${(cpuUsed / 1000).toFixed(1)} s for the ${EXPORTS} exports and the health answers`)
    console.log(`server RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB during (+${(peak - before).toFixed(0)} MB)`)
    console.log(`/api/health at rest:  ${stats(atRest)}`)
    console.log(`/api/health during:   ${stats(health)}`)
  }
  finally {
    child.kill('SIGTERM')
    await new Promise(r => child.once('exit', r))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
