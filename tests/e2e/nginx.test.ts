import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitFor } from '../support/accounts'
import { api, registerUser, type TestUser } from '../support/api'
import { uploadForm } from '../support/images'
import { createTestDatabase, dropTestDatabase } from '../support/postgres'
import { freePort, ROOT, startServer, testEngine, type RunningServer } from '../support/server'
import { postUpload } from '../support/uploads'

/**
 * docs/operations.md, "nginx and systemd": Debian's nginx, run unprivileged
 * with docs/deployment/nginx.conf as it is (placeholders replaced), in front
 * of two instances sharing PostgreSQL and Redis, as docs/deployment.md
 * describes. A rolling restart (SIGTERM one, start it again, then the other)
 * while requests flow through nginx loses none. The PostgreSQL pass runs it:
 * two instances with data dirs of their own cannot share a SQLite file.
 */
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find(path => existsSync(path))
const postgres = testEngine() === 'postgres'
if (postgres && !NGINX) console.warn('tests/e2e/nginx.test.ts skipped: nginx is not installed (apt-get install nginx-light)')
if (postgres && NGINX && !process.env.TEST_REDIS_URL) {
  throw new Error('tests/e2e/nginx.test.ts needs TEST_REDIS_URL (a throwaway redis-server): run it through '
    + 'scripts/engines.sh, e.g. `scripts/engines.sh npx vitest run --project e2e-pg tests/e2e/nginx.test.ts`')
}

describe.skipIf(!postgres || !NGINX)('two instances behind nginx, as the docs set it up', () => {
  let databaseUrl: string
  let prefix: string
  let nginx: ChildProcess
  let nginxUrl: string
  let env: Record<string, string>
  const instances: RunningServer[] = []
  let user: TestUser
  let uploadId: string

  beforeAll(async () => {
    databaseUrl = await createTestDatabase()
    const listen = await freePort()
    nginxUrl = `http://127.0.0.1:${listen}`
    env = {
      NUXT_REDIS_URL: process.env.TEST_REDIS_URL!,
      NUXT_REDIS_PREFIX: `dif-nginx-${randomBytes(6).toString('hex')}:`,
      NUXT_TRUST_PROXY: 'true',
      NUXT_PUBLIC_SITE_URL: nginxUrl,
    }
    // A first, so that B finds the schema migrated.
    instances.push(await startServer(env, { databaseUrl }))
    instances.push(await startServer(env, { databaseUrl }))

    prefix = mkdtempSync(join(tmpdir(), 'dif-nginx-'))
    const config = readFileSync(join(ROOT, 'docs/deployment/nginx.conf'), 'utf8')
      .replaceAll('@PREFIX@', prefix)
      .replaceAll('@LISTEN@', `127.0.0.1:${listen}`)
      .replaceAll('@INSTANCE_A@', `127.0.0.1:${instances[0]!.port}`)
      .replaceAll('@INSTANCE_B@', `127.0.0.1:${instances[1]!.port}`)
    expect(config).not.toMatch(/@[A-Z_]+@/)
    writeFileSync(join(prefix, 'nginx.conf'), config)
    // Started as root (a CI container), nginx's workers run as nobody and write request bodies under the prefix.
    chmodSync(prefix, 0o755)
    let output = ''
    nginx = spawn(NGINX!, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'error.log'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] })
    nginx.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    nginx.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    await waitFor(() => nginx.exitCode !== null || existsSync(join(prefix, 'nginx.pid')), 'nginx to start')
    expect(nginx.exitCode, output).toBeNull()
    let health = 0
    while (health !== 200) {
      health = await fetch(`${nginxUrl}/api/health`).then(response => response.status, () => 0)
      if (nginx.exitCode !== null) throw new Error(`nginx exited:\n${output}`)
    }
    user = await registerUser({}, nginxUrl)
    const created = await postUpload(user, { upload_type: 'link', external_url: 'https://example.com/behind-nginx', description: 'behind nginx' }, undefined, nginxUrl)
    expect(created.status).toBe(201)
    uploadId = created.body.upload.id
  })

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise(resolve => nginx.once('exit', resolve))
      nginx.kill('SIGQUIT')
      await exited
    }
    // Restarted instances were given their data dirs: removed here.
    for (const instance of instances) {
      await instance.stop()
      rmSync(instance.dataDir, { recursive: true, force: true })
    }
    if (databaseUrl) await dropTestDatabase(databaseUrl)
    if (process.env.DEBUG_NGINX) console.log(readFileSync(join(prefix, 'error.log'), 'utf8').split('\n').map(line => line.slice(11, 19) + line.slice(40, 110)).join('\n'))
    if (prefix) rmSync(prefix, { recursive: true, force: true })
  })

  it('passes the client address and request id through, and refuses a body over the upload cap with 413', async () => {
    // From 127.0.0.2 (all of 127/8 is loopback), with a made-up X-Forwarded-For that nginx replaces.
    const answer = await new Promise<{ status: number, requestId: string | undefined }>((resolve, reject) => {
      const req = request(`${nginxUrl}/api/tags`, { localAddress: '127.0.0.2', headers: { 'x-forwarded-for': '198.51.100.7', 'x-request-id': 'through-nginx-1' } }, (res) => {
        res.resume()
        res.on('end', () => resolve({ status: res.statusCode!, requestId: res.headers['x-request-id'] as string | undefined }))
      })
      req.on('error', reject)
      req.end()
    })
    expect(answer).toEqual({ status: 200, requestId: 'through-nginx-1' })
    const logged = () => instances.flatMap(instance => instance.output().split('\n'))
      .filter(line => line.includes('"through-nginx-1"')).map(line => JSON.parse(line) as Record<string, unknown>)
    await waitFor(() => logged().length === 1, 'the request\'s log line')
    expect(logged()[0]).toMatchObject({ route: '/api/tags', status: 200, clientIp: '127.0.0.2' })
    // nginx's access log names the same id, the client's own here.
    await waitFor(() => readFileSync(join(prefix, 'access.log'), 'utf8').includes('"GET /api/tags" 200'), 'nginx\'s access log line')
    expect(readFileSync(join(prefix, 'access.log'), 'utf8').split('\n').filter(line => line.includes('"GET /api/tags"'))[0]).toMatch(/ through-nginx-1$/)

    // Without an id of its own the request carries nginx's, which the instance keeps.
    expect((await fetch(`${nginxUrl}/api/tags`)).headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/)

    // 10 MB passes to the instance (not an image: 400 there); 12 MB stops at nginx.
    const almost = await api('/api/upload', { method: 'POST', token: user.token, baseURL: nginxUrl, body: uploadForm({ upload_type: 'image', description: 'big' }, { data: randomBytes(10 * 1024 * 1024 - 64 * 1024), name: 'big.png', type: 'image/png' }) })
    expect(almost.status).toBe(400)
    const tooLarge = await api('/api/upload', { method: 'POST', token: user.token, baseURL: nginxUrl, body: uploadForm({ upload_type: 'image', description: 'too big' }, { data: randomBytes(12 * 1024 * 1024), name: 'huge.png', type: 'image/png' }) })
    expect(tooLarge.status).toBe(413)
    expect(tooLarge.body).toEqual({ statusCode: 413, statusMessage: 'Content Too Large', message: 'File too large (max 10 MB)' })
  })

  it('loses no request while each instance in turn is stopped with SIGTERM and started again', async () => {
    const failures: string[] = []
    let sent = 0
    let restarting = true
    const vote = (i: number) => api('/api/vote', { method: 'POST', token: user.token, baseURL: nginxUrl, body: { uploadId, vote: i % 20 === 0 ? 'fucks' : 'does_not_fuck' } })
    const reads = ['/api/uploads', '/api/health', `/api/upload/${uploadId}`, '/api/tags']
    // Two clients, each sending its next request 20 ms after the last is answered: at least 200 GETs and 20
    // votes, and on until both restarts are done. The pause keeps the stream flowing for the whole restart
    // (up to about two minutes) within a bounded count; unpaced, a fast machine used the 6,000 up first.
    const client = async () => {
      while ((restarting || sent < 220) && sent < 6000) {
        const i = sent++
        const response = i % 10 === 0 ? await vote(i) : await api(reads[i % reads.length]!, { baseURL: nginxUrl })
        if (response.status !== 200) failures.push(`${i}: ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`)
        await new Promise(resolve => setTimeout(resolve, 20))
      }
    }
    const clients = [client(), client()]

    for (const index of [0, 1]) {
      const old = instances[index]!
      // Requests that came through nginx: they carry its $request_id (32 hex digits), the test's own direct ones a new UUID.
      const linesBefore = (server: RunningServer) => server.output().split('\n').filter(line => /"requestId":"[0-9a-f]{32}"/.test(line)).length
      // Both instances are taking requests from nginx before one stops: a restarted one only after
      // nginx tries it again (fail_timeout after it last refused a connection).
      const other = instances[1 - index]!
      const seen = [linesBefore(old), linesBefore(other)]
      // nginx tries an instance it marked down again only after fail_timeout (10 s): give it longer than that.
      await waitFor(() => linesBefore(old) > seen[0]! && linesBefore(other) > seen[1]!, 'requests on both instances', 30_000)
      await old.stop({ keepData: true })
      expect(old.process.exitCode).toBe(0)
      const started = await startServer({ ...env, PORT: String(old.port) }, { databaseUrl, dataDir: old.dataDir })
      instances[index] = started
      const health = await api('/api/health', { baseURL: started.url })
      expect(health.status).toBe(200)
      expect(health.body).toEqual({ status: 'ok', database: 'ok', redis: 'ok', storage: 'ok' })
    }
    // The restarted B takes requests from nginx again, then the stream ends.
    await waitFor(() => /"requestId":"[0-9a-f]{32}"/.test(instances[1]!.output()), 'requests on the restarted instance', 30_000)
    restarting = false
    await Promise.all(clients)
    expect(failures).toEqual([])
    expect(sent).toBeGreaterThanOrEqual(220)
  }, 120_000)

  it('answers 503 with Retry-After itself when no instance is reachable: the error shape for /api, a page elsewhere', async () => {
    // Last: both instances stop here (afterAll stops what is left).
    for (const instance of instances) await instance.stop({ keepData: true })
    const apiAnswer = await fetch(`${nginxUrl}/api/tags`, { headers: { 'x-request-id': 'no-instance-1' } })
    expect(apiAnswer.status).toBe(503)
    expect(apiAnswer.headers.get('content-type')).toBe('application/json')
    expect(apiAnswer.headers.get('retry-after')).toBe('5')
    expect(apiAnswer.headers.get('cache-control')).toBe('no-store')
    expect(await apiAnswer.json()).toEqual({ statusCode: 503, statusMessage: 'Service Unavailable', message: 'The site is unavailable, please try again shortly', requestId: 'no-instance-1' })
    // An id that is no safe token is replaced with nginx's own, so the answer stays the error shape.
    const injected = await fetch(`${nginxUrl}/api/tags`, { headers: { 'x-request-id': 'a","statusCode":200,"x":"y' } })
    expect((await injected.json() as { statusCode: number, requestId: string })).toMatchObject({ statusCode: 503, requestId: expect.stringMatching(/^[0-9a-f]{32}$/) })
    // A write too, and again once nginx has marked both down ("no live upstreams").
    for (let i = 0; i < 4; i++) {
      const vote = await api('/api/vote', { method: 'POST', token: user.token, baseURL: nginxUrl, body: { uploadId, vote: 'fucks' } })
      expect(vote.status).toBe(503)
      expect(vote.body).toMatchObject({ statusCode: 503, statusMessage: 'Service Unavailable', message: 'The site is unavailable, please try again shortly' })
    }
    const page = await fetch(`${nginxUrl}/upload/${uploadId}`)
    expect(page.status).toBe(503)
    expect(page.headers.get('content-type')).toBe('text/html')
    expect(page.headers.get('retry-after')).toBe('5')
    expect(await page.text()).toContain('<h1>Unavailable</h1>')
  })
})
