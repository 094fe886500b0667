import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createTestDatabase, dropTestDatabase } from './postgres'

export const ROOT = resolve(import.meta.dirname, '../..')
const ENTRY = join(ROOT, '.output/server/index.mjs')

/** Where a test server keeps its rows: the data dir's SQLite file, or a PostgreSQL database. */
export type TestEngine = 'sqlite' | 'postgres'

/** The engine of this test run: `TEST_ENGINE=postgres` (the `-pg` vitest projects) or SQLite. */
export function testEngine(): TestEngine {
  return process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite'
}

export interface RunningServer {
  url: string
  port: number
  dataDir: string
  /** The server's NUXT_DATABASE_URL: a database of its own on PostgreSQL, '' on SQLite (`<dataDir>/app.sqlite`). */
  databaseUrl: string
  process: ChildProcess
  /** Everything the server printed so far. */
  output: () => string
  stop: (options?: { keepData?: boolean }) => Promise<void>
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolvePort(port))
    })
  })
}

export interface StartOptions {
  /** Reuse this data dir (and keep it on stop) instead of a fresh temporary one. */
  dataDir?: string
  /** Reuse this PostgreSQL database (and keep it on stop) instead of a fresh one. */
  databaseUrl?: string
  /** Defaults to `testEngine()`; global set-up passes its project's engine. */
  engine?: TestEngine
  /**
   * Send what the server prints to this file rather than into this process
   * (the bench: reading thousands of log lines a second cost this process
   * about 5 µs of CPU a request, on the machine the server shares).
   */
  logFile?: string
}

/**
 * Starts the built server (`npm run build` first) on 127.0.0.1 with its own
 * temporary data dir, and waits until it answers. `env` overrides settings. On the
 * PostgreSQL pass it also gets a fresh database on the TEST_DATABASE_URL cluster,
 * dropped on stop, unless `env` sets NUXT_DATABASE_URL.
 */
export async function startServer(env: Record<string, string> = {}, options: StartOptions = {}): Promise<RunningServer> {
  if (!existsSync(ENTRY)) throw new Error('No build found: run `npm run build` before the e2e tests')
  const engine = options.engine ?? testEngine()
  const ownsDatabase = engine === 'postgres' && env.NUXT_DATABASE_URL === undefined && !options.databaseUrl
  const databaseUrl = env.NUXT_DATABASE_URL ?? options.databaseUrl ?? (ownsDatabase ? await createTestDatabase(undefined, { migrated: true }) : '')
  if (!ownsDatabase) return launch(env, options, databaseUrl)
  let server: RunningServer
  try {
    server = await launch(env, options, databaseUrl)
  }
  catch (error) {
    await dropTestDatabase(databaseUrl)
    throw error
  }
  return {
    ...server,
    stop: async (stopOptions) => {
      await server.stop(stopOptions)
      if (!stopOptions?.keepData) await dropTestDatabase(databaseUrl)
    },
  }
}

async function launch(env: Record<string, string>, options: StartOptions, databaseUrl: string, attempt = 1): Promise<RunningServer> {
  const givenDataDir = options.dataDir
  // A PORT in `env` is kept (a site URL that names it, e.g. http://localhost:<port>, needs it up front).
  const port = env.PORT ? Number(env.PORT) : await freePort()
  const dataDir = givenDataDir ?? mkdtempSync(join(tmpdir(), 'dif-e2e-'))
  const url = `http://127.0.0.1:${port}`
  let log = ''
  const logFd = options.logFile ? openSync(options.logFile, 'a') : undefined
  // SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof': profile the servers a bench or test starts (docs/performance.md, Profiling).
  const nodeArgs = process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  const child = spawn(process.execPath, [...nodeArgs, ENTRY], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      NUXT_DATA_DIR: dataDir,
      NUXT_PUBLIC_SITE_URL: url,
      NUXT_RATE_LIMIT_ENABLED: 'false',
      // As `npm start` runs it: one malloc arena keeps image processing's peak memory low.
      MALLOC_ARENA_MAX: '1',
      // The e2e project's choice (vitest.config.ts); a test's own `env` may set it again.
      ...(process.env.TEST_API_FAST_PATH ? { NUXT_API_FAST_PATH: process.env.TEST_API_FAST_PATH } : {}),
      ...(databaseUrl ? { NUXT_DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    stdio: ['ignore', logFd ?? 'pipe', logFd ?? 'pipe'],
  })
  if (logFd !== undefined) closeSync(logFd)
  const output = () => options.logFile ? readFileSync(options.logFile, 'utf8') : log
  const collect = (chunk: Buffer) => {
    log += chunk.toString()
    // TEST_SERVER_LOG=1: every test server's output also goes to stderr, with the time, to follow a failing case.
    if (process.env.TEST_SERVER_LOG) process.stderr.write(`[srv ${new Date().toISOString().slice(11, 23)}] ${chunk}`)
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  // Only the time this process was scheduled counts: a machine that stalls every process
  // (a paused VM) stalls the server's start as much, and proves nothing about it.
  const startedAt = Date.now()
  let waited = 0
  let polled = startedAt
  for (;;) {
    if (child.exitCode !== null) {
      // Another test run on this machine (scripts/test-engines.sh runs two) took the free port first: take another.
      if (!env.PORT && attempt < 3 && output().includes('EADDRINUSE')) {
        if (!givenDataDir) rmSync(dataDir, { recursive: true, force: true })
        return launch(env, options, databaseUrl, attempt + 1)
      }
      throw new Error(`Server exited with ${child.exitCode}:\n${output()}`)
    }
    try {
      // A page, not an /api route, so the probe never counts against a rate limit. Only once
      // this server says it listens: until then an answer may come from another test run's
      // server that holds the port, and this one is about to exit with EADDRINUSE.
      if (output().includes('Listening on')) {
        const response = await fetch(`${url}/robots.txt`)
        await response.arrayBuffer()
        if (response.status < 500) break
      }
    }
    catch { /* not listening yet */ }
    const now = Date.now()
    waited += Math.min(now - polled, 1000)
    polled = now
    if (waited > 30_000) {
      const cpu = cpuSeconds(child.pid)
      child.kill('SIGKILL')
      throw new Error(`Server did not start within 30 s (${((now - startedAt) / 1000).toFixed(1)} s of wall time, ${cpu} s of its CPU, load ${loadavg().map(n => n.toFixed(1)).join(' ')}):\n${output()}`)
    }
    await new Promise(r => setTimeout(r, 100))
  }
  return {
    url,
    port,
    dataDir,
    databaseUrl,
    process: child,
    output,
    stop: async ({ keepData = false } = {}) => {
      if (child.exitCode === null) {
        const exited = new Promise(r => child.once('exit', r))
        child.kill('SIGTERM')
        await Promise.race([exited, new Promise(r => setTimeout(r, 5000))])
        if (child.exitCode === null) {
          child.kill('SIGKILL')
          await exited
        }
      }
      if (!keepData && !givenDataDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The CPU time a process has used so far, in ms (user + system), from /proc (Linux). */
export function cpuMs(pid: number): number {
  // Fields 14 and 15 (user and system time, in clock ticks of 1/100 s) follow the name in parentheses.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** cpuMs in seconds for a message, or '?' where it cannot be read. */
function cpuSeconds(pid: number | undefined): string {
  try {
    return (cpuMs(pid!) / 1000).toFixed(2)
  }
  catch {
    return '?'
  }
}
