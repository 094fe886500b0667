import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { startServer, type RunningServer } from '../support/server'

describe('GET /api/health', () => {
  it('answers 200 with every part, never cached', async () => {
    const response = await api('/api/health')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ status: 'ok', database: 'ok', redis: 'off', storage: 'ok' })
    expect(response.headers.get('cache-control')).toBe('no-store')
  })
})

// Own server, for a switch of the operator's (a search budget of 0), then stopped by SIGTERM.
let server: RunningServer
const METRICS_TOKEN = 'operations-metrics-token'

beforeAll(async () => {
  server = await startServer({ NUXT_SEARCH_BUDGET_MS: '0', NUXT_METRICS_TOKEN: METRICS_TOKEN })
})

afterAll(async () => {
  await server.stop()
})

describe('GET /api/health with <data>/tmp unusable', () => {
  it('says storage error with 503 while no file can be made there, and ok again once it can', async () => {
    // Root passes every permission check: a file in the folder's place fails for anyone.
    const tmp = join(server.dataDir, 'tmp')
    rmSync(tmp, { recursive: true, force: true })
    writeFileSync(tmp, 'not a folder')
    const broken = await api('/api/health', { baseURL: server.url })
    expect(broken.status).toBe(503)
    expect(broken.body).toEqual({ status: 'error', database: 'ok', redis: 'off', storage: 'error' })
    // A folder removed while the server runs is made again.
    rmSync(tmp)
    const mended = await api('/api/health', { baseURL: server.url })
    expect(mended.status).toBe(200)
    expect(mended.body).toEqual({ status: 'ok', database: 'ok', redis: 'off', storage: 'ok' })
    expect(statSync(tmp).isDirectory()).toBe(true)
    expect(readdirSync(tmp)).toEqual([])
  })
})

describe('NUXT_SEARCH_BUDGET_MS=0', () => {
  const get = async (path: string) => {
    const response = await fetch(`${server.url}${path}`)
    return { status: response.status, type: response.headers.get('content-type'), body: await response.json() as unknown }
  }
  const refused = { statusCode: 400, statusMessage: 'Bad Request', message: 'Query too complex', data: { position: 0, expected: 'a narrower query' } }

  it('refuses every search that would weigh uploads one by one, in the error shape; kept lists still answer', async () => {
    expect(await get('/api/search?q=text%3Aanything')).toEqual({ status: 400, type: 'application/json', body: refused })
    expect(await get('/feeds/search.json?q=red%20OR%20blue')).toEqual({ status: 400, type: 'application/json', body: refused })
    // One tag, tags all wanted (the filtered list's AND) and a blank query are read as the lists are: no budget is spent.
    expect(await get('/api/search?q=anything')).toMatchObject({ status: 200, body: { uploads: [], total: 0 } })
    expect(await get('/api/search?q=red%20blue')).toMatchObject({ status: 200, body: { uploads: [], total: 0 } })
    expect(await get('/api/search?q=')).toMatchObject({ status: 200, body: { page: 1 } })
  })

  it('counts a search stopped at the budget in /metrics', async () => {
    const refusals = async () => {
      const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
      return Number(/^dif_searches_refused_total (\d+)$/m.exec(text)?.[1])
    }
    const before = await refusals()
    expect(Number.isInteger(before)).toBe(true)
    expect((await get('/api/search?q=text%3Acounted')).status).toBe(400)
    expect(await refusals()).toBe(before + 1)
  })

  it('says so on the search page, without pointing at a place in the query', async () => {
    const html = await (await fetch(`${server.url}/search?q=text%3Aanything`)).text()
    const problem = /<div[^>]*data-testid="search-error"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1]?.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim()
    expect(problem).toBe('Query too complex: this search would take too long. Add a tag or a rarer word to narrow it.')
  })
})

describe('SIGTERM', () => {
  it('finishes a request in flight, refuses new connections, closes and exits 0', async () => {
    const user = await registerUser({}, server.url)
    const boundary = 'shutdown-boundary'
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
    const body = part('upload_type', 'link') + part('external_url', 'https://example.com/in-flight') + part('description', 'sent across a shutdown') + `--${boundary}--\r\n`
    const answer = new Promise<{ status: number, body: string }>((resolve, reject) => {
      const req = request(`${server.url}/api/upload`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': Buffer.byteLength(body), 'cookie': `auth-token=${user.token}` },
      }, (res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => text += chunk.toString())
        res.on('end', () => resolve({ status: res.statusCode!, body: text }))
      })
      req.on('error', reject)
      // Half the body now, the rest after the signal.
      req.write(body.slice(0, 40))
      setTimeout(() => {
        server.process.kill('SIGTERM')
        setTimeout(() => req.end(body.slice(40)), 300)
      }, 300)
    })
    const exited = new Promise<number | null>(resolve => server.process.once('exit', code => resolve(code)))
    const finished = await answer
    expect(finished.status).toBe(201)
    expect(JSON.parse(finished.body).upload.description).toBe('sent across a shutdown')
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow()
    expect(await exited).toBe(0)
    // The log says when the stop began and when it was done.
    expect(server.output()).toContain('[stop] SIGTERM: no new connections; finishing the requests in flight (at most 10 s)')
    expect(server.output()).toContain('[stop] stopped: requests done, pools closed')
  })
})

describe('SIGTERM with a request that outlasts the wait', () => {
  it('logs the request the server cut off, as cut at shutdown, and still exits 0', async () => {
    const own = await startServer({ NITRO_SHUTDOWN_TIMEOUT: '500' })
    const user = await registerUser({}, own.url)
    // A body that never ends: the upload waits for it until the server gives up.
    const req = request(`${own.url}/api/upload`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=never', 'content-length': 100_000, 'cookie': `auth-token=${user.token}`, 'x-request-id': 'cut-at-shutdown' },
    })
    req.on('error', () => {})
    req.write('--never\r\n')
    await new Promise(resolve => setTimeout(resolve, 300))
    const exited = new Promise<number | null>(resolve => own.process.once('exit', code => resolve(code)))
    own.process.kill('SIGTERM')
    expect(await exited).toBe(0)
    const line = own.output().split('\n').find(text => text.includes('"requestId":"cut-at-shutdown"'))
    expect(line && JSON.parse(line)).toMatchObject({ method: 'POST', route: '/api/upload', status: 503, cut: 'shutdown', msg: 'request' })
    await own.stop()
  })
})
