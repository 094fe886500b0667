import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { waitFor } from '../support/accounts'
import { api, registerUser, type ApiResponse, type TestUser } from '../support/api'
import { databaseOf } from '../support/seed'
import { startServer, testEngine, type RunningServer } from '../support/server'
import { postUpload, uploadImage } from '../support/uploads'

/**
 * docs/operations.md, Monitoring and Logs: GET /metrics behind
 * NUXT_METRICS_TOKEN, one JSON log line per request, X-Request-Id in and
 * out, and the request id in a 5xx body. One server for the file, on each
 * engine; its numbers start at zero.
 */
const TOKEN = 'metrics-token-for-the-tests'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

let server: RunningServer
let user: TestUser

beforeAll(async () => {
  server = await startServer({ NUXT_METRICS_TOKEN: TOKEN })
  user = await registerUser({}, server.url)
})

afterAll(async () => {
  await server?.stop()
})

/** The scraped series as `name{labels}` → value. */
async function scrape(): Promise<Map<string, number>> {
  const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  const series = new Map<string, number>()
  for (const line of (await response.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue
    const at = line.lastIndexOf(' ')
    series.set(line.slice(0, at), Number(line.slice(at + 1)))
  }
  return series
}

/** The server's JSON log lines so far. */
function logLines(): Record<string, unknown>[] {
  return server.output().split('\n').filter(line => line.startsWith('{')).map(line => JSON.parse(line) as Record<string, unknown>)
}

/** The log line of the request with this id, once written. */
async function logLineOf(requestId: string, msg = 'request'): Promise<Record<string, unknown>> {
  await waitFor(() => logLines().some(line => line.requestId === requestId && line.msg === msg), `the ${msg} line of ${requestId}`)
  return logLines().find(line => line.requestId === requestId && line.msg === msg)!
}

const requestIdOf = (response: ApiResponse) => response.headers.get('x-request-id')

describe('GET /metrics', () => {
  it('counts a known sequence of requests by route template, method and status, with votes, uploads, refusals and the list cache', async () => {
    const upload = await uploadImage(user, { baseURL: server.url })
    const noFile = await postUpload(user, { upload_type: 'image', description: 'no file' }, undefined, server.url)
    expect(noFile.status).toBe(400)
    const vote = await api('/api/vote', { method: 'POST', token: user.token, body: { uploadId: upload.id, vote: 'fucks' }, baseURL: server.url })
    expect(vote.status).toBe(200)
    const anonymous = await api('/api/vote/anonymous', { method: 'POST', body: { uploadId: upload.id, vote: 'upvote', clientFingerprint: `fp-${randomUUID()}` }, baseURL: server.url })
    expect(anonymous.status).toBe(200)
    // A miss (the votes moved the data version), then the same answer again.
    for (let i = 0; i < 2; i++) expect((await api('/api/uploads', { baseURL: server.url })).status).toBe(200)
    const missing = randomUUID()
    expect((await api(`/api/upload/${missing}`, { baseURL: server.url })).status).toBe(404)
    expect((await api(`/api/no/such/${missing}`, { baseURL: server.url })).status).toBe(404)
    expect((await api(`/no/such/page/${missing}`, { baseURL: server.url })).status).toBe(404)

    const series = await scrape()
    const requests = (route: string, method: string, status: number) => series.get(`dif_http_requests_total{route="${route}",method="${method}",status="${status}"}`)
    expect(requests('/api/auth', 'POST', 201)).toBe(1)
    expect(requests('/api/upload', 'POST', 201)).toBe(1)
    expect(requests('/api/upload', 'POST', 400)).toBe(1)
    expect(requests('/api/vote', 'POST', 200)).toBe(1)
    expect(requests('/api/vote/anonymous', 'POST', 200)).toBe(1)
    expect(requests('/api/uploads', 'GET', 200)).toBe(2)
    expect(requests('/api/upload/[id]', 'GET', 404)).toBe(1)
    // An unknown API path and an unknown page: one label, never the path.
    expect(requests('unmatched', 'GET', 404)).toBe(2)
    expect(series.get('dif_http_request_duration_seconds_count{route="/api/uploads",method="GET",status="200"}')).toBe(2)
    expect(series.get('dif_http_request_duration_seconds_bucket{le="+Inf",route="/api/uploads",method="GET",status="200"}')).toBe(2)
    expect(series.get('dif_votes_total')).toBe(1)
    expect(series.get('dif_anonymous_votes_total')).toBe(1)
    expect(series.get('dif_uploads_total')).toBe(1)
    expect(series.get('dif_uploads_rejected_total{reason="invalid"}')).toBe(1)
    const hits = series.get('dif_list_cache_lookups_total{result="hit"}') ?? 0
    const misses = series.get('dif_list_cache_lookups_total{result="miss"}') ?? 0
    // On PostgreSQL another database's transaction on the cluster may move the data version in between.
    if (testEngine() === 'sqlite') expect([hits, misses]).toEqual([1, 1])
    else expect(hits + misses).toBe(2)
    expect(series.get('dif_image_queue_wait_seconds_count')).toBeGreaterThanOrEqual(1)
    expect(series.get('dif_image_queue_refused_total')).toBe(0)
    expect(series.get('dif_image_queue_depth{queue="request"}')).toBe(0)
    expect(series.get('dif_image_slots_busy')).toBeGreaterThanOrEqual(0)
    const engine = testEngine()
    expect(series.get(`dif_db_pool_connections{engine="${engine}",state="waiting"}`)).toBe(0)
    expect(series.get(`dif_db_pool_connections{engine="${engine}",state="total"}`)).toBeGreaterThanOrEqual(1)
    expect(series.get('dif_redis_connected')).toBe(0)
    expect(series.get('process_cpu_user_seconds_total')).toBeGreaterThan(0)
    expect(series.has('nodejs_eventloop_lag_seconds')).toBe(true)
    // No id, user name or made-up path became a label value.
    const names = [...series.keys()].join('\n')
    for (const raw of [missing, upload.id, user.username, '/no/such']) expect(names).not.toContain(raw)

    // The home page rendered, then answered from the page cache: both counted and logged.
    expect((await api('/', { baseURL: server.url })).status).toBe(200)
    const cached = await api('/', { baseURL: server.url })
    expect([cached.status, cached.headers.get('x-page-cache')]).toEqual([200, 'hit'])
    expect(await logLineOf(requestIdOf(cached)!)).toMatchObject({ route: '/', status: 200 })
    expect((await scrape()).get('dif_http_requests_total{route="/",method="GET",status="200"}')).toBe(2)
  })

  it('answers 401 in the error shape without the token or with a wrong one', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, `Basic ${TOKEN}`]) {
      const refused = await api('/metrics', { baseURL: server.url, headers: authorization ? { authorization } : {} })
      expect(refused.status, authorization).toBe(401)
      expect(refused.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'A valid metrics token is required' })
      expect(refused.headers.get('www-authenticate')).toBe('Bearer')
    }
    // The scheme's name in any case, as HTTP allows.
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `bearer ${TOKEN}` } })).status).toBe(200)
  })
})

describe('request logs and request ids', () => {
  it('logs one JSON line per request with its template, never its path or query', async () => {
    const missing = randomUUID()
    const response = await api(`/api/upload/${missing}?token=query-secret-1234`, {
      baseURL: server.url,
      token: user.token,
      headers: { 'x-request-id': 'edge-42.a_b', 'x-forwarded-for': '203.0.113.9' },
    })
    expect(response.status).toBe(404)
    expect(requestIdOf(response)).toBe('edge-42.a_b')
    expect(await logLineOf('edge-42.a_b')).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      requestId: 'edge-42.a_b',
      method: 'GET',
      route: '/api/upload/[id]',
      status: 404,
      durationMs: expect.any(Number),
      // NUXT_TRUST_PROXY is off: X-Forwarded-For is not believed.
      clientIp: '127.0.0.1',
      msg: 'request',
    })
    for (const secret of [missing, 'query-secret-1234', user.token]) expect(server.output()).not.toContain(secret)
  })

  it('answers with a new id when the incoming one is not a short safe token', async () => {
    for (const incoming of ['has space', 'a'.repeat(65), 'semi;colon', '{"json":1}']) {
      const response = await api('/api/uploads', { baseURL: server.url, headers: { 'x-request-id': incoming } })
      expect(response.status).toBe(200)
      const id = requestIdOf(response)!
      expect(id, incoming).toMatch(UUID)
      expect((await logLineOf(id)).route).toBe('/api/uploads')
    }
    const longest = 'Z'.repeat(64)
    expect(requestIdOf(await api('/api/tags', { baseURL: server.url, headers: { 'x-request-id': longest } }))).toBe(longest)
  })

  it('gives a 5xx body the request id, and logs the error under it', async () => {
    const { db } = databaseOf(server)
    if (db.dialect === 'postgres') {
      await db.run(sql`CREATE FUNCTION refuse_upload() RETURNS trigger LANGUAGE plpgsql AS
        'BEGIN IF NEW.description = ''refused by the database'' THEN RAISE EXCEPTION ''refused''; END IF; RETURN NEW; END'`)
      await db.run(sql`CREATE TRIGGER refuse_upload BEFORE INSERT ON uploads FOR EACH ROW EXECUTE FUNCTION refuse_upload()`)
    }
    else {
      await db.run(sql`CREATE TRIGGER refuse_upload BEFORE INSERT ON uploads WHEN NEW.description = 'refused by the database'
        BEGIN SELECT RAISE(ABORT, 'refused'); END`)
    }
    try {
      const refused = await postUpload(user, { upload_type: 'link', external_url: 'https://example.com/refused', description: 'refused by the database' }, undefined, server.url)
      expect(refused.status).toBe(500)
      const id = requestIdOf(refused)!
      expect(id).toMatch(UUID)
      expect(refused.body).toEqual({ statusCode: 500, statusMessage: 'Internal Server Error', message: 'Internal server error', requestId: id })
      expect(await logLineOf(id, '[api] internal error')).toMatchObject({ level: 'error', method: 'POST', route: '/api/upload', err: { message: expect.stringContaining('refused') } })
      expect(await logLineOf(id)).toMatchObject({ route: '/api/upload', status: 500 })
      expect((await scrape()).get('dif_uploads_rejected_total{reason="error"}')).toBe(1)
    }
    finally {
      await db.run(sql`DROP TRIGGER refuse_upload${sql.raw(db.dialect === 'postgres' ? ' ON uploads' : '')}`)
    }
  })
})
