import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, ROOT, testEngine } from '../support/server'

/**
 * The built server started the way `npm start` starts it (the package.json
 * script, run by sh): what a new owner reads in the terminal.
 */
const START = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start

interface Started { child: ChildProcess, url: string, output: () => string }

async function start(dataDir: string, env: Record<string, string> = {}): Promise<Started> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  let log = ''
  // Its own process group, so stopping it stops sh and node together.
  const child = spawn('sh', ['-c', START], {
    cwd: ROOT,
    detached: true,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PORT: String(port), NUXT_DATA_DIR: dataDir, NUXT_PUBLIC_SITE_URL: url, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()))
  const deadline = Date.now() + 30_000
  // Listening, then the banner once the start-up work is done.
  while (!log.includes('Listening on') || !log.includes('Does It Fuck?')) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${log}`)
    if (Date.now() > deadline) throw new Error(`server did not start:\n${log}`)
    await new Promise(r => setTimeout(r, 50))
  }
  return { child, url, output: () => log }
}

/** The start banner: its first line and the indented lines under it. */
function bannerOf(output: string): string {
  const [first, ...rest] = output.slice(output.indexOf('Does It Fuck?')).split('\n')
  const under = rest.slice(0, rest.findIndex(line => !line.startsWith('  ')))
  return [first, ...under].join('\n')
}

async function stop(started: Started) {
  if (started.child.exitCode !== null) return
  const exited = new Promise(r => started.child.once('exit', r))
  process.kill(-started.child.pid!, 'SIGTERM')
  await Promise.race([exited, new Promise(r => setTimeout(r, 5000))])
  if (started.child.exitCode === null) process.kill(-started.child.pid!, 'SIGKILL')
}

/** Output written after `before` characters, once it has been quiet for a moment. */
async function settled(started: Started, before: number): Promise<string[]> {
  let seen = -1
  while (seen !== started.output().length) {
    seen = started.output().length
    await new Promise(r => setTimeout(r, 300))
  }
  return started.output().slice(before).split('\n').filter(line => line.trim())
}

describe('npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'dif-start-'))
  let server: Started | undefined
  beforeAll(async () => {
    server = await start(dataDir)
  })
  afterAll(async () => {
    if (server) await stop(server)
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('on first start prints where the data lives, the address to open and how to become admin', async () => {
    const banner = bannerOf(server!.output())
    expect(banner).toContain(`Data:     ${dataDir} (database app.sqlite, media/, outbox/, secrets.json)`)
    expect(banner).toContain(`Open:     ${server!.url}\n`)
    expect(banner).toContain('npm run admin -- grant <email>')
    expect(banner).not.toMatch(/\[::\]|0\.0\.0\.0/)
  })

  it('logs a 404 in its request\'s one JSON line: no stack trace, no router warnings', async () => {
    await settled(server!, 0)
    const before = server!.output().length
    const missing = '00000000-0000-4000-8000-000000000000'
    const unknown = await fetch(`${server!.url}/no/such/page`)
    expect(unknown.status).toBe(404)
    const upload = await fetch(`${server!.url}/upload/${missing}?token=secret-in-query`)
    expect(upload.status).toBe(404)
    // The start-up's own lines ("[db] applied …") may still come in on a busy machine.
    const lines = (await settled(server!, before)).filter(line => line.startsWith('{')).map(line => JSON.parse(line) as Record<string, unknown>)
    const line = (route: string, response: Response) => ({
      level: 'info', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), requestId: response.headers.get('x-request-id'),
      method: 'GET', route, status: 404, durationMs: expect.any(Number), clientIp: '127.0.0.1', msg: 'request',
    })
    expect(lines).toEqual([line('unmatched', unknown), line('/upload/[id]', upload)])
    expect(unknown.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('on a later start prints one line, without the first-start advice', async () => {
    await stop(server!)
    server = await start(dataDir, { NUXT_LOG_FORMAT: 'pretty' })
    const banner = bannerOf(server.output())
    expect(banner.trim()).toBe(`Does It Fuck? · data: ${dataDir} (database app.sqlite, media/, outbox/, secrets.json) · open ${server.url}`)
  })

  it('with NUXT_LOG_FORMAT=pretty logs a request in one line for people; without NUXT_METRICS_TOKEN /metrics is an unknown page', async () => {
    await settled(server!, 0)
    const before = server!.output().length
    const metrics = await fetch(`${server!.url}/metrics`, { headers: { 'x-request-id': 'from-the-proxy.1', 'accept': 'text/html' } })
    expect(metrics.status).toBe(404)
    expect(metrics.headers.get('content-type')).toContain('text/html')
    expect(metrics.headers.get('x-request-id')).toBe('from-the-proxy.1')
    expect((await settled(server!, before)).filter(line => !line.startsWith('['))).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3} GET \/metrics 404 \d+(\.\d+)? ms 127\.0\.0\.1 req from-the-proxy\.1$/),
    ])
  })
})

/** The PIDs and commands of the processes still in a process group (none: []). */
function processGroup(pgid: number): string[] {
  try {
    return execFileSync('ps', ['-o', 'pid=,args=', '-g', String(pgid)], { encoding: 'utf8' }).split('\n').map(line => line.trim()).filter(Boolean)
  }
  catch {
    return [] // ps exits 1 when it finds no process
  }
}

/** Whether something accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/**
 * `npm start` as a process manager runs it: a signal to the npm process
 * must reach the server, which shuts down gracefully, so nothing is left
 * (docs/operations.md, Signals, restarts and upgrades).
 */
describe.skipIf(testEngine() !== 'sqlite')('npm start under signals', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('on %s to the npm process the server shuts down, exit 0, nothing left running', async (signal) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dif-signal-'))
    const port = await freePort()
    // Its own process group, so every process npm started can be found (and cleaned up).
    const npm = spawn('npm', ['start'], {
      cwd: ROOT,
      detached: true,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PORT: String(port), NUXT_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let log = ''
    npm.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()))
    npm.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()))
    const exited = new Promise<{ code: number | null, signal: NodeJS.Signals | null }>(resolve => npm.once('exit', (code, signal) => resolve({ code, signal })))
    try {
      const deadline = Date.now() + 30_000
      // Listening, then the banner once the start-up work is done.
      while (!log.includes('Listening on') || !log.includes('Does It Fuck?')) {
        if (npm.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not start:\n${log}`)
        await new Promise(r => setTimeout(r, 50))
      }
      expect(processGroup(npm.pid!).some(line => line.includes('.output/server/index.mjs'))).toBe(true)
      expect(await listening(port)).toBe(true)

      process.kill(npm.pid!, signal)
      expect(await Promise.race([exited, new Promise(r => setTimeout(() => r('still running after 15 s'), 15_000))])).toEqual({ code: 0, signal: null })
      // The server, once npm's only child, is gone with it; nothing holds the port.
      let left = processGroup(npm.pid!)
      for (let waited = 0; left.length && waited < 2000; waited += 100) {
        await new Promise(r => setTimeout(r, 100))
        left = processGroup(npm.pid!)
      }
      expect(left).toEqual([])
      expect(await listening(port)).toBe(false)
    }
    finally {
      if (processGroup(npm.pid!).length) process.kill(-npm.pid!, 'SIGKILL')
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
