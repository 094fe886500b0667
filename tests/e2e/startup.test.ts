import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort, ROOT, startServer, testEngine } from '../support/server'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function dataDirWith(prepare: (dir: string) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'dif-start-'))
  dirs.push(dir)
  prepare(dir)
  return dir
}

/**
 * Starts the built server on a data dir that cannot work and waits (up to
 * 20 s) for it to exit, asking for a page every 25 ms meanwhile: what it
 * printed, its exit code, and how many of those requests got any HTTP answer.
 */
async function startExpectingFailure(dataDir: string, port?: number, env: Record<string, string> = {}) {
  port ??= await freePort()
  const child = spawn(process.execPath, [join(ROOT, '.output/server/index.mjs')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), NUXT_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => output += chunk.toString())
  child.stderr.on('data', (chunk: Buffer) => output += chunk.toString())
  const exited = new Promise<number | null>(resolve => child.once('exit', code => resolve(code)))
  let answered = 0
  let running = true
  const probing = (async () => {
    while (running) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/robots.txt`, { signal: AbortSignal.timeout(2000) })
        await response.arrayBuffer()
        answered++
      }
      catch { /* refused, or the connection closed without an answer */ }
      await new Promise(r => setTimeout(r, 25))
    }
  })()
  const code = await Promise.race([exited, new Promise<'running'>(r => setTimeout(() => r('running'), 20_000))])
  running = false
  await probing
  if (code === 'running') child.kill('SIGKILL')
  return { code, output, answered }
}

describe('start-up fails closed', () => {
  it.each([
    ['an empty secrets.json', (dir: string) => writeFileSync(join(dir, 'secrets.json'), ''), /secrets\.json is not valid JSON/],
    ['a corrupt secrets.json', (dir: string) => writeFileSync(join(dir, 'secrets.json'), '{"sessionSecret": "abc'), /secrets\.json is not valid JSON/],
    ['a secrets.json without an object', (dir: string) => writeFileSync(join(dir, 'secrets.json'), '["sessionSecret"]'), /secrets\.json does not hold a JSON object/],
    ['a database path that cannot be opened', (dir: string) => mkdirSync(join(dir, 'app.sqlite')), /.+/],
  ])('exits non-zero with one line and never answers, given %s', async (_, prepare, reason) => {
    const { code, output, answered } = await startExpectingFailure(dataDirWith(prepare))
    expect(code).toBe(1)
    const lines = output.split('\n').filter(line => line.includes('[start]'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^\[start\] cannot start: .+$/)
    expect(lines[0]).toMatch(reason)
    // Nor the banner saying where to open a site that never started.
    expect(output).not.toContain('Does It Fuck?')
    // No stack trace, no unhandled-rejection noise.
    expect(output).not.toMatch(/^\s+at /m)
    expect(output).not.toMatch(/unhandled/i)
    expect(answered).toBe(0)
  })

  it('exits non-zero with one line when its port is taken', async () => {
    // Accepts connections and never answers: the probe's requests time out, none is answered.
    const taken = createServer(socket => socket.on('error', () => {}))
    const port = await new Promise<number>(resolve => taken.listen(0, '127.0.0.1', () => resolve((taken.address() as AddressInfo).port)))
    try {
      const { code, output, answered } = await startExpectingFailure(dataDirWith(() => {}), port)
      expect(code).toBe(1)
      expect(output.split('\n').filter(line => line.includes('[start]'))).toEqual([`[start] cannot start: cannot listen on 127.0.0.1:${port} (EADDRINUSE)`])
      expect(output).not.toMatch(/^\s+at /m)
      expect(answered).toBe(0)
    }
    finally {
      taken.close()
    }
  })

  it.each([
    ['a session secret shorter than 32 bytes', { NUXT_SESSION_SECRET: 'short' }, '[start] cannot start: NUXT_SESSION_SECRET must be at least 32 bytes, not 5; unset, the site uses the one it generated'],
    ['a session password shorter than 32 bytes', { NUXT_SESSION_PASSWORD: 'p'.repeat(31) }, '[start] cannot start: NUXT_SESSION_PASSWORD must be at least 32 bytes, not 31; unset, the site uses the one it generated'],
    ['a HOST that does not resolve', { HOST: 'no-such-host.invalid' }, '[start] cannot start: cannot resolve HOST no-such-host.invalid (ENOTFOUND)'],
    ['a PORT out of range', { PORT: '99999' }, '[start] cannot start: PORT must be a whole number from 0 to 65535, not "99999"'],
    ['a log format it does not know', { NUXT_LOG_FORMAT: 'prety' }, '[start] cannot start: NUXT_LOG_FORMAT must be json or pretty, not "prety"'],
    // A flag read as yes whatever it said: any client could have named its own IP.
    ['a flag that is neither true nor false', { NUXT_TRUST_PROXY: 'no' }, '[start] cannot start: NUXT_TRUST_PROXY must be true or false, not "no"'],
    // Every /api request answered 500 with a limit of "abc"; a budget of "200ms" was no budget.
    ['a rate limit that is no number', { NUXT_RATE_LIMIT_GENERAL_MAX: 'abc' }, '[start] cannot start: NUXT_RATE_LIMIT_GENERAL_MAX must be a whole number from 1 to 1000000, not "abc"'],
    ['a search budget with a unit', { NUXT_SEARCH_BUDGET_MS: '200ms' }, '[start] cannot start: NUXT_SEARCH_BUDGET_MS must be a whole number from 0 to 60000, not "200ms"'],
    // Registration created the account, then answered 500 making its session's cookie.
    ['a site address that is no URL', { NUXT_PUBLIC_SITE_URL: 'notaurl' }, '[start] cannot start: NUXT_PUBLIC_SITE_URL must start with http:// or https://'],
    ['a database address with a port out of range', { NUXT_DATABASE_URL: 'postgres://postgres@127.0.0.1:99999/postgres' }, '[start] cannot start: NUXT_DATABASE_URL is not a valid address (a port over 65535, a space, …)'],
  ])('exits non-zero with one line, given %s', async (_, env, line) => {
    const { code, output, answered } = await startExpectingFailure(dataDirWith(() => {}), undefined, env)
    expect(code).toBe(1)
    expect(output.split('\n').filter(text => text.includes('[start]'))).toEqual([line])
    expect(output).not.toMatch(/^\s+at /m)
    expect(answered).toBe(0)
  })

  // On PostgreSQL the generated secrets live in the database (tests/e2e/shared-database.test.ts).
  it.skipIf(testEngine() === 'postgres')('writes secrets.json readable by its owner only, with no temporary file left', async () => {
    const dataDir = dataDirWith(() => {})
    const server = await startServer({}, { dataDir })
    try {
      const file = join(dataDir, 'secrets.json')
      expect(existsSync(file)).toBe(true)
      expect(statSync(file).mode & 0o777).toBe(0o600)
      expect(readdirSync(dataDir).filter(name => name.endsWith('.tmp'))).toEqual([])
    }
    finally {
      await server.stop()
    }
  })
})
