import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { pgToolTarget } from './pg-tools'

/**
 * PostgreSQL's own floor for a write under load: pgbench (the engine's C client) running
 * one UPDATE of one row per transaction, the least a vote must write, from as many
 * clients as the bench has connections. Its p99 is what the engine gives on this machine,
 * one write a transaction, before any HTTP, JavaScript or driver (docs/performance.md,
 * "The engine's floor").
 */
export interface EngineFloor {
  tps: number
  p99: number
  runs: number[]
}

/** The rows of the scratch table: one per upload, as a vote picks one of them. */
const FLOOR_TABLE = 'bench_engine_floor'

/** pgbench on PATH (Debian's wrapper) or the newest installed major's own. */
function pgbenchPath(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'pgbench'))) return join(dir, 'pgbench')
  }
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const majors = readdirSync(root).filter(name => existsSync(join(root, name, 'bin/pgbench'))).sort((a, b) => Number(a) - Number(b))
  return majors.length ? join(root, majors.at(-1)!, 'bin/pgbench') : undefined
}

/** One pgbench run; its per-transaction log gives the latencies (third field, microseconds). */
async function run(bin: string, url: string, script: string, dir: string, clients: number, seconds: number): Promise<{ tps: number, p99: number }> {
  for (const name of readdirSync(dir).filter(name => name.startsWith('floor.'))) rmSync(join(dir, name))
  const target = pgToolTarget(url)
  const args = ['-n', '-c', String(clients), '-j', '1', '-T', String(seconds), '-f', script, '-l', `--log-prefix=${join(dir, 'floor')}`, target.url]
  const child = spawn(bin, args, { env: target.env, stdio: ['ignore', 'ignore', 'pipe'] })
  let said = ''
  child.stderr.on('data', (chunk: Buffer) => {
    said += chunk.toString()
  })
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', resolve)
  })
  if (code !== 0) throw new Error(`pgbench failed (exit ${code}): ${said.trim().split('\n').slice(-2).join(' / ')}`)
  const latencies: number[] = []
  for (const name of readdirSync(dir).filter(name => name.startsWith('floor.'))) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      const field = line.split(' ')[2]
      if (field) latencies.push(Number(field) / 1000)
    }
  }
  latencies.sort((a, b) => a - b)
  return { tps: latencies.length / seconds, p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0 }
}

/**
 * Measures the floor `rounds` times on a scratch table of `rows` rows in the bench's
 * database and drops the table again; the median run by throughput is kept. Undefined
 * when pgbench is not installed (Debian: the postgresql package).
 */
export async function measureEngineFloor(url: string, options: { rows: number, clients: number, seconds: number, rounds: number }): Promise<EngineFloor | undefined> {
  const bin = pgbenchPath()
  if (!bin) return undefined
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const dir = mkdtempSync(join(tmpdir(), 'dif-bench-floor-'))
  try {
    await client.query(`DROP TABLE IF EXISTS ${FLOOR_TABLE}`)
    await client.query(`CREATE TABLE ${FLOOR_TABLE} (id integer PRIMARY KEY, n bigint NOT NULL DEFAULT 0)`)
    await client.query(`INSERT INTO ${FLOOR_TABLE} (id) SELECT generate_series(1, $1::integer)`, [options.rows])
    await client.query(`VACUUM ANALYZE ${FLOOR_TABLE}`)
    const script = join(dir, 'update.sql')
    writeFileSync(script, `\\set id random(1, ${options.rows})\nUPDATE ${FLOOR_TABLE} SET n = n + 1 WHERE id = :id;\n`)
    const runs = []
    for (let round = 0; round < options.rounds; round++) runs.push(await run(bin, url, script, dir, options.clients, options.seconds))
    const median = [...runs].sort((a, b) => a.tps - b.tps)[Math.floor(runs.length / 2)]!
    return { ...median, runs: runs.map(r => r.tps) }
  }
  finally {
    await client.query(`DROP TABLE IF EXISTS ${FLOOR_TABLE}`).catch(() => {})
    await client.end()
    rmSync(dir, { recursive: true, force: true })
  }
}
