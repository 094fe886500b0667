import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import autocannon from 'autocannon'

const run = promisify(execFile)

export interface LoadResult {
  /** Requests per second over the run. */
  rps: number
  p50: number
  p99: number
  /** Non-2xx answers, socket errors and timeouts. */
  bad: number
}

export interface LoadOptions {
  connections: number
  seconds: number
  headers?: Record<string, string>
  /** Drive the load with wrk (see `hasWrk`) instead of autocannon. */
  wrk: boolean
}

/** The run with the median throughput. */
export function median<T extends { rps: number }>(runs: T[]): T {
  return [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!
}

/** Whether wrk (Debian's `wrk` package) is on the PATH. */
export async function hasWrk(): Promise<boolean> {
  try {
    await run('wrk', ['--version'])
    return true
  }
  catch (error) {
    // wrk prints its version with the usage text and exits 1.
    const stdout = (error as { stdout?: unknown }).stdout
    return typeof stdout === 'string' && stdout.startsWith('wrk ')
  }
}

/**
 * GETs `url` with `connections` open for `seconds`, after one warm-up second.
 * With wrk when it is installed: autocannon parses every answer in
 * JavaScript, in the bench's own process, and so caps what it can measure.
 * On this 2-core machine it held node:http writing a 6 KB list answer to
 * about 55,000 req/s where wrk (C, one thread) measured 81,000, and a 165 KB
 * image to about 430 req/s (p99 43 ms) where wrk measured 5,600 (p99 5 ms).
 */
export function loadGet(url: string, options: LoadOptions): Promise<LoadResult> {
  const headers = options.headers ?? {}
  if (!options.wrk) return byAutocannon({ url, connections: options.connections, headers }, options.seconds)
  return byWrk(options, [...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]), url])
}

/** One warm-up second of autocannon with `settings`, then `seconds` measured. */
async function byAutocannon(settings: Parameters<typeof autocannon>[0], seconds: number): Promise<LoadResult> {
  await autocannon({ ...settings, duration: 1 })
  const result = await autocannon({ ...settings, duration: seconds })
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bad: result.non2xx + result.errors + result.timeouts }
}

/** One warm-up second of wrk (one thread, `options.connections`) with the rest of its arguments, then `options.seconds` measured. */
async function byWrk(options: LoadOptions, rest: string[]): Promise<LoadResult> {
  const args = (seconds: number) => ['-t1', `-c${options.connections}`, `-d${seconds}s`, '--latency', ...rest]
  await run('wrk', args(1))
  const { stdout } = await run('wrk', args(options.seconds))
  return parseWrk(stdout)
}

export interface WriteOptions extends LoadOptions {
  method: string
  /** Sent in turn, one a request, over all connections together. */
  bodies: string[]
}

/**
 * Sends `bodies` to `url` in turn with `connections` open for `seconds`,
 * after one warm-up second. With wrk (a Lua script, one thread: one counter
 * for all connections) when it is installed: autocannon walks the list once
 * per connection, and connections that keep pace send the same body one
 * after another, so of votes that were meant to alternate, many repeated the
 * one just made and wrote nothing; its client also shares the machine's
 * cores with the server in JavaScript.
 */
export async function loadWrite(url: string, options: WriteOptions): Promise<LoadResult> {
  const headers = options.headers ?? {}
  if (!options.wrk) {
    const requests = options.bodies.map(body => ({ method: options.method as 'POST', headers, body }))
    return byAutocannon({ url, connections: options.connections, requests }, options.seconds)
  }
  const dir = mkdtempSync(join(tmpdir(), 'dif-wrk-'))
  const script = join(dir, 'write.lua')
  // Long brackets hold any JSON as it is; the level is one no body contains.
  const quote = (text: string) => {
    let level = ''
    while (text.includes(`]${level}]`)) level += '='
    return `[${level}[${text}]${level}]`
  }
  writeFileSync(script, [
    `wrk.method = ${quote(options.method)}`,
    ...Object.entries(headers).map(([name, value]) => `wrk.headers[ ${quote(name)} ] = ${quote(value)}`),
    `local bodies = { ${options.bodies.map(quote).join(', ')} }`,
    'local n = 0',
    'request = function()',
    '  n = n + 1',
    '  return wrk.format(nil, nil, nil, bodies[(n - 1) % #bodies + 1])',
    'end',
  ].join('\n'))
  try {
    return await byWrk(options, ['-s', script, url])
  }
  finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Requests/sec, latency percentiles in ms and failures from wrk's report (`--latency`). */
export function parseWrk(report: string): LoadResult {
  const rps = Number(report.match(/Requests\/sec:\s+([\d.]+)/)?.[1])
  const percentile = (p: number) => {
    const found = report.match(new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm'))
    if (!found) throw new Error(`no ${p}th percentile in wrk's report:\n${report}`)
    return Number(found[1]) * { us: 0.001, ms: 1, s: 1000 }[found[2] as 'us' | 'ms' | 's']
  }
  if (!Number.isFinite(rps)) throw new Error(`no Requests/sec in wrk's report:\n${report}`)
  const socket = report.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/)
  const non2xx = Number(report.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0)
  const bad = non2xx + (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0)
  return { rps, p50: percentile(50), p99: percentile(99), bad }
}
