import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const ROOT = resolve(import.meta.dirname, '../..')
const ENTRY = join(ROOT, '.output/server/index.mjs')

export interface RunningServer {
  url: string
  port: number
  dataDir: string
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

/**
 * Starts the built server (`npm run build` first) on 127.0.0.1 with its own
 * temporary data dir, and waits until it answers. `env` overrides settings.
 */
export async function startServer(env: Record<string, string> = {}, options: { dataDir?: string } = {}): Promise<RunningServer> {
  if (!existsSync(ENTRY)) throw new Error('No build found: run `npm run build` before the e2e tests')
  const port = await freePort()
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'dif-e2e-'))
  const url = `http://127.0.0.1:${port}`
  let log = ''
  const child = spawn(process.execPath, [ENTRY], {
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
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const collect = (chunk: Buffer) => {
    log += chunk.toString()
  }
  child.stdout!.on('data', collect)
  child.stderr!.on('data', collect)
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited with ${child.exitCode}:\n${log}`)
    try {
      // A page, not an /api route, so the probe never counts against a rate limit.
      const response = await fetch(`${url}/robots.txt`)
      await response.arrayBuffer()
      if (response.status < 500) break
    }
    catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`Server did not start within 30 s:\n${log}`)
    }
    await new Promise(r => setTimeout(r, 100))
  }
  return {
    url,
    port,
    dataDir,
    process: child,
    output: () => log,
    stop: async ({ keepData = false } = {}) => {
      if (child.exitCode === null) {
        const exited = new Promise(r => child.once('exit', r))
        child.kill('SIGTERM')
        await Promise.race([exited, new Promise(r => setTimeout(r, 5000))])
        if (child.exitCode === null) child.kill('SIGKILL')
      }
      if (!keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
