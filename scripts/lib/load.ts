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

/** One request of a write: its method and path (with any query), headers of its own besides the run's, and its body when it has one. */
export interface WriteRequest {
  method: string
  path: string
  headers?: Record<string, string>
  body?: string
}

/**
 * Requests that each work once (a signed duel id, a new visitor's vote):
 * every run (the warm-up second too) takes the next `perSecond` × its
 * seconds of them from `take`, and goes round them again if it outpaces
 * that, so the repeats it sends are refused by the server and counted as
 * bad answers, never hidden.
 */
export interface SingleUseRequests {
  perSecond: number
  take: (count: number) => WriteRequest[]
}

export interface WriteOptions extends LoadOptions {
  /** Sent in turn, one a request, over all connections together; a list is cycled. */
  requests?: WriteRequest[] | SingleUseRequests
  /** Without `requests`: `bodies` in turn, each `method` to `url`. */
  method?: string
  bodies?: string[]
}

/**
 * Sends the write's requests (or `bodies` to `url`) in turn with
 * `connections` open for `seconds`, after one warm-up second. One counter
 * for all connections picks each next request: with wrk (a Lua script, one
 * thread) when it is installed, else with autocannon, each of whose
 * connections asks one shared counter (`setupRequest`). autocannon alone
 * walks its list once per connection, and connections that keep pace send
 * the same body one after another, so of votes that were meant to
 * alternate, many repeated the one just made and wrote nothing; its client
 * also shares the machine's cores with the server in JavaScript.
 */
export async function loadWrite(url: string, options: WriteOptions): Promise<LoadResult> {
  const target = new URL(url)
  const list = options.requests ?? (options.bodies ?? ['']).map(body => ({ method: options.method ?? 'POST', path: `${target.pathname}${target.search}`, body }))
  const run = (seconds: number) => {
    const requests = Array.isArray(list) ? list : list.take(Math.ceil(list.perSecond * seconds))
    return options.wrk ? writeByWrk(target.origin, options, requests, seconds) : writeByAutocannon(target.origin, options, requests, seconds)
  }
  await run(1)
  return run(options.seconds)
}

/** One run of autocannon over `requests` in turn: every connection takes the next one from the one counter. */
async function writeByAutocannon(origin: string, options: WriteOptions, requests: WriteRequest[], seconds: number): Promise<LoadResult> {
  let n = 0
  const setupRequest = (request: { headers?: Record<string, string> }) => {
    const next = requests[n++ % requests.length]!
    return { ...request, method: next.method, path: next.path, headers: { ...request.headers, ...next.headers }, body: next.body ?? Buffer.alloc(0) }
  }
  const result = await autocannon({ url: origin, connections: options.connections, headers: options.headers ?? {}, requests: [{ setupRequest }], duration: seconds })
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bad: result.non2xx + result.errors + result.timeouts }
}

/**
 * One run of wrk over `requests` in turn. They go to wrk in a file, one a
 * line (method, path, own headers as `name\x01value\x01` and `=body`
 * between tabs; a body of several lines as `%body` with `%`, CR and LF
 * escaped as %XX), which its script reads and
 * formats once before the run: a long list held in the script's source
 * would be one constant each, past what LuaJIT allows in a function.
 */
async function writeByWrk(origin: string, options: WriteOptions, requests: WriteRequest[], seconds: number): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'dif-wrk-'))
  const script = join(dir, 'write.lua')
  const data = join(dir, 'requests.tsv')
  // Long brackets hold any text as it is; the level is one the text does not contain.
  const quote = (text: string) => {
    let level = ''
    while (text.includes(`]${level}]`)) level += '='
    return `[${level}[${text}]${level}]`
  }
  writeFileSync(data, requests.map(({ method, path, headers = {}, body }) => {
    const own = Object.entries(headers).map(([name, value]) => `${name}\x01${value}\x01`).join('')
    if (/[\t\r\n]/.test(method + path + own)) throw new Error(`A write's method, path and headers must each be one line: ${method} ${path}`)
    // A body of several lines (a multipart form) goes as `%` and its text with `%`, CR and LF as %XX.
    const line = body === undefined ? '' : /[\r\n]/.test(body) ? `%${body.replace(/[%\r\n]/g, c => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}` : `=${body}`
    return `${method}\t${path}\t${own}\t${line}\n`
  }).join(''))
  writeFileSync(script, [
    ...Object.entries(options.headers ?? {}).map(([name, value]) => `wrk.headers[ ${quote(name)} ] = ${quote(value)}`),
    'local requests = {}',
    'function init(args)',
    `  for line in io.lines(${quote(data)}) do`,
    '    local method, path, own, body = line:match("^(%u+)\\t([^\\t]*)\\t([^\\t]*)\\t(.*)$")',
    '    local headers = wrk.headers',
    '    if own ~= "" then',
    '      headers = {}',
    '      for name, value in pairs(wrk.headers) do headers[name] = value end',
    '      for name, value in own:gmatch("([^\\1]*)\\1([^\\1]*)\\1") do headers[name] = value end',
    '    end',
    '    if body:sub(1, 1) == "%" then body = "=" .. body:sub(2):gsub("%%(%x%x)", function(hex) return string.char(tonumber(hex, 16)) end) end',
    '    requests[#requests + 1] = wrk.format(method, path, headers, body ~= "" and body:sub(2) or nil)',
    '  end',
    'end',
    'local n = 0',
    'request = function()',
    '  n = n + 1',
    '  return requests[(n - 1) % #requests + 1]',
    'end',
  ].join('\n'))
  try {
    const { stdout } = await run('wrk', ['-t1', `-c${options.connections}`, `-d${seconds}s`, '--latency', '-s', script, origin])
    return parseWrk(stdout)
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
