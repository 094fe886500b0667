/**
 * The admin report queue at scale: the time one page of
 * `GET /api/admin/reports` takes with many open reports (default 30,000 over
 * 12,000 uploads, beside 10,000 claimed and 20,000 resolved; BENCH_REPORTS
 * and BENCH_REPORT_UPLOADS change the open ones), for the first, a middle and
 * the last page, before (the query as it was: most reported first) and after
 * (`listReports`). Runs in this process through the same data-access port the
 * server uses; on SQLite the query runs on the main thread, so its time is
 * also how long every other request stalls.
 * `BENCH_DATABASE_URL=postgres://…` measures PostgreSQL (an empty database).
 *
 *   npm run bench:reports
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openMigrated } from './lib/database'
import { random } from './lib/seed'
import { sql } from '../server/database/sql'
import type { Database } from '../server/database/port'
import { listReports } from '../server/services/reports'
import { ENTRY_COLUMNS, withTags } from '../server/services/lists'
import type { ReportReason } from '../shared/utils/report-kinds'

const OPEN = Number(process.env.BENCH_REPORTS ?? 30_000)
const UPLOADS = Number(process.env.BENCH_REPORT_UPLOADS ?? 12_000)
const LIMIT = 20
const PROBES = 30
/** The query as it was takes up to seconds a page on PostgreSQL: fewer probes. */
const BEFORE_PROBES = 10

const rand = random(11)
/** Mostly spam, a few graver ones, as a real queue would be. */
const WEIGHTS: Record<ReportReason, number> = { spam: 50, other: 20, copyright: 12, harassment: 10, illegal: 5, minor_safety: 3 }
function reason(): string {
  let pick = rand() * 100
  for (const [name, weight] of Object.entries(WEIGHTS)) if ((pick -= weight) < 0) return name
  return 'spam'
}

/** The queue page as it was before: grouped, most reported first, the first report's reason. */
async function before(db: Database, status: string, page: number) {
  await db.get(sql`SELECT count(DISTINCT upload_id) AS total FROM reports WHERE status = ${status}`)
  const rows = await db.all<Parameters<typeof withTags>[1][number]>(sql`SELECT ${ENTRY_COLUMNS}, us.username, r.id AS report_id, r.reason, r.details, r.status,
      g.report_count, r.claimed_by, cu.username AS claimer_username, r.created_at AS report_created_at
    FROM (SELECT upload_id, count(*) AS report_count FROM reports WHERE status = ${status} GROUP BY upload_id) g
    JOIN reports r ON r.id = (SELECT f.id FROM reports f WHERE f.upload_id = g.upload_id AND f.status = ${status} ORDER BY f.created_at, f.id LIMIT 1)
    JOIN uploads u ON u.id = g.upload_id
    JOIN users us ON us.id = u.user_id
    LEFT JOIN users cu ON cu.id = r.claimed_by
    ORDER BY g.report_count DESC, r.created_at, r.id
    LIMIT ${LIMIT} OFFSET ${(page - 1) * LIMIT}`)
  return withTags(db, rows)
}

async function seed(db: Database): Promise<{ pages: number }> {
  const started = performance.now()
  const userId = randomUUID()
  const adminId = randomUUID()
  await db.run(sql`INSERT INTO users (id, email, username) VALUES (${userId}, 'bench@reports.test', 'bench_reports'),
    (${adminId}, 'admin@reports.test', 'bench_reports_admin')`)
  const uploadIds: string[] = []
  await db.transaction(async (tx) => {
    for (let i = 0; i < UPLOADS * 2; i += 500) {
      const rows = []
      for (let k = i; k < Math.min(UPLOADS * 2, i + 500); k++) {
        const id = randomUUID()
        uploadIds.push(id)
        rows.push(sql`(${id}, ${userId}, ${`${id}.png`}, 'seed.png', ${`Reported upload ${k}`}, 'image', 'image/png', ${randomBytes(32).toString('hex')})`)
      }
      await tx.run(sql`INSERT INTO uploads (id, user_id, filename, original_name, description, upload_type, mime_type, sha256) VALUES ${sql.join(rows)}`)
    }
    // Open reports on the first half of the uploads, claimed and resolved ones on the second half.
    const start = Date.parse('2026-01-01T00:00:00Z')
    const batches: { count: number, status: string, from: number }[] = [
      { count: OPEN, status: 'open', from: 0 },
      { count: Math.round(OPEN / 3), status: 'claimed', from: UPLOADS },
      { count: Math.round(OPEN * 2 / 3), status: 'resolved', from: UPLOADS },
    ]
    let n = 0
    for (const batch of batches) {
      for (let i = 0; i < batch.count; i += 500) {
        const rows = []
        for (let k = i; k < Math.min(batch.count, i + 500); k++) {
          // Every upload of the range gets one, then the rest land at random: groups of 1 to ~6.
          const uploadId = uploadIds[batch.from + (k < UPLOADS ? k : Math.floor(rand() * UPLOADS))]!
          const createdAt = new Date(start + (n++) * 1000).toISOString()
          const claimedBy = batch.status === 'open' ? null : adminId
          rows.push(sql`(${randomUUID()}, ${uploadId}, ${randomBytes(16).toString('hex')}, ${randomUUID()}, ${reason()}, ${k % 4 === 0 ? 'Some details' : null},
            ${batch.status}, ${claimedBy}, ${createdAt})`)
        }
        await tx.run(sql`INSERT INTO reports (id, upload_id, ip_hash, fingerprint, reason, details, status, claimed_by, created_at) VALUES ${sql.join(rows)}`)
      }
    }
  })
  const { groups } = (await db.get<{ groups: number }>(sql`SELECT count(DISTINCT upload_id) AS groups FROM reports WHERE status = 'open'`))!
  console.log(`seeded ${OPEN.toLocaleString('en')} open reports in ${Number(groups).toLocaleString('en')} groups (and ${OPEN.toLocaleString('en')} claimed or resolved) `
    + `in ${((performance.now() - started) / 1000).toFixed(1)} s (${db.dialect})`)
  return { pages: Math.ceil(Number(groups) / LIMIT) }
}

function median(times: number[]): number {
  return [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!
}

async function measure(run: () => Promise<unknown>, probes = PROBES): Promise<number> {
  await run()
  const times: number[] = []
  for (let i = 0; i < probes; i++) {
    const started = performance.now()
    await run()
    times.push(performance.now() - started)
  }
  return median(times)
}

async function main() {
  const url = process.env.BENCH_DATABASE_URL
  const dataDir = url ? '' : mkdtempSync(join(tmpdir(), 'dif-bench-reports-'))
  const db = await openMigrated({ url, dataDir })
  try {
    const { pages } = await seed(db)
    // As autovacuum leaves a table: the seed's upserts left a dead row version per report in report_groups.
    if (db.dialect === 'postgres') await db.run(sql`VACUUM ANALYZE`)
    for (const [name, page] of [['first page', 1], ['middle page', Math.ceil(pages / 2)], ['last page', pages]] as const) {
      const was = await measure(() => before(db, 'open', page), BEFORE_PROBES)
      const now = await measure(() => listReports(db, { status: 'open', page, limit: LIMIT }))
      console.log(`${`open, ${name} (${page})`.padEnd(26)} before ${was.toFixed(2).padStart(7)} ms   after ${now.toFixed(2).padStart(7)} ms   ratio ${(was / now).toFixed(1)}×  (medians of ${BEFORE_PROBES} and ${PROBES})`)
    }
    const claimed = await measure(() => listReports(db, { status: 'claimed', page: 1, limit: LIMIT }))
    console.log(`${'claimed, first page'.padEnd(26)} after ${claimed.toFixed(2).padStart(7)} ms`)
    // A page is five queries in three round trips: on a busy machine the trips, not the queries, take the time.
    const trip = await measure(() => db.get(sql`SELECT 1 AS one`))
    console.log(`${'reference: SELECT 1'.padEnd(26)}       ${trip.toFixed(2).padStart(7)} ms  (one round trip; a page waits for three)`)
    if (db.dialect === 'postgres') {
      const offset = (pages - 1) * LIMIT
      for (const [name, query] of [
        ['count', sql`SELECT count(*) FROM report_groups WHERE status = 'open'`],
        ['last page of groups', sql`SELECT upload_id FROM report_groups WHERE status = 'open' ORDER BY reason_rank, first_at, upload_id LIMIT ${LIMIT} OFFSET ${offset}`],
      ] as const) {
        const plan = await db.all<{ 'QUERY PLAN': string }>(sql`EXPLAIN ANALYZE ${query}`)
        const lines = plan.map(row => row['QUERY PLAN'])
        const scan = lines.find(line => line.includes('Scan'))?.trim().replace(/\s+\(cost=.*$/, '')
        console.log(`${`server time, ${name}`.padEnd(26)} ${lines.find(line => line.startsWith('Execution Time'))}  (${scan})`)
      }
    }
  }
  finally {
    if (url) {
      await db.run(sql`DELETE FROM uploads WHERE user_id IN (SELECT id FROM users WHERE username = 'bench_reports')`)
      await db.run(sql`DELETE FROM users WHERE username IN ('bench_reports', 'bench_reports_admin')`)
    }
    await db.close()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
