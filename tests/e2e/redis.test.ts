import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Redis from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { createTestDatabase, dropTestDatabase } from '../support/postgres'
import { freePort, startServer, testEngine, type RunningServer } from '../support/server'
import { postUpload } from '../support/uploads'

/**
 * docs/behaviour.md, Scaling out: with NUXT_REDIS_URL, instances A and B on the same rows
 * count each rate limit once and never serve a list that misses a write acknowledged
 * by the other; without Redis reachable they keep answering, per instance.
 *
 * The rows are shared as each engine allows: one PostgreSQL database on the PostgreSQL
 * pass, one data dir (SQLite in WAL mode, two processes on one file) on the SQLite pass.
 */
const SHARED_REDIS = process.env.TEST_REDIS_URL
if (!SHARED_REDIS) {
  throw new Error('tests/e2e/redis.test.ts needs TEST_REDIS_URL (a throwaway redis-server): run it through '
    + 'scripts/engines.sh, e.g. `scripts/engines.sh npx vitest run --project e2e tests/e2e/redis.test.ts`, or `npm test`')
}

interface Pair { a: RunningServer, b: RunningServer, stop: () => Promise<void> }

/** Starts A, then B (so B finds the schema migrated) on shared rows, both with `env`. */
async function startPair(env: Record<string, string>): Promise<Pair> {
  const postgres = testEngine() === 'postgres'
  const databaseUrl = postgres ? await createTestDatabase() : undefined
  const dataDir = postgres ? undefined : mkdtempSync(join(tmpdir(), 'dif-e2e-shared-'))
  const servers: RunningServer[] = []
  const stop = async () => {
    await Promise.all(servers.map(server => server.stop()))
    if (databaseUrl) await dropTestDatabase(databaseUrl)
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    servers.push(await startServer(env, { databaseUrl, dataDir }))
    servers.push(await startServer(env, { databaseUrl, dataDir }))
  }
  catch (error) {
    await stop()
    throw error
  }
  return { a: servers[0]!, b: servers[1]!, stop }
}

/** A key prefix of its own, so test runs sharing one Redis never see each other's keys. */
const uniquePrefix = () => `dif-test-${randomBytes(6).toString('hex')}:`

const login = (baseURL: string) =>
  api('/api/auth', { method: 'POST', body: { action: 'login', email: 'nobody@e2e.test', password: 'whatever1' }, baseURL })

async function linkUpload(user: TestUser, baseURL: string): Promise<string> {
  const response = await postUpload(user, { upload_type: 'link', external_url: `https://example.com/${randomBytes(6).toString('hex')}`, description: 'shared between instances' }, undefined, baseURL)
  expect(response.status).toBe(201)
  return response.body.upload.id
}

/** `stats` of `uploadId` in the newest-first list as `baseURL` answers it. */
async function statsIn(baseURL: string, uploadId: string) {
  const response = await api('/api/uploads?limit=50', { baseURL })
  expect(response.status).toBe(200)
  return response.body.uploads.find((entry: { id: string }) => entry.id === uploadId)?.stats
}

const vote = (user: TestUser, uploadId: string, value: 'fucks' | 'does_not_fuck', baseURL: string) =>
  api('/api/vote', { method: 'POST', body: { uploadId, vote: value }, token: user.token, baseURL })

async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (done(value) || Date.now() > deadline) return value
    await new Promise(r => setTimeout(r, 100))
  }
}

const health = (baseURL: string) => api('/api/health', { baseURL })

describe('two instances on one Redis', () => {
  const prefix = uniquePrefix()
  let pair: Pair
  let redis: Redis
  let user: TestUser

  beforeAll(async () => {
    redis = new Redis(SHARED_REDIS)
    pair = await startPair({
      NUXT_REDIS_URL: SHARED_REDIS,
      NUXT_REDIS_PREFIX: prefix,
      NUXT_RATE_LIMIT_ENABLED: 'true',
      NUXT_RATE_LIMIT_AUTH_MAX: '10',
      NUXT_RATE_LIMIT_GENERAL_MAX: '1000',
    })
    // Registering is POST /api/auth: the first of the 10 AUTH requests, on A.
    user = await registerUser({}, pair.a.url)
  })

  afterAll(async () => {
    await pair?.stop()
    await redis?.quit()
  })

  it('say redis "ok" in /api/health', async () => {
    for (const server of [pair.a, pair.b]) {
      const response = await health(server.url)
      expect(response.status).toBe(200)
      expect(response.body).toEqual({ status: 'ok', database: 'ok', redis: 'ok', storage: 'ok' })
    }
  })

  it('count an AUTH limit of 10 once: spent after 10 requests split across A and B', async () => {
    // Request 1 was the registration on A; 2..10 alternate B, A, B, ...
    for (let n = 2; n <= 10; n++) {
      const server = n % 2 === 0 ? pair.b : pair.a
      const response = await login(server.url)
      expect(response.status, `request ${n}`).toBe(401)
      expect(response.headers.get('ratelimit-limit')).toBe('10')
      expect(response.headers.get('ratelimit-remaining'), `request ${n}`).toBe(String(10 - n))
    }
    for (const server of [pair.a, pair.b]) {
      const limited = await login(server.url)
      expect(limited.status).toBe(429)
      const retryAfter = Number(limited.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(900)
      expect(limited.headers.get('ratelimit-remaining')).toBe('0')
      expect(limited.body).toEqual({ statusCode: 429, statusMessage: 'Too Many Requests', message: 'Too many requests, please try again later' })
    }
    // The counter lives in Redis under this run's prefix, one key for both instances.
    expect(await redis.get(`${prefix}rl:auth:127.0.0.1`)).toBe('12')
  })

  it('show a vote taken on A in B\'s cached list at once', async () => {
    const uploadId = await linkUpload(user, pair.a.url)
    // Read twice on B: the second answer comes from B's list cache.
    expect(await statsIn(pair.b.url, uploadId)).toEqual({ voteCount: 0, upvotes: 0, downvotes: 0, averageRating: null })
    expect(await statsIn(pair.b.url, uploadId)).toEqual({ voteCount: 0, upvotes: 0, downvotes: 0, averageRating: null })

    expect((await vote(user, uploadId, 'fucks', pair.a.url)).status).toBe(200)
    expect(await statsIn(pair.b.url, uploadId)).toEqual({ voteCount: 1, upvotes: 1, downvotes: 0, averageRating: 10 })

    expect((await vote(user, uploadId, 'does_not_fuck', pair.b.url)).status).toBe(200)
    expect(await statsIn(pair.a.url, uploadId)).toEqual({ voteCount: 1, upvotes: 0, downvotes: 1, averageRating: 1 })
    expect(await statsIn(pair.b.url, uploadId)).toEqual({ voteCount: 1, upvotes: 0, downvotes: 1, averageRating: 1 })
  })

  it('count GENERAL once too, and give a 304\'s point back in Redis', async () => {
    const first = await api('/api/uploads', { baseURL: pair.a.url })
    expect(first.status).toBe(200)
    const remaining = Number(first.headers.get('ratelimit-remaining'))
    expect(remaining).toBeGreaterThan(900)
    for (const server of [pair.b, pair.a, pair.b]) {
      const revalidated = await api('/api/uploads', { baseURL: server.url, headers: { 'if-none-match': first.headers.get('etag')! } })
      expect(revalidated.status).toBe(304)
      expect(revalidated.headers.get('ratelimit-remaining')).toBe(String(remaining))
    }
    const changed = await api('/api/uploads', { baseURL: pair.b.url, headers: { 'if-none-match': '"stale"' } })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('ratelimit-remaining')).toBe(String(remaining - 1))
  })

  it('close the Redis connection on SIGTERM and exit 0', async () => {
    const exited = new Promise<number | null>(resolve => pair.a.process.once('exit', code => resolve(code)))
    pair.a.process.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})

/** A redis-server of this test's own, on 127.0.0.1:`port`, that the test can stop and start again. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 })
  probe.on('error', () => { /* refused until it listens */ })
  const deadline = Date.now() + 5000
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode} (port ${port})`)
      try {
        await probe.connect()
        if (await probe.ping() === 'PONG') return child
      }
      catch { /* not listening yet */ }
      if (Date.now() > deadline) {
        child.kill('SIGKILL')
        throw new Error(`redis-server did not answer on 127.0.0.1:${port} within 5 s`)
      }
      await new Promise(r => setTimeout(r, 50))
    }
  }
  finally {
    probe.disconnect()
  }
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise(r => child.once('exit', r))
  child.kill('SIGKILL')
  await exited
}

describe('two instances while Redis is down', () => {
  let port: number
  let redisServer: ChildProcess
  let pair: Pair
  let user: TestUser

  beforeAll(async () => {
    port = await freePort()
    redisServer = await startRedis(port)
    pair = await startPair({
      NUXT_REDIS_URL: `redis://127.0.0.1:${port}`,
      NUXT_REDIS_PREFIX: uniquePrefix(),
      NUXT_RATE_LIMIT_ENABLED: 'true',
      NUXT_RATE_LIMIT_AUTH_MAX: '3',
      NUXT_RATE_LIMIT_GENERAL_MAX: '1000',
    })
    user = await registerUser({}, pair.a.url)
  })

  afterAll(async () => {
    await pair?.stop()
    if (redisServer) await stopRedis(redisServer)
  })

  it('keep answering with per-instance limits and fresh lists, say so in /api/health, and recover', async () => {
    const uploadId = await linkUpload(user, pair.a.url)
    expect(await statsIn(pair.b.url, uploadId)).toEqual({ voteCount: 0, upvotes: 0, downvotes: 0, averageRating: null })

    await stopRedis(redisServer)
    for (const server of [pair.a, pair.b]) {
      const response = await eventually(() => health(server.url), r => r.status === 503)
      expect(response.status).toBe(503)
      expect(response.body).toEqual({ status: 'error', database: 'ok', redis: 'error', storage: 'ok' })
      expect(response.headers.get('cache-control')).toBe('no-store')
    }

    // Limits: each instance counts on its own (3 each), never a 500.
    for (const server of [pair.a, pair.b]) {
      for (let n = 1; n <= 3; n++) {
        const response = await login(server.url)
        expect(response.status).toBe(401)
        expect(response.headers.get('ratelimit-limit')).toBe('3')
        expect(response.headers.get('ratelimit-remaining')).toBe(String(3 - n))
      }
      const limited = await login(server.url)
      expect(limited.status).toBe(429)
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    }

    // Lists: the cache is off, so B's list has A's vote at once, and A's list B's.
    expect(await statsIn(pair.b.url, uploadId)).toEqual({ voteCount: 0, upvotes: 0, downvotes: 0, averageRating: null })
    expect((await vote(user, uploadId, 'fucks', pair.a.url)).status).toBe(200)
    expect(await statsIn(pair.b.url, uploadId)).toEqual({ voteCount: 1, upvotes: 1, downvotes: 0, averageRating: 10 })
    expect(await statsIn(pair.a.url, uploadId)).toEqual({ voteCount: 1, upvotes: 1, downvotes: 0, averageRating: 10 })
    expect((await vote(user, uploadId, 'does_not_fuck', pair.b.url)).status).toBe(200)
    expect(await statsIn(pair.a.url, uploadId)).toEqual({ voteCount: 1, upvotes: 0, downvotes: 1, averageRating: 1 })

    // Redis back on the same port, empty: both reconnect by themselves.
    redisServer = await startRedis(port)
    for (const server of [pair.a, pair.b]) {
      const response = await eventually(() => health(server.url), r => r.status === 200)
      expect(response.status).toBe(200)
      expect(response.body).toEqual({ status: 'ok', database: 'ok', redis: 'ok', storage: 'ok' })
    }

    // One line when Redis went away and one when it came back, not one per retry.
    for (const server of [pair.a, pair.b]) {
      expect(server.output().match(/\[redis\] unreachable/g)).toHaveLength(1)
      expect(server.output().match(/\[redis\] connected again/g)).toHaveLength(1)
    }

    // One count again (the restarted Redis holds no counters yet): A then B.
    expect((await login(pair.a.url)).headers.get('ratelimit-remaining')).toBe('2')
    expect((await login(pair.b.url)).headers.get('ratelimit-remaining')).toBe('1')

    // And lists still carry every acknowledged vote, from the cache or not.
    expect(await statsIn(pair.b.url, uploadId)).toEqual({ voteCount: 1, upvotes: 0, downvotes: 1, averageRating: 1 })
    expect(await statsIn(pair.b.url, uploadId)).toEqual({ voteCount: 1, upvotes: 0, downvotes: 1, averageRating: 1 })
    expect((await vote(user, uploadId, 'fucks', pair.a.url)).status).toBe(200)
    expect(await statsIn(pair.b.url, uploadId)).toEqual({ voteCount: 1, upvotes: 1, downvotes: 0, averageRating: 10 })
  })

  it('answer within the 1 s command timeout while Redis stalls without closing connections', async () => {
    const uploadId = await linkUpload(user, pair.a.url)
    expect(await statsIn(pair.b.url, uploadId)).toEqual({ voteCount: 0, upvotes: 0, downvotes: 0, averageRating: null })
    redisServer.kill('SIGSTOP')
    try {
      const started = Date.now()
      const response = await api('/api/tags', { baseURL: pair.a.url })
      expect(response.status).toBe(200)
      expect(response.headers.get('ratelimit-limit')).toBe('1000')
      expect(Date.now() - started).toBeLessThan(5000)
      const sick = await health(pair.b.url)
      expect(sick.status).toBe(503)
      expect(sick.body.redis).toBe('error')
      expect((await vote(user, uploadId, 'fucks', pair.a.url)).status).toBe(200)
      expect(await statsIn(pair.b.url, uploadId)).toEqual({ voteCount: 1, upvotes: 1, downvotes: 0, averageRating: 10 })
    }
    finally {
      redisServer.kill('SIGCONT')
    }
    for (const server of [pair.a, pair.b]) {
      expect((await eventually(() => health(server.url), r => r.status === 200)).status).toBe(200)
    }
    expect(await statsIn(pair.b.url, uploadId)).toEqual({ voteCount: 1, upvotes: 1, downvotes: 0, averageRating: 10 })
    expect((await vote(user, uploadId, 'does_not_fuck', pair.a.url)).status).toBe(200)
    expect(await statsIn(pair.b.url, uploadId)).toEqual({ voteCount: 1, upvotes: 0, downvotes: 1, averageRating: 1 })
  })
})

describe('a NUXT_REDIS_URL that is not a Redis URL', () => {
  it('stops the start with one line saying so', async () => {
    await expect(startServer({ NUXT_REDIS_URL: '127.0.0.1:6379' })).rejects.toThrow(
      /Server exited with 1:[\s\S]*\[start\] cannot start: NUXT_REDIS_URL must start with redis:\/\/ or rediss:\/\//)
  })
})
