import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { uploadForm } from '../support/images'
import { sharedServer } from '../support/shared-server'

const blocked = { statusCode: 403, statusMessage: 'Forbidden', message: 'Cross-site request blocked' }
const unsupported = { statusCode: 415, statusMessage: 'Unsupported Media Type', message: 'Content-Type must be application/json' }

/** A raw fetch, so the test decides every header and the body bytes. */
async function raw(path: string, init: RequestInit) {
  const response = await fetch(`${sharedServer().baseURL}${path}`, { redirect: 'manual', ...init })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text }
}

const newAccount = () => {
  const suffix = randomUUID().slice(0, 8)
  return { username: `csrf_${suffix}`, email: `csrf_${suffix}@e2e.test`, password: 'correct horse battery' }
}

describe('cross-site requests without a cookie (docs/behaviour.md, Cross-site requests)', () => {
  it('refuses a foreign Origin on sign-in and registration, so a visitor cannot be signed in by another site', async () => {
    const user = await registerUser()
    const account = newAccount()
    for (const origin of ['https://evil.example', 'null', `${sharedServer().baseURL}.evil.example`]) {
      const login = await api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: user.password }, headers: { origin } })
      expect(login.status, origin).toBe(403)
      expect(login.body).toEqual(blocked)
      expect(login.headers.get('set-cookie')).toBeNull()
      const register = await api('/api/auth', { method: 'POST', body: { action: 'register', ...account }, headers: { origin } })
      expect(register.status, origin).toBe(403)
      expect(register.body).toEqual(blocked)
    }
    // Nothing was created: the e-mail is still free.
    expect((await api('/api/auth', { method: 'POST', body: { action: 'register', ...account } })).status).toBe(201)
  })

  it('refuses every unsafe method on every /api route, spelled plainly or percent-encoded', async () => {
    const routes: [string, string][] = [
      ['POST', '/api/auth'], ['POST', '/api/auth/forgot-password'], ['POST', '/api/auth/reset-password'], ['POST', '/api/vote/anonymous'],
      ['POST', '/api/auth/logout'], ['DELETE', '/api/vote?uploadId=x'], ['PATCH', '/api/upload/x/privacy'], ['PUT', '/api/vote'],
      ['POST', '/api/does-not-exist'], ['POST', '/%61pi/auth'], ['POST', '/api/%61uth'], ['DELETE', '/%61%70%69/auth/tokens/x'],
    ]
    for (const [method, path] of routes) {
      const response = await api(path, { method, body: {}, headers: { origin: 'https://evil.example' } })
      expect(response.status, `${method} ${path}`).toBe(403)
      expect(response.body, `${method} ${path}`).toEqual(blocked)
    }
  })

  it('lets the site\'s own origin and scripts without Origin through; safe methods are not checked', async () => {
    const user = await registerUser()
    const credentials = { action: 'login', email: user.email, password: user.password }
    expect((await api('/api/auth', { method: 'POST', body: credentials, headers: { origin: sharedServer().baseURL } })).status).toBe(200)
    expect((await api('/api/auth', { method: 'POST', body: credentials })).status).toBe(200)
    expect((await api('/api/uploads', { headers: { origin: 'https://evil.example' } })).status).toBe(200)
  })
})

describe('JSON endpoints take only application/json (415 otherwise)', () => {
  it('refuses a form-encoded sign-in, so no HTML form can post one', async () => {
    const user = await registerUser()
    const form = new URLSearchParams({ action: 'login', email: user.email, password: user.password })
    const response = await raw('/api/auth', { method: 'POST', body: form })
    expect(response.status).toBe(415)
    expect(response.body).toEqual(unsupported)
    expect(response.headers.get('set-cookie')).toBeNull()
  })

  it('refuses text/plain, multipart and a typeless body on JSON endpoints, with or without credentials', async () => {
    const user = await registerUser()
    const json = JSON.stringify({ action: 'login', email: user.email, password: user.password })
    const bodies: [string, RequestInit][] = [
      ['text/plain', { body: json, headers: { 'content-type': 'text/plain' } }],
      ['text/plain;charset=UTF-8', { body: new Blob([json], { type: 'text/plain;charset=UTF-8' }) }],
      ['multipart', { body: uploadForm({ action: 'login', email: user.email, password: user.password }) }],
      ['no type', { body: new Blob([json]) }],
      ['application/jsonx', { body: json, headers: { 'content-type': 'application/jsonx' } }],
      // Bodies are read as UTF-8: another charset is refused, not read as UTF-8 anyway.
      ['charset=latin1', { body: json, headers: { 'content-type': 'application/json; charset=latin1' } }],
    ]
    for (const [label, init] of bodies) {
      for (const [path, cookie] of [['/api/auth', undefined], ['/api/auth/tokens/generate', `auth-token=${user.token}`], ['/api/auth/logout', `auth-token=${user.token}`]] as const) {
        const headers = { ...(init.headers as Record<string, string> | undefined), ...(cookie ? { cookie } : {}) }
        const response = await raw(path, { method: 'POST', ...init, headers })
        expect(response.status, `${label} ${path}`).toBe(415)
        expect(response.body, `${label} ${path}`).toEqual(unsupported)
      }
    }
    // The session survived every refused logout.
    expect((await api('/api/profile', { token: user.token })).status).toBe(200)
  })

  it('accepts application/json with parameters, no body at all, and multipart on the upload endpoints', async () => {
    const user = await registerUser()
    const json = JSON.stringify({ action: 'login', email: user.email, password: user.password })
    const withCharset = await raw('/api/auth', { method: 'POST', body: json, headers: { 'content-type': 'Application/JSON; charset=utf-8' } })
    expect(withCharset.status).toBe(200)
    const upload = await api('/api/upload', { method: 'POST', token: user.token, body: uploadForm({ upload_type: 'link', external_url: `https://example.com/${randomUUID()}`, description: 'multipart still works' }) })
    expect(upload.status).toBe(201)
    const logout = await raw('/api/auth/logout', { method: 'POST', headers: { cookie: `auth-token=${user.token}` } })
    expect(logout.status).toBe(200)
  })

  it('ignores any body of the privacy toggle, which reads none (no form sends a PATCH)', async () => {
    const owner = await registerUser()
    const created = await api('/api/upload', { method: 'POST', token: owner.token, body: uploadForm({ upload_type: 'link', external_url: `https://example.com/${randomUUID()}`, description: 'toggled with a body' }) })
    const id = created.body.upload.id as string
    const bodies: RequestInit[] = [
      { body: 'hello', headers: { 'content-type': 'text/plain' } },
      { body: new URLSearchParams({ is_private: '0' }) },
      { body: new Blob(['{"is_private":0}']) },
    ]
    const states: unknown[] = []
    for (const init of bodies) {
      const response = await raw(`/api/upload/${id}/privacy`, { method: 'PATCH', ...init, headers: { ...(init.headers as Record<string, string> | undefined), cookie: `auth-token=${owner.token}` } })
      expect(response.status).toBe(200)
      states.push((response.body as { is_private: number }).is_private)
    }
    expect(states).toEqual([1, 0, 1])
    // The same on the routes the fast path answers: a favourite put and taken back, a vote withdrawn.
    await api(`/api/upload/${id}/privacy`, { method: 'PATCH', token: owner.token })
    expect((await api('/api/vote', { method: 'POST', token: owner.token, body: { uploadId: id, vote: 'fucks' } })).status).toBe(200)
    for (const [method, path] of [['PUT', `/api/upload/${id}/favourite`], ['DELETE', `/api/upload/${id}/favourite`], ['DELETE', `/api/vote?uploadId=${id}`]] as const) {
      const response = await raw(path, { method, body: 'hello', headers: { 'content-type': 'text/plain', 'cookie': `auth-token=${owner.token}` } })
      expect(response.status, `${method} ${path}`).toBe(200)
    }
  })
})
