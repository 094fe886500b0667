import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { createTestDatabase, dropTestDatabase } from '../support/postgres'
import { seedUpload } from '../support/seed'
import { startServer, testEngine, type RunningServer } from '../support/server'

/**
 * The page cache (server/services/page-cache.ts): a public page viewed
 * without a cookie is rendered once and answered from memory after, byte for
 * byte, until the database changes, here or on another instance sharing it.
 * Two servers of their own on one database (one SQLite file, or one
 * PostgreSQL database), so no other test's writes move the data version.
 */
let a: RunningServer
let b: RunningServer
let owner: TestUser
let uploadId: string
let stopPair: () => Promise<void>

beforeAll(async () => {
  const postgres = testEngine() === 'postgres'
  const databaseUrl = postgres ? await createTestDatabase() : undefined
  const dataDir = postgres ? undefined : mkdtempSync(join(tmpdir(), 'dif-e2e-page-cache-'))
  const started: RunningServer[] = []
  stopPair = async () => {
    await Promise.all(started.map(server => server.stop()))
    if (databaseUrl) await dropTestDatabase(databaseUrl)
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  }
  started.push(await startServer({}, { databaseUrl, dataDir }))
  started.push(await startServer({}, { databaseUrl, dataDir }))
  ;[a, b] = started as [RunningServer, RunningServer]
  owner = await registerUser({}, a.url)
  uploadId = await seedUpload(owner, { description: 'the page cache\'s upload', tags: ['cached'] }, a)
})
afterAll(() => stopPair())

interface Page { status: number, cache: string | null, control: string | null, csp: string | null, encoding: string | null, body: Buffer }

/** A GET as sent on the wire (fetch would undo the compression). */
function view(server: RunningServer, path: string, headers: Record<string, string> = {}): Promise<Page> {
  return new Promise((resolve, reject) => {
    request(`${server.url}${path}`, { headers: { accept: 'text/html', ...headers } }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({
        status: response.statusCode!,
        cache: (response.headers['x-page-cache'] as string | undefined) ?? null,
        control: response.headers['cache-control'] ?? null,
        csp: (response.headers['content-security-policy'] as string | undefined) ?? null,
        encoding: response.headers['content-encoding'] ?? null,
        body: Buffer.concat(chunks),
      }))
      response.on('error', reject)
    }).on('error', reject).end()
  })
}

/**
 * How long a check may wait for the data to hold still. On SQLite only this
 * file's servers write to their database, and a check runs once. On
 * PostgreSQL the data version is the cluster's snapshot, which a write by
 * another test file to its own database moves, and pages are then rendered
 * anew: a check is run again until it sees a quiet moment.
 */
const QUIET_WITHIN_MS = testEngine() === 'postgres' ? 20_000 : 0

/** Views `path` until a view is answered from memory; answers the last view rendered and that one. */
async function viewUntilKept(server: RunningServer, path: string, headers: Record<string, string> = {}): Promise<[Page, Page]> {
  const deadline = Date.now() + QUIET_WITHIN_MS
  let rendered = await view(server, path, headers)
  for (;;) {
    const next = await view(server, path, headers)
    if (next.cache === 'hit' || Date.now() >= deadline) return [rendered, next]
    rendered = next
  }
}

/** Runs `views` again while `steady` says no, until QUIET_WITHIN_MS has passed. */
async function steadily<T>(views: () => Promise<T>, steady: (result: T) => boolean): Promise<T> {
  const deadline = Date.now() + QUIET_WITHIN_MS
  for (;;) {
    const result = await views()
    if (steady(result) || Date.now() >= deadline) return result
  }
}

const ogDescription = (page: Page) => page.body.toString('utf8').match(/<meta property="og:description" content="([^"]*)"/)?.[1]

describe('the page cache', { timeout: 120_000 }, () => {
  it('answers a second view of each public page from memory, with the same bytes and policy', async () => {
    for (const path of ['/', '/?sort=top&period=week', `/upload/${uploadId}`, '/tags/cached', `/user/${owner.username}`, '/docs']) {
      const [first, second] = await viewUntilKept(a, path)
      expect(first.status, path).toBe(200)
      expect(first.cache, path).toBeNull()
      expect(second.status, path).toBe(200)
      expect(second.cache, path).toBe('hit')
      expect(second.csp, path).toBe(first.csp)
      expect(second.body.equals(first.body), path).toBe(true)
    }
    // The other instance renders its own first.
    const onB = await viewUntilKept(b, `/upload/${uploadId}`)
    expect(onB.map(page => page.cache)).toEqual([null, 'hit'])
  })

  it('keeps each compressed variant, and it holds the same page', async () => {
    const path = `/user/${owner.username}`
    const [identity, first, second] = await steadily(async () => [
      (await viewUntilKept(a, path))[1],
      await view(a, path, { 'accept-encoding': 'br' }),
      await view(a, path, { 'accept-encoding': 'br' }),
    ], views => views.every(page => page.cache === 'hit'))
    expect([first.encoding, second.encoding]).toEqual(['br', 'br'])
    expect([first.cache, second.cache]).toEqual(['hit', 'hit'])
    expect(second.body.equals(first.body)).toBe(true)
    expect(brotliDecompressSync(second.body).equals(identity.body)).toBe(true)
  })

  it('renders again after a write on either instance, and shows it', async () => {
    const path = `/upload/${uploadId}`
    const [, before] = await viewUntilKept(a, path)
    expect(before.cache).toBe('hit')
    expect(ogDescription(before)).toBe('0 say it fucks, 0 say it does not. Cast your vote.')

    const voter = await registerUser({}, b.url)
    expect((await api('/api/vote', { method: 'POST', body: { uploadId, vote: 'fucks' }, token: voter.token, baseURL: b.url })).status).toBe(200)
    const after = await view(a, path)
    expect(after.cache).toBeNull()
    expect(ogDescription(after)).toBe('1 says it fucks, 0 say it does not. Cast your vote.')
    expect((await viewUntilKept(a, path))[1].cache).toBe('hit')

    const added = await seedUpload(owner, { description: 'posted after the home page was kept' }, b)
    const [, home] = await viewUntilKept(a, '/')
    expect(home.cache).toBe('hit')
    expect(home.body.toString('utf8')).toContain(added)
  })

  it('renders a page once for visitors who come at the same time', async () => {
    const path = `/user/${owner.username}`
    const views = await steadily(async () => {
      await seedUpload(owner, { description: 'moves the data version' }, a)
      return Promise.all(Array.from({ length: 8 }, () => view(a, path)))
    }, views => views.filter(page => page.cache === null).length === 1)
    expect(views.map(page => page.status)).toEqual(Array(8).fill(200))
    expect(views.filter(page => page.cache === null)).toHaveLength(1)
    expect(views.filter(page => page.cache === 'hit')).toHaveLength(7)
    for (const page of views) expect(page.body.equals(views[0]!.body)).toBe(true)
  })

  it('never answers or keeps a view that sends a cookie or credentials', async () => {
    const path = `/user/${owner.username}`
    await view(a, path)
    const dark = await view(a, path, { cookie: 'theme=dark' })
    expect(dark.cache).toBeNull()
    expect(dark.body.toString('utf8')).toContain('data-theme="dark"')
    expect((await view(a, path, { cookie: 'theme=dark' })).cache).toBeNull()
    const [, plain] = await viewUntilKept(a, path)
    expect(plain.cache).toBe('hit')
    expect(plain.body.toString('utf8')).not.toContain('data-theme="dark"')

    const signedIn = await view(a, path, { cookie: `auth-token=${owner.token}` })
    expect(signedIn.cache).toBeNull()
    expect(signedIn.body.toString('utf8')).toContain('href="/settings"')
    const withCredentials = await view(a, path, { authorization: `Bearer ${owner.token}` })
    expect(withCredentials.cache).toBeNull()
    expect(plain.body.toString('utf8')).not.toContain('href="/settings"')
    // What a cookie or credentials rendered is kept by the browser alone, and asked for again.
    expect([dark.control, signedIn.control, withCredentials.control]).toEqual(['private, no-cache', 'private, no-cache', 'private, no-cache'])
    expect(plain.control).toBeNull()
  })

  it('leaves out pages of one visitor, failed renders and other methods', async () => {
    for (const path of ['/vote', '/login', '/upload/new', '/settings', '/my-uploads']) {
      await view(a, path)
      expect((await view(a, path)).cache, path).toBeNull()
    }
    const missing = '/upload/00000000-0000-4000-8000-000000000000'
    expect((await view(a, missing)).status).toBe(404)
    const again = await view(a, missing)
    expect([again.status, again.cache]).toEqual([404, null])
    const head = await fetch(`${a.url}/docs`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('x-page-cache')).toBeNull()
  })

  it('lets run inline only the scripts its policy lists by hash, and sets no cookie', async () => {
    for (const path of ['/', `/upload/${uploadId}`]) {
      const response = await fetch(`${a.url}${path}`)
      expect(response.headers.get('set-cookie'), path).toBeNull()
      const csp = response.headers.get('content-security-policy')!
      const html = await response.text()
      const scriptSrc = csp.split('; ').find(directive => directive.startsWith('script-src '))!
      const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
        .filter(([, attributes]) => !/\bsrc=/.test(attributes!) && !/type="application\/json"/.test(attributes!))
        .map(([, , text]) => `'sha256-${createHash('sha256').update(text!).digest('base64')}'`)
      expect(inline.length, path).toBeGreaterThan(0)
      expect(scriptSrc, path).toBe(`script-src 'self' ${[...new Set(inline)].join(' ')}`)
      expect(csp, path).not.toContain('nonce')
    }
  })
})
