import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { api, registerUser, type ApiResponse, type TestUser } from '../support/api'
import { randomImage } from '../support/images'
import { seedUpload } from '../support/seed'
import { createApiToken, postUpload } from '../support/uploads'
import { sharedServer } from '../support/shared-server'

// U+0000 in any text is refused with the same 400 on both engines (PostgreSQL cannot store
// it, SQLite would): JSON bodies, query strings, path params, multipart fields and file names.
const NUL = '\u0000'
const REFUSED = { statusCode: 400, statusMessage: 'Bad Request', message: 'Text must not contain NUL characters' }

let user: TestUser
let uploadId: string

beforeAll(async () => {
  user = await registerUser()
  uploadId = await seedUpload(user, { tags: ['nul-check'] })
})

function expectRefused(response: ApiResponse, what: string) {
  expect(response.status, `${what}: ${JSON.stringify(response.body)}`).toBe(400)
  expect(response.headers.get('content-type'), what).toContain('application/json')
  expect(response.body, what).toEqual(REFUSED)
}

/** A multipart upload body written by hand, so the file name carries exactly the bytes given. */
async function rawUpload(filename: string, auth: { token?: string, bearer?: string }) {
  const boundary = `----nul${randomUUID()}`
  const image = await randomImage('png')
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="upload_type"\r\n\r\nimage\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\nA named picture\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; ${filename}\r\nContent-Type: image/png\r\n\r\n`),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  const path = auth.bearer ? '/api/v1/upload' : '/api/upload'
  return api(path, { method: 'POST', body, ...auth, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } })
}

describe('text with a NUL character', () => {
  it('is refused in JSON bodies with 400 and nothing is stored', async () => {
    const name = `nul_${randomUUID().slice(0, 8)}`
    expectRefused(await api('/api/auth', { method: 'POST', body: { action: 'register', username: `${name}${NUL}`, email: `${name}@e2e.test`, password: 'correct horse battery' } }), 'register username')
    expectRefused(await api('/api/auth', { method: 'POST', body: { action: 'register', username: name, email: `${name}@e2e.test`, password: `correct horse${NUL}battery` } }), 'register password')
    expect((await api('/api/auth', { method: 'POST', body: { action: 'login', email: `${name}@e2e.test`, password: 'correct horse battery' } })).status).toBe(401)
    expectRefused(await api(`/api/upload/${uploadId}/report`, { method: 'POST', token: user.token, body: { reason: 'other', details: `spam${NUL}` } }), 'report details')
    expectRefused(await api('/api/auth/tokens/generate', { method: 'POST', token: user.token, body: { name: `ci${NUL}` } }), 'token name')
    expectRefused(await api(`/api/uploads/${uploadId}/tags`, { method: 'POST', token: user.token, body: { tags: [`ab${NUL}cd`] } }), 'tags endpoint')
    expectRefused(await api('/api/profile/filters', { method: 'PUT', token: user.token, body: { hiddenTags: [`nul${NUL}`] } }), 'filters')
    // Also as an object key, at any depth.
    expectRefused(await api('/api/profile/filters', { method: 'PUT', token: user.token, body: { hiddenTags: [], [`x${NUL}`]: 1 } }), 'a key')
    expect((await api(`/api/upload/${uploadId}/report`, { method: 'POST', token: user.token, body: { reason: 'other', details: 'spam' } })).status).toBe(201)
    expect((await api('/api/auth/tokens', { token: user.token })).body.tokens).toEqual([])
    expect((await api('/api/profile/filters', { token: user.token })).body.hiddenTags).toEqual([])
  })

  it('is refused in query strings and path params', async () => {
    expectRefused(await api('/api/tags?q=ca%00ts'), 'tags query')
    expectRefused(await api('/api/uploads/filtered?tags=cats%00'), 'list filter')
    expectRefused(await api('/api/uploads?sort=new%00'), 'sort')
    expectRefused(await api('/api/user/someone%00/uploads'), 'username param')
    expectRefused(await api(`/api/upload/${uploadId}%00`), 'id param')
  })

  it('is refused in multipart fields and file names of both upload endpoints', async () => {
    const link = { upload_type: 'link', external_url: 'https://example.com/nul', description: 'A link' }
    expectRefused(await postUpload(user, { ...link, description: `A link${NUL}` }), 'description')
    expectRefused(await postUpload(user, { ...link, tags: `cats,do${NUL}gs` }), 'tags field')
    expectRefused(await postUpload(user, { ...link, external_url: `https://example.com/${NUL}` }), 'link URL')
    // A raw NUL in a part's headers is not multipart at all (busboy refuses the part).
    const raw = await rawUpload('filename="pic\u0000ture.png"', { token: user.token })
    expect(raw.status).toBe(400)
    expect(raw.body).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid multipart body' })
    expectRefused(await rawUpload('filename*=utf-8\'\'pic%00ture.png', { token: user.token }), 'encoded file name')
    const { token } = await createApiToken(user.id)
    expectRefused(await rawUpload('filename*=utf-8\'\'pic%00ture.png', { bearer: token }), 'API upload file name')
    expect((await api(`/api/user/${user.username}/uploads`)).body.total).toBe(1)
    // The same form with a clean name is taken: the refusal is the NUL's.
    const clean = await rawUpload('filename="picture.png"', { token: user.token })
    expect(clean.status, JSON.stringify(clean.body)).toBe(201)
  })

  it('and a lone surrogate in a JSON body are refused alike; a surrogate pair is text like any other', async () => {
    // JSON may escape half of a pair: SQLite would keep bytes that are not UTF-8, PostgreSQL a U+FFFD.
    const invalid = { statusCode: 400, statusMessage: 'Bad Request', message: 'Text must be valid Unicode' }
    const before = (await api(`/api/upload/${uploadId}`)).body
    const tokens = (await api('/api/auth/tokens', { token: user.token })).body.tokens
    expect((await api(`/api/upload/${uploadId}`, { method: 'PATCH', token: user.token, body: { description: 'half \ud800 a pair' } })).body).toEqual(invalid)
    expect((await api(`/api/upload/${uploadId}/comments`, { method: 'POST', token: user.token, body: { body: '\udfff'.repeat(3) } })).body).toEqual(invalid)
    expect((await api('/api/auth/tokens/generate', { method: 'POST', token: user.token, body: { name: 'ci \ud83d' } })).body).toEqual(invalid)
    expect((await api(`/api/upload/${uploadId}`)).body).toMatchObject({ description: before.description, revision: before.revision })
    expect((await api('/api/auth/tokens', { token: user.token })).body.tokens).toEqual(tokens)
    const whole = await api(`/api/upload/${uploadId}`, { method: 'PATCH', token: user.token, body: { description: 'a whole pair \ud83d\ude00' } })
    expect(whole.body.upload.description).toBe('a whole pair 😀')
  })

  it('in a header is refused by the HTTP parser before any handler', async () => {
    // User-Agent is stored with sessions and anonymous votes: Node answers a NUL in any header with 400 itself.
    const { connect } = await import('node:net')
    const url = new URL(sharedServer().baseURL)
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.end(`GET /api/health HTTP/1.1\r\nHost: ${url.host}\r\nUser-Agent: a${NUL}b\r\nConnection: close\r\n\r\n`))
      let text = ''
      socket.on('data', (chunk) => {
        text += chunk
      })
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
    })
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request')
  })
})
