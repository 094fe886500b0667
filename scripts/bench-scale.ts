/**
 * `npm run bench:scale`: the uncached SQL of every read scenario of the
 * benchmark (page 1 of each list, sort and period, page 500, the tag filter, a
 * user's uploads, the top-voted strip, the search language's queries) at
 * growing sizes, each size seeded once into a database of its own, so a cost
 * that grows with the data shows. Goals: the largest size within 1.5× of the
 * smallest; every list under 1 ms and every search under 5 ms at every size;
 * page 500 within 2× of page 1. Timed through the data-access port, list cache
 * off, the sizes taking turns call by call, five rounds each timing every
 * scenario, in each of BENCH_SCALE_PROCESSES processes (3) started one after
 * the other once the sizes are seeded, each cell the median of theirs. A
 * statement's floor, `SELECT 1` through the same port, is timed the same way
 * and printed after them: it moves with the machine's speed, which the goals'
 * milliseconds do not.
 *
 * Env: BENCH_SCALE (sizes, default 1000,10000,100000,1000000),
 * BENCH_VOTES_PER_UPLOAD (default 10), BENCH_ONLY (substring of scenario
 * names), BENCH_SCALE_DIR (keep the SQLite databases there and reuse them;
 * default a temp dir removed at the end), BENCH_DATABASE_URL (a PostgreSQL
 * superuser URL: one database per size, `dif_scale_<size>`, created and seeded
 * when missing, kept for reuse).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import type { Database } from '../server/database/port'
import { sql } from '../server/database/sql'
import { setListCacheEnabled } from '../server/services/list-cache'
import { needsSeed, openMigrated } from './lib/database'
import { periodScenarios, READ_CALL, scenarios, type BenchContext, type Scenario } from './lib/bench-scenarios'
import { searchScenarios } from './lib/bench-search-scenarios'
import { seedDatabase } from './seed'

const RUNS = 200
const ROUNDS = 5

/** The middle item by `value` (the upper one of an even count): calls, rounds and processes alike. */
function medianBy<T>(items: T[], value: (item: T) => number): T {
  return items.sort((a, b) => value(a) - value(b))[Math.floor(items.length / 2)]!
}
const itself = (ms: number) => ms

/** The database of one size: a PostgreSQL database of its own (created when missing) or a SQLite dir. */
async function targetFor(size: number, dir: string): Promise<{ url?: string, dataDir: string }> {
  const adminUrl = process.env.BENCH_DATABASE_URL
  if (!adminUrl) return { dataDir: join(dir, String(size)) }
  const name = `dif_scale_${size}`
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`)
  }
  finally {
    await client.end()
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return { url: url.toString(), dataDir: dir }
}

/**
 * Each size is measured once its writes are on disk: the WAL
 * checkpointed (SQLite) or a checkpoint taken (PostgreSQL), then the page
 * cache flushed. Measured while the kernel was still writing back the seed of
 * 1,000,000 uploads (7.3 GB), page 500 took 0.117 ms and page 1 0.062; the
 * same database read later, with the test suite running beside it, 0.065 and
 * 0.044, as at 100,000 uploads.
 */
async function settle(db: Database): Promise<void> {
  await db.exec(db.dialect === 'postgres' ? 'CHECKPOINT' : 'PRAGMA wal_checkpoint(TRUNCATE)')
  execFileSync('sync')
}

/** The entries of a list answer (`uploads` or `items`). */
const entriesOf = (answer: unknown) => ((answer as { uploads?: unknown[], items?: unknown[] }).uploads ?? (answer as { items?: unknown[] }).items ?? []).length

/**
 * Median of RUNS calls of the scenario's service call at each size, in ms, and the
 * entries each answers, after 20 calls each to warm up. The sizes take turns call by
 * call, so each is timed under the same conditions: a round trip to PostgreSQL alone
 * (`SELECT 1`) took 0.029 to 0.087 ms over one minute in one process, as much as the
 * cheapest scenarios cost, and timed one size after the other the top-voted strip read
 * 0.063-0.211 ms at 1,000 uploads and 0.066-0.134 at 1,000,000.
 */
async function measureScenario(dbs: Database[], scenario: Scenario, ctx: BenchContext): Promise<{ ms: number, entries: number }[]> {
  const url = new URL(scenario.path, 'http://127.0.0.1')
  for (const db of dbs) {
    for (let i = 0; i < 20; i++) await scenario.baseline(db, url, ctx, undefined, READ_CALL)
  }
  const times: number[][] = dbs.map(() => [])
  const entries: number[] = dbs.map(() => 0)
  for (let i = 0; i < RUNS; i++) {
    for (const [at, db] of dbs.entries()) {
      const start = performance.now()
      entries[at] = entriesOf(await scenario.baseline(db, url, ctx, undefined, READ_CALL))
      times[at]!.push(performance.now() - start)
    }
  }
  return times.map((list, at) => ({ ms: medianBy(list, itself), entries: entries[at]! }))
}

/** The cheapest statement there is, through the same port: a round trip's (or a call's) floor on the day. */
const FLOOR: Scenario = {
  name: 'SELECT 1 (the floor)',
  method: 'GET',
  path: '/',
  read: true,
  baseline: async db => ({ items: [await db.get(sql`SELECT 1 AS one`)] }),
}

type Timing = { ms: number, entries: number }

/**
 * Processes that measure, one after the other, each cell the median of
 * theirs: one process is one draw (a build can run at two speeds from one
 * start to the next, docs/performance.md, "Profiling"). One run of SQLite on
 * 7 Dec read two tags at 1.018 ms and a month by top at 0.960 at 1,000,000
 * uploads; the next two runs, 0.589 and 0.655, 0.497 and 0.508.
 */
const PROCESSES = Number(process.env.BENCH_SCALE_PROCESSES ?? 3)

/** A child's work: every chosen scenario timed at every size, written as JSON to `out`. */
async function measureAll(targets: { url?: string, dataDir: string }[], chosen: Scenario[], out: string) {
  // A read needs no signed-in user; the context only satisfies the scenario type.
  const ctx: BenchContext = { token: '', uploadIds: [], actor: { id: '', username: '', email: '', isAdmin: false, shadowBanned: false } }
  setListCacheEnabled(false)
  const dbs: Database[] = []
  try {
    for (const target of targets) dbs.push(await openMigrated(target))
    // Each scenario is timed ROUNDS times, and each size keeps the median of its rounds. A round
    // times every scenario, so the rounds of each are spread over the whole process: the
    // machine's speed moves for seconds at a time, and timed in a block of its own, a scenario
    // read as fast or as slow as the moment it was given.
    const measured = [FLOOR, ...chosen]
    const rounds: Timing[][][] = measured.map(() => dbs.map(() => []))
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, scenario] of measured.entries()) {
        for (const [at, time] of (await measureScenario(dbs, scenario, ctx)).entries()) rounds[index]![at]!.push(time)
      }
    }
    const results = measured.map((scenario, index) => [scenario.name, rounds[index]!.map(times => medianBy(times, time => time.ms))])
    writeFileSync(out, JSON.stringify(results))
  }
  finally {
    for (const db of dbs) await db.close()
  }
}

async function main() {
  const sizes = (process.env.BENCH_SCALE ?? '1000,10000,100000,1000000').split(',').map(Number)
  if (sizes.some(size => !Number.isInteger(size) || size < 1)) throw new Error('BENCH_SCALE must be sizes like 1000,10000')
  if (!Number.isInteger(PROCESSES) || PROCESSES < 1) throw new Error('BENCH_SCALE_PROCESSES must be a whole number of at least 1')
  const votesPerUpload = Number(process.env.BENCH_VOTES_PER_UPLOAD ?? 10)
  const dir = process.env.BENCH_SCALE_DIR ?? mkdtempSync(join(tmpdir(), 'dif-scale-'))
  const only = process.env.BENCH_ONLY
  const chosen = [...scenarios.filter(s => s.read), ...periodScenarios, ...searchScenarios].filter(s => !only || s.name.includes(only))
  const targets = await Promise.all(sizes.map(size => targetFor(size, dir)))
  const measuring = process.env.BENCH_SCALE_MEASURE
  if (measuring) return measureAll(targets, chosen, measuring)

  const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${availableParallelism()} cores, Node ${process.versions.node}, load average ${loadavg()[0]!.toFixed(1)} at start`
  const draws: Map<string, Timing[]>[] = []
  try {
    for (const [at, size] of sizes.entries()) {
      const target = targets[at]!
      if (await needsSeed(target)) {
        console.info(`Seeding ${size} uploads, ${size * votesPerUpload} votes ...`)
        const seeded = await seedDatabase(target, { uploads: size, votes: size * votesPerUpload })
        console.info(`  done in ${seeded.seconds.toFixed(1)} s`)
      }
      const db = await openMigrated(target)
      try {
        await settle(db)
      }
      finally {
        await db.close()
      }
    }
    for (let draw = 0; draw < PROCESSES; draw++) {
      const out = join(dir, `measured-${draw}.json`)
      execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename], { env: { ...process.env, BENCH_SCALE_DIR: dir, BENCH_SCALE_MEASURE: out }, stdio: 'inherit' })
      draws.push(new Map(JSON.parse(readFileSync(out, 'utf8')) as [string, Timing[]][]))
      rmSync(out)
      console.info(`  ${sizes.map(size => size.toLocaleString('en')).join(', ')} uploads measured in process ${draw + 1} of ${PROCESSES}`)
    }
  }
  finally {
    if (!process.env.BENCH_SCALE_DIR) rmSync(dir, { recursive: true, force: true })
  }
  const results = new Map([...draws[0]!.keys()].map(name => [name, sizes.map((_, at) => ({
    ms: medianBy(draws.map(draw => draw.get(name)![at]!.ms), itself),
    entries: draws[0]!.get(name)![at]!.entries,
  }))]))
  const floor = results.get(FLOOR.name)!
  results.delete(FLOOR.name)

  console.info(`\n${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}, uncached SQL, in ms: the median of ${PROCESSES} processes' medians of ${ROUNDS} rounds' medians of ${RUNS} calls, ${votesPerUpload} votes per upload; ${machine}\n`)
  console.info('A size whose page is shorter than the largest size\'s (a period with few uploads yet, page 500 of 1,000) is')
  console.info('not a fair start: growth is measured from the smallest size answering as many entries as the largest.\n')
  console.info(`| scenario | ${sizes.map(size => `${size.toLocaleString('en')} uploads`).join(' | ')} | growth | goal (≤ 1.5) |`)
  console.info(`|---|${sizes.map(() => '---:').join('|')}|---:|---|`)
  for (const [name, times] of results) {
    const last = times.at(-1)!
    const start = times.find(time => time.entries === last.entries)!
    const growth = last.ms / start.ms
    const cells = times.map(time => `${time.ms.toFixed(3)}${time.entries === last.entries ? '' : ` (${time.entries})`}`)
    console.info(`| ${name} | ${cells.join(' | ')} | ${growth.toFixed(2)} | ${growth <= 1.5 ? 'met' : 'MISSED'} |`)
  }
  const first = results.get('GET /api/uploads (page 1)')
  const deep = results.get('GET /api/uploads (page 500)')
  if (first && deep) console.info(`\nPage 500 / page 1: ${sizes.map((size, i) => `${size.toLocaleString('en')}: ${(deep[i]!.ms / first[i]!.ms).toFixed(2)}`).join(', ')} (goal ≤ 2)`)
  const filtered = results.get('GET /api/uploads/filtered (one tag)')
  const searched = results.get('GET /api/search (one tag)')
  if (filtered && searched) console.info(`Search one tag / filtered one tag: ${sizes.map((size, i) => `${size.toLocaleString('en')}: ${(searched[i]!.ms / filtered[i]!.ms).toFixed(2)}`).join(', ')} (goal ≤ 1.5)`)
  const over = (search: boolean, ms: number) => [...results]
    .filter(([name, times]) => name.startsWith('GET /api/search') === search && times.some(time => time.ms >= ms))
    .map(([name, times]) => `${name} (${times.map(time => time.ms.toFixed(3)).join(', ')})`)
  const slowLists = over(false, 1)
  const slowSearch = over(true, 5)
  if (chosen.some(s => !s.name.startsWith('GET /api/search'))) console.info(`Lists at or over 1 ms at the median: ${slowLists.length ? slowLists.join('; ') : 'none'} (goal: none)`)
  if (searchScenarios.some(s => results.has(s.name))) console.info(`Search queries at or over 5 ms at the median: ${slowSearch.length ? slowSearch.join('; ') : 'none'} (goal: none)`)
  const apart = [...results.keys()].map(name => ({ name, spread: Math.max(...sizes.map((_, at) => {
    const times = draws.map(draw => draw.get(name)![at]!.ms)
    return Math.max(...times) / Math.min(...times)
  })) })).filter(({ spread }) => spread > 1.5)
  if (PROCESSES > 1) console.info(`Scenarios whose processes read more than 1.5× apart at a size: ${apart.length} of ${results.size}${apart.length ? ` (${apart.map(({ name, spread }) => `${name} ${spread.toFixed(1)}×`).join('; ')})` : ''}`)
  console.info(`The floor, SELECT 1 through the same port: ${sizes.map((size, i) => `${size.toLocaleString('en')}: ${floor[i]!.ms.toFixed(3)}`).join(', ')} ms`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
