import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { seedUpload } from '../support/seed'
import { startServer, type RunningServer } from '../support/server'

/**
 * The API calls a page makes while it is rendered on the server are not the
 * visitor's API use (docs/behaviour.md, Rate limits: counted are the /api
 * requests a client sends). Rate limits on, at their default values; every request here
 * comes from the same client, 127.0.0.1.
 */
const ONE_MINUTE = 60_000

async function page(server: RunningServer, path: string, token?: string) {
  const response = await fetch(`${server.url}${path}`, {
    headers: { accept: 'text/html', ...(token ? { cookie: `auth-token=${token}` } : {}) },
    redirect: 'manual',
  })
  return { status: response.status, location: response.headers.get('location'), html: await response.text() }
}

describe('page views on default rate limits', () => {
  let server: RunningServer
  let owner: TestUser
  let newest: { id: string, description: string }

  beforeAll(async () => {
    server = await startServer({ NUXT_RATE_LIMIT_ENABLED: 'true' })
    owner = await registerUser({}, server.url)
    for (let i = 0; i < 5; i++) await seedUpload(owner, { description: `older upload ${i}`, createdAt: `2026-01-0${i + 1}T00:00:00.000Z` }, server)
    newest = { description: 'newest upload of the rate-limit test', id: '' }
    newest.id = await seedUpload(owner, { description: newest.description, createdAt: '2026-02-01T00:00:00.000Z' }, server)
  })
  afterAll(() => server.stop())

  it('renders / and /upload/{id} 40 times each within a minute, and the visitor\'s own API allowance stays whole', async () => {
    const started = Date.now()
    for (let i = 0; i < 40; i++) {
      const home = await page(server, '/')
      expect(home.status, `view ${i + 1} of /`).toBe(200)
      expect(home.html, `view ${i + 1} of /`).toContain(newest.description)
      expect(home.html, `view ${i + 1} of /`).not.toContain('No uploads yet')
    }
    for (let i = 0; i < 40; i++) {
      const detail = await page(server, `/upload/${newest.id}`)
      expect(detail.status, `view ${i + 1} of /upload/{id}`).toBe(200)
      expect(detail.html, `view ${i + 1} of /upload/{id}`).toMatch(new RegExp(`data-testid="upload-description"[^>]*>\\s*${newest.description}\\s*<`))
    }
    expect(Date.now() - started).toBeLessThan(ONE_MINUTE)

    const own = await api('/api/items-recent', { baseURL: server.url })
    expect(own.status).toBe(200)
    expect(own.headers.get('ratelimit-limit')).toBe('100')
    expect(own.headers.get('ratelimit-remaining')).toBe('99')
    expect(own.body.items[0].id).toBe(newest.id)
  })

  it('still counts every /api request a client sends, whatever headers it forwards', async () => {
    // The headers a page render passes on to its in-process API calls do not make a client's request uncounted.
    const forged = { 'accept': 'text/html', 'x-nuxt-error': 'true', 'x-forwarded-for': '10.0.0.1', 'sec-fetch-dest': 'document' }
    const first = await api('/api/tags', { baseURL: server.url, headers: forged })
    const remaining = Number(first.headers.get('ratelimit-remaining'))
    expect(remaining).toBeGreaterThan(0)
    for (let i = remaining; i > 0; i--) {
      const response = await api('/api/tags', { baseURL: server.url, headers: forged })
      expect(response.headers.get('ratelimit-remaining')).toBe(String(i - 1))
    }
    const limited = await api('/api/tags', { baseURL: server.url, headers: forged })
    expect(limited.status).toBe(429)
    // Pages still render for that client: their API calls are not its requests.
    const home = await page(server, '/')
    expect(home.status).toBe(200)
    expect(home.html).toContain(newest.description)
  })
})

describe('a signed-in visitor on default rate limits', () => {
  let server: RunningServer
  let user: TestUser

  beforeAll(async () => {
    server = await startServer({ NUXT_RATE_LIMIT_ENABLED: 'true' })
    user = await registerUser({}, server.url)
  })
  afterAll(() => server.stop())

  it('opens /settings 30 times within a minute and stays signed in every time', async () => {
    const started = Date.now()
    for (let i = 0; i < 30; i++) {
      const settings = await page(server, '/settings', user.token)
      expect(settings.location, `view ${i + 1}`).toBeNull()
      expect(settings.status, `view ${i + 1}`).toBe(200)
      expect(settings.html, `view ${i + 1}`).toMatch(new RegExp(`data-testid="profile-username"[^>]*>\\s*${user.username}\\s*<`))
    }
    expect(Date.now() - started).toBeLessThan(ONE_MINUTE)
    const own = await api('/api/profile', { baseURL: server.url, token: user.token })
    expect(own.status).toBe(200)
    expect(own.headers.get('ratelimit-remaining')).toBe('99')
  })
})

describe('revalidation on default rate limits', () => {
  let server: RunningServer

  beforeAll(async () => {
    server = await startServer({ NUXT_RATE_LIMIT_ENABLED: 'true' })
    const owner = await registerUser({}, server.url)
    await seedUpload(owner, { description: 'an upload to revalidate' }, server)
  })
  afterAll(() => server.stop())

  it('does not spend a point on a 304', async () => {
    const first = await api('/api/uploads', { baseURL: server.url })
    expect(first.status).toBe(200)
    expect(first.headers.get('ratelimit-remaining')).toBe('99')
    const etag = first.headers.get('etag')!
    for (let i = 0; i < 10; i++) {
      const revalidated = await api('/api/uploads', { baseURL: server.url, headers: { 'if-none-match': etag } })
      expect(revalidated.status).toBe(304)
      expect(revalidated.headers.get('ratelimit-remaining')).toBe('99')
    }
    const changed = await api('/api/uploads', { baseURL: server.url, headers: { 'if-none-match': '"stale"' } })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('ratelimit-remaining')).toBe('98')
  })
})
