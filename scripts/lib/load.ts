import { execFile } from 'node:child_process'
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
export async function loadGet(url: string, options: LoadOptions): Promise<LoadResult> {
  const headers = options.headers ?? {}
  if (!options.wrk) {
    await autocannon({ url, connections: options.connections, duration: 1, headers })
    const result = await autocannon({ url, connections: options.connections, duration: options.seconds, headers })
    return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bad: result.non2xx + result.errors + result.timeouts }
  }
  const args = (seconds: number) => [
    '-t1', `-c${options.connections}`, `-d${seconds}s`, '--latency',
    ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    url,
  ]
  await run('wrk', args(1))
  const { stdout } = await run('wrk', args(options.seconds))
  return parseWrk(stdout)
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
