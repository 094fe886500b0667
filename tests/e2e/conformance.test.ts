import { describe, expect, inject, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { uploadImage } from '../support/uploads'

/** A raw request (no body parsing), for HEAD and other methods fetch() treats specially. */
async function raw(path: string, init: RequestInit = {}) {
  const response = await fetch(`${inject('baseURL')}${path}`, { redirect: 'manual', ...init })
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
    const response = await fetch(`${inject('baseURL')}/api/vote/anonymous`, {
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
