import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { startServer, type RunningServer } from '../support/server'

/** docs/behaviour.md, Rate limits: exactly these count as AUTH. */
const AUTH_ENDPOINTS: [string, Record<string, unknown>, string?][] = [
  ['/api/auth', { action: 'login', email: 'nobody@e2e.test', password: 'whatever1' }],
  ['/api/auth/forgot-password', { email: 'nobody@e2e.test' }],
  ['/api/auth/reset-password', { token: 'f'.repeat(64), password: 'whatever1' }],
  ['/api/auth/reset-password/check', { token: 'f'.repeat(64) }],
  ['/api/auth/change-password', {}],
  ['/api/auth/mfa/verify', {}],
  ['/api/auth/mfa/disable', {}],
  ['/api/auth/verify-email', { token: 'f'.repeat(64) }],
  ['/api/auth/verify-email/resend', {}],
  ['/api/profile', { password: 'not the password' }, 'DELETE'],
]

describe('AUTH rate-limit category (own server, small limits)', () => {
  let server: RunningServer
  let user: TestUser
  const AUTH_MAX = AUTH_ENDPOINTS.length + 1

  beforeAll(async () => {
    server = await startServer({
      NUXT_RATE_LIMIT_ENABLED: 'true',
      NUXT_RATE_LIMIT_AUTH_MAX: String(AUTH_MAX),
      NUXT_RATE_LIMIT_GENERAL_MAX: '1000',
    })
    // Registering is POST /api/auth too: it takes the first AUTH point.
    user = await registerUser({}, server.url)
  })
  afterAll(() => server.stop())

  it('counts exactly the decided endpoints as AUTH, then answers 429 with Retry-After', async () => {
    let remaining = AUTH_MAX - 1
    for (const [path, body, method = 'POST'] of AUTH_ENDPOINTS) {
      const response = await api(path, { method, body, token: user.token, baseURL: server.url })
      expect(response.status, path).not.toBe(429)
      expect(response.headers.get('ratelimit-limit'), path).toBe(String(AUTH_MAX))
      expect(response.headers.get('ratelimit-remaining'), path).toBe(String(--remaining))
    }
    expect(remaining).toBe(0)

    for (const [path, options] of [
      ['/api/auth/mfa/setup', { method: 'POST' }],
      ['/api/auth/tokens', {}],
      ['/api/auth/tokens/generate', { method: 'POST', body: { name: 'x' } }],
      ['/api/profile', {}],
      ['/api/auth/logout', { method: 'POST' }],
    ] as const) {
      const response = await api(path, { ...options, token: user.token, baseURL: server.url })
      expect(response.status, path).toBeLessThan(400)
      expect(response.headers.get('ratelimit-limit'), path).toBe('1000')
    }

    for (const [path, body, method = 'POST'] of AUTH_ENDPOINTS) {
      const limited = await api(path, { method, body, token: user.token, baseURL: server.url })
      expect(limited.status, path).toBe(429)
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(limited.body).toEqual({ statusCode: 429, statusMessage: 'Too Many Requests', message: 'Too many requests, please try again later' })
    }
  })
})
