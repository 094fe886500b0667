/**
 * Main-thread stalls (work that holds the event loop makes every other
 * request wait), measured in this process through the same services the
 * server runs, on an embedded SQLite database:
 *
 * 1. a shadow-ban whose recount covers 30,000 uploads (BENCH_RECOUNT_VOTES);
 * 2. ten MFA set-ups at once (secret, QR code, backup codes);
 * 3. ten argon2id password hashes at once.
 *
 * For each, over BENCH_ROUNDS runs (default 5): the wall time and the
 * longest the event loop went without running a 1 ms timer, which is how
 * long any other request would wait. On a busy machine the gaps also hold
 * time the process was not scheduled: compare the minimum across runs.
 *
 *   npx tsx scripts/bench-stalls.ts
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openMigrated } from './lib/database'
import { sql } from '../server/database/sql'
import { hashPassword } from '../server/services/accounts'
import { setShadowBan } from '../server/services/admin'
import { setupMfa } from '../server/services/mfa'
import { useTotpKey } from '../server/services/totp-secrets'

const VOTES = Number(process.env.BENCH_RECOUNT_VOTES ?? 30_000)

/** Runs `work` while a 1 ms timer ticks; answers its time and the longest gap between ticks. */
async function stall(work: () => Promise<unknown>): Promise<{ ms: number, longestStallMs: number }> {
  let last = performance.now()
  let longest = 0
  let ticking = true
  const tick = () => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
    if (ticking) setTimeout(tick, 1)
  }
  setTimeout(tick, 1)
  const started = performance.now()
  await work()
  const ms = performance.now() - started
  ticking = false
  await new Promise(r => setTimeout(r, 5))
  return { ms, longestStallMs: longest }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** `rounds` runs of `work`; prints the median wall time and the median and smallest of the longest stalls. */
async function repeat(name: string, rounds: number, work: (round: number) => Promise<unknown>) {
  const runs = []
  for (let k = 0; k < rounds; k++) runs.push(await stall(() => work(k)))
  const stalls = runs.map(run => run.longestStallMs)
  console.log(`${name.padEnd(40)} total median ${median(runs.map(run => run.ms)).toFixed(1).padStart(7)} ms;`
    + ` longest stall median ${median(stalls).toFixed(1).padStart(6)} ms, min ${Math.min(...stalls).toFixed(1).padStart(6)} ms (${rounds} runs)`)
}

async function main() {
  useTotpKey(randomUUID())
  const dataDir = mkdtempSync(join(tmpdir(), 'dif-bench-stalls-'))
  const db = await openMigrated({ dataDir })
  try {
    const banned = randomUUID()
    const owner = randomUUID()
    await db.run(sql`INSERT INTO users (id, email, username) VALUES (${banned}, 'banned@bench.test', 'banned'), (${owner}, 'owner@bench.test', 'owner')`)
    await db.transaction(async (tx) => {
      for (let i = 0; i < VOTES; i += 500) {
        const uploads = []
        const votes = []
        for (let k = i; k < Math.min(VOTES, i + 500); k++) {
          const id = randomUUID()
          uploads.push(sql`(${id}, ${owner}, 'l', 'seeded', 'link', 'https://example.com/', ${k % 3 === 0 ? 1 : 0}, 0)`)
          votes.push(sql`(${randomUUID()}, ${banned}, ${id}, ${k % 3 === 0 ? 'fucks' : 'does_not_fuck'})`)
        }
        await tx.run(sql`INSERT INTO uploads (id, user_id, original_name, description, upload_type, external_url, upvotes, downvote_count) VALUES ${sql.join(uploads)}`)
        await tx.run(sql`INSERT INTO votes (id, user_id, upload_id, vote) VALUES ${sql.join(votes)}`)
      }
    })
    const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
    await repeat(`shadow-ban + recount of ${VOTES.toLocaleString('en')} uploads`, rounds, k => setShadowBan(db, { id: randomUUID() }, banned, k % 2 === 0))

    const users = Array.from({ length: 11 }, () => randomUUID())
    for (const [i, id] of users.entries()) await db.run(sql`INSERT INTO users (id, email, username) VALUES (${id}, ${`mfa${i}@bench.test`}, ${`mfa_${i}`})`)
    // Warm: the first set-up and hash load their libraries, as a running server's first request does.
    await setupMfa(db, users.pop()!)
    await hashPassword('warming up')
    await repeat('ten MFA set-ups at once', rounds, () => Promise.all(users.map(id => setupMfa(db, id))))
    await repeat('ten argon2id hashes at once', rounds, () => Promise.all(users.map((_, i) => hashPassword(`password number ${i}`))))
  }
  finally {
    await db.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
