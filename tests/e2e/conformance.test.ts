import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { enableMfa } from '../support/accounts'
import { makeAdmin, seedUpload } from '../support/seed'
import { startServer, type RunningServer } from '../support/server'
import { createApiToken, uploadImage } from '../support/uploads'
import { sharedServer } from '../support/shared-server'

/** A raw request (no body parsing), for HEAD and other methods fetch() treats specially. */
async function raw(path: string, init: RequestInit = {}) {
  const response = await fetch(`${sharedServer().baseURL}${path}`, { redirect: 'manual', ...init })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

describe('HEAD requests', () => {
  it('answers HEAD on every kind of GET route like the GET, without a body', async () => {
    const owner = await registerUser()
    const { id } = await uploadImage(owner)
    for (const path of ['/api/uploads', `/api/upload/${id}`, `/api/uploads/${id}/tags`, `/api/user/${owner.username}/uploads`, '/api/openapi.json', `/api/image/${id}`]) {
      const get = await raw(path)
      const head = await raw(path, { method: 'HEAD' })
      expect(head.status, path).toBe(200)
      expect(head.text, path).toBe('')
      expect(head.headers.get('etag'), path).toBe(get.headers.get('etag'))
      expect(head.headers.get('cache-control'), path).toBe(get.headers.get('cache-control'))
      expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'))
    }
    const signedIn = await raw('/api/profile', { method: 'HEAD', headers: { cookie: `auth-token=${owner.token}` } })
    expect(signedIn.status).toBe(200)
    expect(signedIn.headers.get('cache-control')).toBe('private, max-age=30')
  })

  it('keeps 401, 404 and 405 for HEAD where the GET would fail or does not exist', async () => {
    expect((await raw('/api/profile', { method: 'HEAD' })).status).toBe(401)
    expect((await raw('/api/does-not-exist', { method: 'HEAD' })).status).toBe(404)
    expect((await raw('/api/auth/nope', { method: 'HEAD' })).status).toBe(404)
    const postOnly = await raw('/api/auth', { method: 'HEAD' })
    expect(postOnly.status).toBe(405)
    expect(postOnly.headers.get('allow')).toBe('POST')
  })

  it('answers OPTIONS in the error shape (no CORS)', async () => {
    const response = await api('/api/uploads', { method: 'OPTIONS' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
    expect(response.body).toEqual({ statusCode: 405, statusMessage: 'Method Not Allowed', message: 'Method not allowed' })
    const unknown = await api('/api/auth/nope', { method: 'OPTIONS' })
    expect(unknown.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Not found' })
  })
})

describe('JSON body size', () => {
  const big = JSON.stringify({ action: 'login', email: 'big@e2e.test', password: 'x'.repeat(2 * 1024 * 1024) })
  const tooLarge = { statusCode: 413, statusMessage: 'Content Too Large', message: 'Request body too large (max 1 MB)' }

  it('refuses a JSON body over 1 MB with 413 by its Content-Length', async () => {
    const response = await api('/api/auth', { method: 'POST', body: big, headers: { 'content-type': 'application/json' } })
    expect(response.status).toBe(413)
    expect(response.body).toEqual(tooLarge)
  })

  it('refuses a chunked JSON body once it passes 1 MB, and keeps serving', async () => {
    const bytes = new TextEncoder().encode(big)
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.subarray(at, at + 64 * 1024))
        controller.close()
      },
    })
    const response = await fetch(`${sharedServer().baseURL}/api/vote/anonymous`, {
      method: 'POST', body: stream, headers: { 'content-type': 'application/json' }, duplex: 'half',
    } as RequestInit)
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual(tooLarge)
    expect((await api('/api/uploads')).status).toBe(200)
  })

  it('still reads an ordinary JSON body, and treats an empty one as {}', async () => {
    const empty = await api('/api/auth', { method: 'POST', body: '', headers: { 'content-type': 'application/json' } })
    expect(empty.status).toBe(400)
    expect(empty.body.message).toBe('action must be "login" or "register"')
    const wrong = await api('/api/auth', { method: 'POST', body: { action: 'login', email: 'nobody@e2e.test', password: 'whatever it is' } })
    expect(wrong.status).toBe(401)
    expect(wrong.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Invalid email or password' })
  })
})

describe('Cache-Control, ETag and 304 on every GET (docs/behaviour.md, Caching)', () => {
  it('uses the policy of each route and of each caller', async () => {
    const owner = await registerUser()
    const admin = await makeAdmin(await registerUser())
    const publicId = await seedUpload(owner, { tags: ['Cache Check'] })
    const privateId = await seedUpload(owner, { isPrivate: true })
    const cases: [string, string | undefined, string][] = [
      ['/api/uploads', undefined, 'public, max-age=120'],
      ['/api/uploads?page=2&limit=5', undefined, 'public, max-age=120'],
      ['/api/uploads/filtered?tags=cache-check', undefined, 'public, max-age=120'],
      ['/api/items-recent', undefined, 'public, max-age=300'],
      ['/api/items-top-voted', undefined, 'public, max-age=300'],
      ['/api/profile', owner.token, 'private, max-age=30'],
      [`/api/upload/${publicId}`, undefined, 'no-cache'],
      // A signed-in caller's answer says whether they have the upload as a favourite.
      [`/api/upload/${publicId}`, owner.token, 'private, no-store'],
      [`/api/upload/${privateId}`, owner.token, 'private, no-store'],
      [`/api/upload/${privateId}`, admin.token, 'private, no-store'],
      [`/api/uploads/${publicId}/tags`, undefined, 'no-cache'],
      [`/api/uploads/${privateId}/tags`, owner.token, 'private, no-store'],
      [`/api/user/${owner.username}/uploads`, undefined, 'no-cache'],
      [`/api/user/${owner.username}/uploads`, owner.token, 'private, no-store'],
      [`/api/user/${owner.username}/favourites`, undefined, 'no-cache'],
      ['/api/profile/favourites', owner.token, 'private, no-store'],
      ['/api/tags?q=cache', undefined, 'no-cache'],
      ['/api/openapi.json', undefined, 'no-cache'],
      ['/api/auth/providers', undefined, 'no-cache'],
      [`/api/vote?uploadId=${publicId}`, owner.token, 'private, no-store'],
      ['/api/auth/tokens', owner.token, 'private, no-store'],
      ['/api/auth/oauth-accounts', owner.token, 'private, no-store'],
      ['/api/admin/users', admin.token, 'private, no-store'],
    ]
    for (const [path, token, policy] of cases) {
      const first = await api(path, { token })
      expect(first.status, path).toBe(200)
      expect(first.headers.get('cache-control'), path).toBe(policy)
      const etag = first.headers.get('etag')
      expect(etag, path).toMatch(/^"[\w-]+"$/)
      const again = await api(path, { token, headers: { 'if-none-match': etag! } })
      expect(again.status, path).toBe(304)
      expect(again.body, path).toBe('')
    }
  })

  it('gives images a year, public, with ETag and 304', async () => {
    const { id } = await uploadImage(await registerUser())
    for (const path of [`/api/image/${id}`, `/api/image/${id}?size=thumb`]) {
      const first = await fetch(`${sharedServer().baseURL}${path}`)
      await first.arrayBuffer()
      expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(first.headers.get('x-content-type-options')).toBe('nosniff')
      const again = await fetch(`${sharedServer().baseURL}${path}`, { headers: { 'if-none-match': first.headers.get('etag')! } })
      expect(again.status).toBe(304)
    }
  })
})

describe('cross-site requests on every unsafe method', () => {
  it('refuses a cookie request from a foreign Origin with 403 before anything else', async () => {
    const user = await registerUser()
    const id = await seedUpload(user)
    const routes: [string, string][] = [
      ['POST', '/api/auth'], ['POST', '/api/auth/logout'], ['POST', '/api/auth/change-password'], ['POST', '/api/auth/mfa/setup'],
      ['POST', '/api/auth/mfa/verify'], ['POST', '/api/auth/mfa/disable'], ['POST', '/api/auth/tokens/generate'],
      ['DELETE', `/api/auth/tokens/${id}`], ['DELETE', '/api/auth/oauth-accounts/github'], ['POST', '/api/upload'],
      ['PATCH', `/api/upload/${id}/privacy`], ['DELETE', `/api/upload/${id}`], ['POST', `/api/uploads/${id}/tags`],
      ['POST', '/api/vote'], ['DELETE', `/api/vote?uploadId=${id}`], ['POST', '/api/vote/anonymous'],
      ['POST', `/api/admin/users/${user.id}/shadow-ban`], ['PUT', '/api/vote'], ['POST', '/api/does-not-exist'],
    ]
    for (const [method, path] of routes) {
      for (const token of [user.token, 'not-a-valid-jwt']) {
        const response = await api(path, { method, token, body: {}, headers: { origin: 'https://evil.example' } })
        expect(response.status, `${method} ${path}`).toBe(403)
        expect(response.body, `${method} ${path}`).toEqual({ statusCode: 403, statusMessage: 'Forbidden', message: 'Cross-site request blocked' })
      }
    }
    // Nothing happened: the upload is still there and still public.
    expect((await api(`/api/upload/${id}`)).body.is_private).toBe(0)
  })
})

describe('401 before any 400 on every authenticated endpoint', () => {
  it('answers a request without credentials 401 whatever its body or query', async () => {
    const routes: [string, string][] = [
      ['POST', '/api/auth/logout'], ['POST', '/api/auth/change-password'], ['POST', '/api/auth/mfa/setup'], ['POST', '/api/auth/mfa/verify'],
      ['POST', '/api/auth/mfa/disable'], ['POST', '/api/auth/tokens/generate'], ['GET', '/api/auth/tokens'], ['DELETE', '/api/auth/tokens/not-a-uuid'],
      ['GET', '/api/auth/oauth-accounts'], ['DELETE', '/api/auth/oauth-accounts/nope'], ['GET', '/api/profile'], ['POST', '/api/upload'],
      ['POST', '/api/v1/upload'], ['PATCH', '/api/upload/not-a-uuid/privacy'], ['DELETE', '/api/upload/not-a-uuid'],
      ['POST', '/api/uploads/not-a-uuid/tags'], ['POST', '/api/vote'], ['GET', '/api/vote'], ['DELETE', '/api/vote'],
      ['GET', '/api/admin/users?page=0'], ['POST', '/api/admin/users/not-a-uuid/shadow-ban'],
    ]
    for (const [method, path] of routes) {
      const response = await api(path, { method, body: method === 'GET' || method === 'DELETE' ? undefined : '[1,2', headers: { 'content-type': 'application/json' } })
      expect(response.status, `${method} ${path}`).toBe(401)
      expect(response.body.statusMessage, `${method} ${path}`).toBe('Unauthorized')
      expect(typeof response.body.message, `${method} ${path}`).toBe('string')
    }
  })

  it('accepts the JWT as bearer or as cookie on the token endpoints, and only there', async () => {
    const user = await registerUser()
    for (const credentials of [{ bearer: user.token }, { token: user.token }]) {
      const generated = await api('/api/auth/tokens/generate', { method: 'POST', body: { name: 'both ways' }, ...credentials })
      expect(generated.status).toBe(201)
      expect((await api('/api/auth/tokens', credentials)).status).toBe(200)
      expect((await api(`/api/auth/tokens/${generated.body.id}`, { method: 'DELETE', ...credentials })).body).toEqual({ success: true })
    }
    const profile = await api('/api/profile', { bearer: user.token })
    expect(profile.status).toBe(401)
    const vote = await api('/api/vote', { method: 'POST', bearer: user.token, body: {} })
    expect(vote.status).toBe(401)
  })
})

describe('validation messages', () => {
  it('names a missing field as the schema does for an empty one', async () => {
    const user = await registerUser()
    const cases: [string, unknown, string][] = [
      ['/api/auth/change-password', {}, 'Current password is required'],
      ['/api/auth/change-password', { currentPassword: user.password }, 'New password is required'],
      ['/api/auth/mfa/verify', {}, 'MFA code is required'],
      ['/api/auth/mfa/disable', { password: user.password }, 'MFA code is required'],
      ['/api/auth/tokens/generate', {}, 'Name is required'],
      ['/api/auth/forgot-password', {}, 'Email is required'],
    ]
    for (const [path, body, message] of cases) {
      const response = await api(path, { method: 'POST', token: user.token, body })
      expect(response.status, path).toBe(400)
      expect(response.body.message, path).toBe(message)
    }
  })
})

describe('public reads with a stale cookie', () => {
  it('answers an upload and its tags as to an anonymous caller when the cookie is revoked or invalid', async () => {
    const owner = await registerUser()
    const publicId = await seedUpload(owner, { tags: ['Stale Cookie'] })
    const privateId = await seedUpload(owner, { isPrivate: true })
    const revoked = await registerUser()
    expect((await api('/api/auth/logout', { method: 'POST', token: revoked.token })).status).toBe(200)
    for (const token of [revoked.token, 'not-a-jwt']) {
      const upload = await api(`/api/upload/${publicId}`, { token })
      expect(upload.status).toBe(200)
      expect(upload.body.id).toBe(publicId)
      const tags = await api(`/api/uploads/${publicId}/tags`, { token })
      expect(tags.status).toBe(200)
      expect(tags.body.tags.map((tag: { name: string }) => tag.name)).toEqual(['Stale Cookie'])
      expect((await api(`/api/upload/${privateId}`, { token })).status).toBe(404)
      expect((await api(`/api/uploads/${privateId}/tags`, { token })).status).toBe(404)
    }
    // Endpoints that need a caller still refuse the stale cookie.
    expect((await api('/api/profile', { token: revoked.token })).body.message).toBe('Invalid or expired token')
  })
})

describe('no secret ever leaves the server', () => {
  it('keeps hashes, TOTP secrets and IPs out of every answer', async () => {
    const user = await enableMfa(await registerUser())
    const admin = await makeAdmin(await registerUser())
    const token = await createApiToken(user.id)
    const link = await api('/api/v1/upload', { method: 'POST', bearer: token.token, body: linkForm() })
    expect(link.status).toBe(201)
    const id = link.body.upload.id as string
    await api('/api/vote/anonymous', { method: 'POST', body: { uploadId: id, vote: 'upvote', clientFingerprint: `fp-${user.id}` } })
    const login = await api('/api/auth', { method: 'POST', body: { action: 'login', email: admin.email, password: admin.password } })
    const answers = [
      login,
      await api('/api/profile', { token: admin.token }),
      await api('/api/auth/tokens', { token: user.token }),
      await api('/api/admin/users?limit=100', { token: admin.token }),
      await api(`/api/admin/users/${user.id}/shadow-ban`, { method: 'POST', token: admin.token, body: { shadowBanned: false } }),
      await api(`/api/upload/${id}`),
      await api('/api/uploads?limit=100'),
      await api('/api/uploads/filtered?limit=100'),
      await api('/api/items-recent'),
      await api(`/api/user/${user.username}/uploads`),
      await api('/api/vote/anonymous', { method: 'POST', body: { uploadId: id, vote: 'upvote', clientFingerprint: `fp-${user.id}` } }),
      await api('/api/auth/oauth-accounts', { token: user.token }),
    ]
    for (const answer of answers) {
      const text = JSON.stringify(answer.body)
      // No such key (hasPassword is a flag, not a secret), and no such value.
      expect(text).not.toMatch(/"(password|\w*_?hash|mfa_?secret|secret|totp\w*|ip|ip_?address|client_?fingerprint|backup_?codes?)":/i)
      expect(text).not.toMatch(/127\.0\.0\.1|\$argon2/)
      expect(text).not.toContain(user.secret)
      expect(text).not.toContain(token.token)
    }
  })
})

function linkForm(): FormData {
  const form = new FormData()
  form.set('upload_type', 'link')
  form.set('description', 'A link')
  form.set('external_url', `https://example.com/${Math.random().toString(36).slice(2)}`)
  return form
}

describe('rate-limit categories (own server, the spec\'s default limits)', () => {
  let server: RunningServer
  let user: TestUser
  beforeAll(async () => {
    server = await startServer({ NUXT_RATE_LIMIT_ENABLED: 'true' })
    user = await registerUser({}, server.url)
  })
  afterAll(() => server.stop())

  it('counts each request in one category with RateLimit-* headers', async () => {
    const other = await registerUser({}, server.url)
    const apiToken = await createApiToken(other.id, { server })
    const json = { 'content-type': 'application/json' }
    const cases: [string, string, { token?: string, bearer?: string, body?: unknown }, number, number][] = [
      ['POST', '/api/auth', { body: { action: 'login', email: 'x@e2e.test', password: 'whatever1' } }, 10, 900],
      ['POST', '/api/auth/forgot-password', { body: { email: 'x@e2e.test' } }, 10, 900],
      ['POST', '/api/auth/reset-password', { body: {} }, 10, 900],
      ['POST', '/api/auth/change-password', { token: user.token, body: {} }, 10, 900],
      ['POST', '/api/auth/mfa/verify', { token: user.token, body: {} }, 10, 900],
      ['POST', '/api/auth/mfa/disable', { token: user.token, body: {} }, 10, 900],
      ['POST', '/api/upload', { token: user.token, body: linkForm() }, 20, 3600],
      ['POST', '/api/v1/upload', { bearer: apiToken.token, body: linkForm() }, 20, 3600],
      ['POST', '/api/vote', { token: user.token, body: {} }, 30, 60],
      ['DELETE', '/api/vote', { token: user.token }, 30, 60],
      ['POST', '/api/vote/anonymous', { body: {} }, 10, 60],
      ['GET', '/api/uploads', {}, 100, 60],
      ['GET', '/api/vote', { token: user.token }, 100, 60],
      ['POST', '/api/auth/mfa/setup', { token: user.token }, 100, 60],
      ['POST', '/api/auth/tokens/generate', { token: user.token, body: {} }, 100, 60],
      ['GET', '/api/does-not-exist', {}, 100, 60],
    ]
    for (const [method, path, options, limit, window] of cases) {
      const response = await api(path, { method, baseURL: server.url, headers: options.body instanceof FormData ? {} : json, ...options })
      expect(response.headers.get('ratelimit-limit'), `${method} ${path}`).toBe(String(limit))
      expect(Number(response.headers.get('ratelimit-remaining')), `${method} ${path}`).toBeLessThan(limit)
      const reset = Number(response.headers.get('ratelimit-reset'))
      expect(reset, `${method} ${path}`).toBeGreaterThan(0)
      expect(reset, `${method} ${path}`).toBeLessThanOrEqual(window)
    }
    // Uploads count per user: the two users' allowances are separate.
    const mine = await api('/api/upload', { method: 'POST', baseURL: server.url, token: user.token, body: linkForm() })
    const theirs = await api('/api/v1/upload', { method: 'POST', baseURL: server.url, bearer: apiToken.token, body: linkForm() })
    expect(mine.headers.get('ratelimit-remaining')).toBe('18')
    expect(theirs.headers.get('ratelimit-remaining')).toBe('18')
    // An upload with no credential at all is counted too, by IP, before its 401.
    const anonymous = await api('/api/upload', { method: 'POST', baseURL: server.url, body: linkForm() })
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('ratelimit-limit')).toBe('20')
    expect(anonymous.headers.get('ratelimit-remaining')).toBe('19')
    // Images are not counted.
    const image = await fetch(`${server.url}/api/image/${mine.body.upload.id}`)
    await image.arrayBuffer()
    expect(image.headers.get('ratelimit-limit')).toBeNull()
  })
})
