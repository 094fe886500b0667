/**
 * `npm run bench:duels`: This or That's uncached SQL at scale. Seeds public
 * images (strengths spread around 1500) and judgements by many judges into a
 * database of its own, then times GET /api/duel/next for a judge with many
 * judgements, a fresh account and a visitor, a judgement (POST /api/duel), and
 * page 1 of the leaderboard, through the services, list cache off. Goal: next
 * under 5 ms at 100,000 images and 1,000,000 judgements.
 *
 * Env: BENCH_DUEL_IMAGES (default 100000), BENCH_DUEL_JUDGEMENTS (default
 * 1000000), BENCH_DUEL_JUDGES (default 10000), BENCH_DATABASE_URL (a
 * PostgreSQL database to seed, emptied first; default a temporary SQLite),
 * BENCH_DUEL_DIR (keep the SQLite database there, and reuse it when seeded).
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database, Executor } from '../server/database/port'
import { inList, sql } from '../server/database/sql'
import { duelKey, duelLeaderboard, judgeDuel, nextDuel, openDuel, type DuelJudge } from '../server/services/duels'
import { setListCacheEnabled } from '../server/services/list-cache'
import { openMigrated } from './lib/database'
import { random } from './lib/seed'

const IMAGES = Number(process.env.BENCH_DUEL_IMAGES ?? 100_000)
const JUDGEMENTS = Number(process.env.BENCH_DUEL_JUDGEMENTS ?? 1_000_000)
const JUDGES = Number(process.env.BENCH_DUEL_JUDGES ?? 10_000)
const RUNS = 300
const BATCH = 1000

async function insertBatches(db: Executor, total: number, row: (i: number) => unknown[], into: string) {
  for (let start = 0; start < total; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, total - start) }, (_, i) => sql`(${sql.join(row(start + i).map(value => sql`${value}`))})`)
    await db.run(sql`INSERT INTO ${sql.raw(into)} VALUES ${sql.join(rows)} ON CONFLICT DO NOTHING`)
  }
}

async function seed(db: Database, next: () => number) {
  const owner = randomUUID()
  await db.run(sql`INSERT INTO users (id, username) VALUES (${owner}, 'duel_bench')`)
  const ids = Array.from({ length: IMAGES }, () => randomUUID())
  const day = Date.now() - 400 * 86400_000
  await db.transaction(async (tx) => {
    await insertBatches(tx, IMAGES, i => [ids[i], owner, `${ids[i]}.png`, 'p.png', `Image ${i}`, 'image', new Date(day + i * 300_000).toISOString()],
      'uploads (id, user_id, filename, original_name, description, upload_type, created_at)')
    // Each image's standing row is made by its upload's trigger; the strengths spread as judgements would spread them.
    for (let start = 0; start < IMAGES; start += BATCH) {
      const batch = ids.slice(start, start + BATCH).map(id => ({ id, strength: 1500 + (next() + next() + next() - 1.5) * 300, wins: Math.floor(next() * 20), losses: Math.floor(next() * 20) }))
      const of = (column: 'strength' | 'wins' | 'losses', type: string) =>
        sql`CASE upload_id ${sql.join(batch.map(row => sql`WHEN ${row.id} THEN CAST(${row[column]} AS ${sql.raw(type)})`), ' ')} END`
      await tx.run(sql`UPDATE duel_standings SET strength = ${of('strength', 'double precision')}, wins = ${of('wins', 'integer')}, losses = ${of('losses', 'integer')}
        WHERE upload_id ${inList(batch.map(row => row.id))}`)
    }
  })
  const judges = Array.from({ length: JUDGES }, () => randomUUID())
  await db.transaction(async (tx) => {
    await insertBatches(tx, JUDGES, i => [judges[i], `duel_judge_${i}`], 'users (id, username)')
  })
  await db.transaction(async (tx) => {
    await insertBatches(tx, JUDGEMENTS, () => {
      const a = ids[Math.floor(next() * IMAGES)]!
      let b = ids[Math.floor(next() * IMAGES)]!
      if (b === a) b = ids[(ids.indexOf(a) + 1) % IMAGES]!
      return [randomUUID(), a < b ? a : b, a < b ? b : a, judges[Math.floor(next() * JUDGES)], next() < 0.5 ? 'low' : 'high', 1]
    }, 'duel_judgements (id, low_id, high_id, user_id, winner, counted)')
  })
  return { ids, judges }
}

async function median(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await run()
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now()
    await run()
    times.push(performance.now() - start)
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!
}

async function main() {
  const kept = process.env.BENCH_DUEL_DIR
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'dif-bench-duels-'))
  const url = process.env.BENCH_DATABASE_URL
  const db = await openMigrated({ url, dataDir: dir })
  setListCacheEnabled(false)
  try {
    let judges = (await db.all<{ id: string }>(sql`SELECT id FROM users WHERE username LIKE 'duel_judge_%' ORDER BY id`)).map(row => row.id)
    if (judges.length === 0 || url) {
      if (url) await db.run(sql`TRUNCATE users CASCADE`)
      // The seed's random index keys want a page cache larger than the default (256 MB while seeding).
      if (db.dialect === 'sqlite') await db.exec('PRAGMA cache_size = -262144')
      const started = performance.now()
      judges = (await seed(db, random(44))).judges
      console.info(`Seeded ${IMAGES.toLocaleString('en')} images, ${JUDGEMENTS.toLocaleString('en')} judgements in ${((performance.now() - started) / 1000).toFixed(1)} s`)
      // VACUUM too on PostgreSQL: the standings were written twice, and reads should find them settled, as a live site's autovacuum leaves them.
      await db.exec(db.dialect === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE')
      if (db.dialect === 'sqlite') await db.exec('PRAGMA cache_size = -2000')
    }
    const key = duelKey('b'.repeat(48))
    const busy = (await db.get<{ user_id: string }>(sql`SELECT user_id FROM duel_judgements GROUP BY user_id ORDER BY count(*) DESC LIMIT 1`))!.user_id
    const fresh = judges.at(-1)!
    await db.run(sql`DELETE FROM duel_judgements WHERE user_id = ${fresh}`)
    const visitor: DuelJudge = { ipHash: 'h'.repeat(64), fingerprint: 'fp-bench-visitor' }
    const rows: [string, number][] = []
    rows.push(['GET /api/duel/next (the busiest judge)', await median(() => nextDuel(db, key, { userId: busy }))])
    rows.push(['GET /api/duel/next (a fresh account)', await median(() => nextDuel(db, key, { userId: fresh }))])
    rows.push(['GET /api/duel/next (a visitor)', await median(() => nextDuel(db, key, visitor))])
    rows.push(['GET /api/duels/leaderboard (page 1)', await median(() => duelLeaderboard(db, { page: 1, limit: 20, period: 'all' }))])
    // Judgements alone: duels handed out first to fresh visitors, then judged one after another.
    const duels = await Promise.all(Array.from({ length: RUNS }, async (_, i) => {
      const judge = { ipHash: `bench-ip-${i}`, fingerprint: `fp-bench-${i}` }
      return { judge, duel: await nextDuel(db, key, judge) }
    }))
    const times: number[] = []
    for (const { judge, duel } of duels) {
      const start = performance.now()
      await judgeDuel(db, judge, openDuel(key, duel.duelId!, judge), 'left')
      times.push(performance.now() - start)
    }
    rows.push(['POST /api/duel (a visitor\'s first judgement)', times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!])
    console.info(`\n${url ? 'PostgreSQL' : 'SQLite'}, uncached, median of ${RUNS} calls in ms; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load ${loadavg()[0]!.toFixed(1)}\n`)
    console.info('| call | ms |\n|---|---:|')
    for (const [name, ms] of rows) console.info(`| ${name} | ${ms.toFixed(3)} |`)
  }
  finally {
    await db.close()
    if (!kept) rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
