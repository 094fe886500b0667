/**
 * Near-duplicate check at scale: the time one upload's
 * perceptual-hash check takes with N image rows (default 300,000;
 * BENCH_IMAGES changes it), before (the Hamming distance computed on every
 * image row) and after (four indexed 16-bit bands, distance on the few rows
 * sharing a band within one bit). Runs the queries in this process through
 * the same data-access port the server uses: on SQLite the query runs on the
 * main thread, so its time is also how long every other request stalls.
 * `BENCH_DATABASE_URL=postgres://…` measures PostgreSQL (an empty database).
 *
 *   npx tsx scripts/bench-duplicates.ts
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openMigrated } from './lib/database'
import { random } from './lib/seed'
import { dialects, sql } from '../server/database/sql'
import type { Database } from '../server/database/port'
import { PHASH_MAX_DISTANCE } from '../server/services/media'
import { findSimilarUpload } from '../server/services/uploads'

const IMAGES = Number(process.env.BENCH_IMAGES ?? 300_000)
const PROBES = 40

const rand = random(7)
const hex64 = () => Array.from({ length: 16 }, () => Math.floor(rand() * 16).toString(16)).join('')

/** `hash` with `bits` distinct bits flipped, spread over the four bands (2/2/1/1 for 6). */
function flipSpread(hash: string, bits: number): string {
  let value = BigInt(`0x${hash}`)
  for (let i = 0; i < bits; i++) value ^= 1n << BigInt((i % 4) * 16 + Math.floor(i / 4) * 5)
  return value.toString(16).padStart(16, '0')
}

/** The check as it was: the distance on every visible image row. */
async function fullScan(db: Database, userId: string, hash: string) {
  const distance = dialects({
    sqlite: sql`phash_distance(u.phash, ${hash})`,
    postgres: sql`bit_count(('x' || u.phash)::bit(64) # ('x' || ${hash})::bit(64))`,
  })
  return db.get<{ id: string }>(sql`SELECT u.id FROM uploads u WHERE u.phash IS NOT NULL AND (u.is_private = 0 OR u.user_id = ${userId})
    AND ${distance} <= ${PHASH_MAX_DISTANCE} ORDER BY u.created_at LIMIT 1`)
}

async function seed(db: Database): Promise<{ userId: string, hashes: string[] }> {
  const userId = randomUUID()
  await db.run(sql`INSERT INTO users (id, email, username) VALUES (${userId}, 'bench@bench.test', 'bench_duplicates')`)
  const hashes: string[] = []
  const started = performance.now()
  await db.transaction(async (tx) => {
    for (let i = 0; i < IMAGES; i += 500) {
      const rows = []
      for (let k = i; k < Math.min(IMAGES, i + 500); k++) {
        const id = randomUUID()
        const hash = hex64()
        hashes.push(hash)
        rows.push(sql`(${id}, ${userId}, ${`${id}.png`}, 'seed.png', 'seeded', 'image', 'image/png', ${randomBytes(32).toString('hex')}, ${hash}, ${k % 20 === 0 ? 1 : 0})`)
      }
      await tx.run(sql`INSERT INTO uploads (id, user_id, filename, original_name, description, upload_type, mime_type, sha256, phash, is_private)
        VALUES ${sql.join(rows)}`)
    }
  })
  console.log(`seeded ${IMAGES.toLocaleString('en')} image rows in ${((performance.now() - started) / 1000).toFixed(1)} s (${db.dialect})`)
  return { userId, hashes }
}

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  return `median ${at(0.5).toFixed(2)} ms, p90 ${at(0.9).toFixed(2)} ms, max ${sorted.at(-1)!.toFixed(2)} ms`
}

async function measure(name: string, probes: string[], check: (hash: string) => Promise<unknown>, expectFound: boolean[]) {
  const times: number[] = []
  for (const [i, hash] of probes.entries()) {
    const started = performance.now()
    const found = await check(hash)
    times.push(performance.now() - started)
    if (Boolean(found) !== expectFound[i]) throw new Error(`${name}: probe ${i} ${expectFound[i] ? 'missed a near duplicate' : 'found a false match'}`)
  }
  console.log(`${name.padEnd(34)} ${summary(times)}  (an upload checks twice)`)
}

async function main() {
  const url = process.env.BENCH_DATABASE_URL
  const dataDir = url ? '' : mkdtempSync(join(tmpdir(), 'dif-bench-dup-'))
  const db = await openMigrated({ url, dataDir })
  try {
    const { userId, hashes } = await seed(db)
    // Half new pictures, half copies 6 bits away (spread over all four bands) of stored ones.
    const probes: string[] = []
    const expectFound: boolean[] = []
    for (let i = 0; i < PROBES; i++) {
      const copy = i % 2 === 1
      probes.push(copy ? flipSpread(hashes[Math.floor(rand() * hashes.length)]!, 6) : hex64())
      expectFound.push(copy)
    }
    // A fresh random hash is (almost surely) more than 6 bits from all 300k: check that both agree.
    for (const [i, hash] of probes.entries()) if (!expectFound[i]) expectFound[i] = Boolean(await fullScan(db, userId, hash))
    await measure('before: distance on every row', probes, hash => fullScan(db, userId, hash), expectFound)
    await measure('after: indexed bands, then distance', probes, hash => findSimilarUpload(db, userId, hash), expectFound)
  }
  finally {
    if (url) {
      await db.run(sql`DELETE FROM uploads WHERE user_id IN (SELECT id FROM users WHERE username = 'bench_duplicates')`)
      await db.run(sql`DELETE FROM users WHERE username = 'bench_duplicates'`)
    }
    await db.close()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
