import { describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { enableMfa } from '../support/accounts'
import { api, registerUser, type TestUser } from '../support/api'
import { expectMatchesOpenApi } from '../support/openapi'
import { serverDatabase } from '../support/seed'
import { startServer } from '../support/server'
import { SoftAuthenticator } from '../support/webauthn'
import { sharedServer } from '../support/shared-server'

// The e2e server's site URL is http://127.0.0.1:<port>: RP ID 127.0.0.1, and answers
// must come from that origin. (Browsers need a domain name as RP ID; the HTTP
// ceremony itself does not, so the software authenticator works here.)
const origin = () => new URL(sharedServer().baseURL).origin

const registerOptions = (user: TestUser) => api('/api/auth/passkeys/register/options', { method: 'POST', token: user.token })
const registerVerify = (user: TestUser, body: unknown) => api('/api/auth/passkeys/register/verify', { method: 'POST', token: user.token, body })
const loginOptions = () => api('/api/auth/passkeys/login/options', { method: 'POST' })
const loginVerify = (body: unknown, headers?: Record<string, string>) => api('/api/auth/passkeys/login/verify', { method: 'POST', body, headers })

/** Registers a new software passkey for `user` through the API. */
async function addPasskey(user: TestUser, name = 'Laptop', authenticator = new SoftAuthenticator(origin())) {
  const options = await registerOptions(user)
  expect(options.status).toBe(200)
  const response = await registerVerify(user, { name, response: authenticator.register(options.body) })
  expect(response.status, JSON.stringify(response.body)).toBe(201)
  return { authenticator, passkey: response.body.passkey as { id: string, name: string, createdAt: string, lastUsedAt: string | null } }
}

/** Signs in with `authenticator` through the API. */
async function signIn(authenticator: SoftAuthenticator, overrides: Parameters<SoftAuthenticator['authenticate']>[1] = {}) {
  const options = await loginOptions()
  expect(options.status).toBe(200)
  return loginVerify({ response: authenticator.authenticate(options.body, overrides) })
}

const expectError = (response: { status: number, body: unknown }, status: number, message: string) => {
  expect(response.status).toBe(status)
  expect(response.body).toEqual({ statusCode: status, statusMessage: expect.any(String), message })
}

describe('POST /api/auth/passkeys/register/options', () => {
  it('answers creation options for a discoverable, user-verified credential of this site', async () => {
    const user = await registerUser()
    const response = await registerOptions(user)
    expect(response.status).toBe(200)
    await expectMatchesOpenApi('POST', '/api/auth/passkeys/register/options', response)
    const options = response.body
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{32,}$/)
    expect(options.rp).toEqual({ name: 'Does It Fuck?', id: '127.0.0.1' })
    expect(options.user).toEqual({ id: Buffer.from(user.id).toString('base64url'), name: user.username, displayName: user.username })
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', requireResidentKey: true, userVerification: 'required' })
    expect(options.attestation).toBe('none')
    expect(options.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toEqual([-8, -7, -257])
    expect(options.excludeCredentials).toEqual([])
    const stored = await serverDatabase().db.get<{ purpose: string, user_id: string, expires_at: string }>(sql`
      SELECT purpose, user_id, expires_at FROM webauthn_challenges WHERE challenge = ${options.challenge}`)
    expect(stored).toMatchObject({ purpose: 'register', user_id: user.id })
    expect(Date.parse(stored!.expires_at) - Date.now()).toBeGreaterThan(4 * 60_000)
    expect(Date.parse(stored!.expires_at) - Date.now()).toBeLessThanOrEqual(5 * 60_000)
  })

  it('excludes the caller\'s passkeys, so an authenticator does not make a second one', async () => {
    const user = await registerUser()
    const { authenticator } = await addPasskey(user)
    const response = await registerOptions(user)
    expect(response.body.excludeCredentials).toEqual([{ id: authenticator.id, type: 'public-key', transports: ['internal'] }])
  })

  it('answers 401 without a session', async () => {
    expectError(await api('/api/auth/passkeys/register/options', { method: 'POST' }), 401, 'Authentication required')
  })
})

describe('POST /api/auth/passkeys/register/verify', () => {
  it('stores the credential (public key, counter) and answers 201 with the passkey', async () => {
    const user = await registerUser()
    const authenticator = new SoftAuthenticator(origin())
    const options = await registerOptions(user)
    const response = await registerVerify(user, { name: '  Work laptop  ', response: authenticator.register(options.body) })
    expect(response.status).toBe(201)
    await expectMatchesOpenApi('POST', '/api/auth/passkeys/register/verify', response)
    expect(response.body).toEqual({ passkey: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Work laptop', createdAt: expect.any(String), lastUsedAt: null } })
    const row = await serverDatabase().db.get<Record<string, unknown>>(sql`SELECT * FROM passkeys WHERE id = ${response.body.passkey.id}`)
    expect(row).toMatchObject({ user_id: user.id, credential_id: authenticator.id, counter: 0, transports: '["internal"]', device_type: 'singleDevice', backed_up: 0 })
    expect(row!.public_key).toMatch(/^[A-Za-z0-9_-]+$/)
    // The challenge is spent.
    const challenge = await serverDatabase().db.get(sql`SELECT challenge FROM webauthn_challenges WHERE challenge = ${options.body.challenge}`)
    expect(challenge).toBeUndefined()
  })

  it('answers 400 for a spent challenge (the same answer twice)', async () => {
    const user = await registerUser()
    const authenticator = new SoftAuthenticator(origin())
    const options = await registerOptions(user)
    const answer = authenticator.register(options.body)
    expect((await registerVerify(user, { name: 'first', response: answer })).status).toBe(201)
    expectError(await registerVerify(user, { name: 'again', response: answer }), 400, 'Invalid or expired challenge')
  })

  it('answers 400 for an unknown or expired challenge, or one issued for signing in', async () => {
    const user = await registerUser()
    const authenticator = new SoftAuthenticator(origin())
    const unknown = authenticator.register({ challenge: Buffer.from('not issued by the server').toString('base64url'), user: { id: 'x' } })
    expectError(await registerVerify(user, { name: 'x', response: unknown }), 400, 'Invalid or expired challenge')

    const options = await registerOptions(user)
    await serverDatabase().db.run(sql`UPDATE webauthn_challenges SET expires_at = ${new Date(Date.now() - 1000).toISOString()} WHERE challenge = ${options.body.challenge}`)
    expectError(await registerVerify(user, { name: 'x', response: authenticator.register(options.body) }), 400, 'Invalid or expired challenge')

    const signIn = await loginOptions()
    expectError(await registerVerify(user, { name: 'x', response: authenticator.register({ challenge: signIn.body.challenge, user: { id: 'x' } }) }), 400, 'Invalid or expired challenge')
  })

  it('answers 400 for another account\'s challenge, which stays usable by its owner', async () => {
    const owner = await registerUser()
    const intruder = await registerUser()
    const options = await registerOptions(owner)
    const answer = new SoftAuthenticator(origin()).register(options.body)
    expectError(await registerVerify(intruder, { name: 'x', response: answer }), 400, 'Invalid or expired challenge')
    expect((await registerVerify(owner, { name: 'mine', response: answer })).status).toBe(201)
    expect((await api('/api/auth/passkeys', { token: intruder.token })).body.passkeys).toEqual([])
  })

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP ID', { rpId: 'evil.example' }],
    ['no user verification', { userVerified: false }],
  ])('answers 400 for an answer with %s, and spends the challenge', async (_, overrides) => {
    const user = await registerUser()
    const authenticator = new SoftAuthenticator(origin())
    const options = await registerOptions(user)
    const response = await registerVerify(user, { name: 'x', response: authenticator.register(options.body, overrides) })
    expectError(response, 400, 'Passkey could not be verified')
    await expectMatchesOpenApi('POST', '/api/auth/passkeys/register/verify', response)
    expectError(await registerVerify(user, { name: 'x', response: authenticator.register(options.body) }), 400, 'Invalid or expired challenge')
  })

  it('answers 409 for a credential that is already registered', async () => {
    const user = await registerUser()
    const { authenticator } = await addPasskey(user)
    const options = await registerOptions(user)
    expectError(await registerVerify(user, { name: 'twice', response: authenticator.register(options.body) }), 409, 'Passkey already registered')
  })

  it.each([
    [{ response: {} }, 'Name is required'],
    [{ name: '   ', response: {} }, 'Name must be 1 to 100 characters'],
    [{ name: 'x'.repeat(101), response: {} }, 'Name must be 1 to 100 characters'],
    [{ name: 'x' }, 'Response is required'],
    [{ name: 'x', response: 'nope' }, 'Invalid passkey response'],
    [{ name: 'x', response: { id: 'abc', rawId: 'abc', type: 'public-key', response: { clientDataJSON: 'abc' } } }, 'Invalid passkey response'],
    [{ name: 'x', response: { id: 'a b', rawId: 'abc', type: 'public-key', response: { clientDataJSON: 'abc', attestationObject: 'abc' } } }, 'Invalid passkey response'],
  ])('answers 400 for %j', async (body, message) => {
    const user = await registerUser()
    const response = await registerVerify(user, body)
    expect(response.status).toBe(400)
    expect(response.body.message).toBe(message)
  })

  it('answers 400 for a clientDataJSON that is not JSON', async () => {
    const user = await registerUser()
    const options = await registerOptions(user)
    const answer = new SoftAuthenticator(origin()).register(options.body)
    answer.response.clientDataJSON = Buffer.from('not json').toString('base64url')
    expectError(await registerVerify(user, { name: 'x', response: answer }), 400, 'Invalid passkey response')
  })

  it('answers 401 without a session, before looking at the body', async () => {
    expectError(await api('/api/auth/passkeys/register/verify', { method: 'POST', body: {} }), 401, 'Authentication required')
  })
})

describe('GET /api/auth/passkeys', () => {
  it('lists the caller\'s passkeys newest first, never key material, not cached', async () => {
    const user = await registerUser()
    const other = await registerUser()
    const first = await addPasskey(user, 'Phone')
    const second = await addPasskey(user, 'Laptop')
    await addPasskey(other, 'Not mine')
    const response = await api('/api/auth/passkeys', { token: user.token })
    expect(response.status).toBe(200)
    await expectMatchesOpenApi('GET', '/api/auth/passkeys', response)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(response.body).toEqual({ passkeys: [second.passkey, first.passkey] })
    expect(JSON.stringify(response.body)).not.toContain(first.authenticator.id)
  })

  it('answers an empty list for a new account and 401 without a session', async () => {
    const user = await registerUser()
    expect((await api('/api/auth/passkeys', { token: user.token })).body).toEqual({ passkeys: [] })
    expectError(await api('/api/auth/passkeys'), 401, 'Authentication required')
  })
})

describe('DELETE /api/auth/passkeys/{id}', () => {
  it('removes one passkey; it can no longer sign in', async () => {
    const user = await registerUser()
    const keep = await addPasskey(user, 'keep')
    const drop = await addPasskey(user, 'drop')
    const response = await api(`/api/auth/passkeys/${drop.passkey.id}`, { method: 'DELETE', token: user.token })
    expect(response.status).toBe(200)
    await expectMatchesOpenApi('DELETE', '/api/auth/passkeys/{id}', response)
    expect(response.body).toEqual({ success: true })
    expect((await api('/api/auth/passkeys', { token: user.token })).body.passkeys).toEqual([keep.passkey])
    expectError(await signIn(drop.authenticator), 401, 'Unknown passkey')
    expect((await signIn(keep.authenticator)).status).toBe(200)
    expectError(await api(`/api/auth/passkeys/${drop.passkey.id}`, { method: 'DELETE', token: user.token }), 404, 'Passkey not found')
  })

  it('answers 404 for another user\'s passkey (and leaves it) and for an unknown id', async () => {
    const owner = await registerUser()
    const intruder = await registerUser()
    const { passkey } = await addPasskey(owner)
    const response = await api(`/api/auth/passkeys/${passkey.id}`, { method: 'DELETE', token: intruder.token })
    expectError(response, 404, 'Passkey not found')
    await expectMatchesOpenApi('DELETE', '/api/auth/passkeys/{id}', response)
    expect((await api('/api/auth/passkeys', { token: owner.token })).body.passkeys).toHaveLength(1)
    expectError(await api('/api/auth/passkeys/00000000-0000-4000-8000-000000000000', { method: 'DELETE', token: owner.token }), 404, 'Passkey not found')
  })

  it('answers 400 for a malformed id and 401 without a session', async () => {
    const user = await registerUser()
    const malformed = await api('/api/auth/passkeys/not-a-uuid', { method: 'DELETE', token: user.token })
    expect(malformed.status).toBe(400)
    expect(malformed.body.message).toBe('Invalid ID')
    expectError(await api('/api/auth/passkeys/00000000-0000-4000-8000-000000000000', { method: 'DELETE' }), 401, 'Authentication required')
  })
})

describe('POST /api/auth/passkeys/login/options', () => {
  it('answers request options for any discoverable passkey, with user verification, to anyone', async () => {
    const response = await loginOptions()
    expect(response.status).toBe(200)
    await expectMatchesOpenApi('POST', '/api/auth/passkeys/login/options', response)
    expect(response.body).toMatchObject({ rpId: '127.0.0.1', userVerification: 'required', allowCredentials: [] })
    expect(response.body.challenge).toMatch(/^[A-Za-z0-9_-]{32,}$/)
    const stored = await serverDatabase().db.get(sql`SELECT purpose, user_id FROM webauthn_challenges WHERE challenge = ${response.body.challenge}`)
    expect(stored).toEqual({ purpose: 'login', user_id: null })
  })
})

describe('POST /api/auth/passkeys/login/verify', () => {
  it('signs in like POST /api/auth: same body, same cookie, a session of its own', async () => {
    const user = await registerUser()
    const { authenticator, passkey } = await addPasskey(user)
    const options = await loginOptions()
    const response = await loginVerify({ response: authenticator.authenticate(options.body) }, { 'user-agent': 'PasskeyTest/1.0' })
    expect(response.status).toBe(200)
    await expectMatchesOpenApi('POST', '/api/auth/passkeys/login/verify', response)
    expect(response.body).toEqual({ user: { id: user.id, username: user.username, email: user.email }, token: expect.any(String), mfaRequired: false })
    const cookie = response.headers.get('set-cookie')!
    expect(cookie).toContain(`auth-token=${response.body.token}`)
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).toMatch(/Max-Age=86400/)
    const profile = await api('/api/profile', { token: response.body.token })
    expect(profile.status).toBe(200)
    expect(profile.body.user.id).toBe(user.id)
    const sessions = await api('/api/auth/sessions', { token: response.body.token })
    expect(sessions.body.sessions.find((s: { current: boolean }) => s.current).userAgent).toBe('PasskeyTest/1.0')
    const row = await serverDatabase().db.get<{ counter: number, last_used_at: string }>(sql`SELECT counter, last_used_at FROM passkeys WHERE id = ${passkey.id}`)
    expect(row!.counter).toBe(1)
    const listed = (await api('/api/auth/passkeys', { token: user.token })).body.passkeys[0]
    expect(listed.lastUsedAt).toBe(row!.last_used_at)
  })

  it('satisfies MFA: an account with two-step verification on signs in without a code', async () => {
    const user = await enableMfa(await registerUser())
    const { authenticator } = await addPasskey(user)
    const password = await api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: user.password } })
    expect(password.body).toEqual({ mfaRequired: true })
    const response = await signIn(authenticator)
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ user: { id: user.id }, mfaRequired: false, token: expect.any(String) })
    expect((await api('/api/profile', { token: response.body.token })).body.user.mfaEnabled).toBe(true)
  })

  it('answers 400 for a replayed answer (its challenge is spent), also when both arrive at once', async () => {
    const user = await registerUser()
    const { authenticator } = await addPasskey(user)
    const options = await loginOptions()
    const answer = authenticator.authenticate(options.body)
    const results = await Promise.all([loginVerify({ response: answer }), loginVerify({ response: answer }), loginVerify({ response: answer })])
    expect(results.map(r => r.status).sort()).toEqual([200, 400, 400])
    for (const result of results.filter(r => r.status === 400)) expectError(result, 400, 'Invalid or expired challenge')
  })

  it('answers 400 for an unknown or expired challenge, or one issued for registering', async () => {
    const user = await registerUser()
    const { authenticator } = await addPasskey(user)
    const unknown = await loginVerify({ response: authenticator.authenticate({ challenge: Buffer.from('never issued').toString('base64url') }) })
    expectError(unknown, 400, 'Invalid or expired challenge')
    await expectMatchesOpenApi('POST', '/api/auth/passkeys/login/verify', unknown)

    const options = await loginOptions()
    await serverDatabase().db.run(sql`UPDATE webauthn_challenges SET expires_at = ${new Date(Date.now() - 1000).toISOString()} WHERE challenge = ${options.body.challenge}`)
    expectError(await loginVerify({ response: authenticator.authenticate(options.body) }), 400, 'Invalid or expired challenge')

    const registration = await registerOptions(user)
    expectError(await loginVerify({ response: authenticator.authenticate(registration.body) }), 400, 'Invalid or expired challenge')
  })

  it('answers 401 for a credential this site does not know', async () => {
    const stranger = new SoftAuthenticator(origin())
    stranger.userHandle = Buffer.from('someone').toString('base64url')
    const response = await signIn(stranger)
    expectError(response, 401, 'Unknown passkey')
    await expectMatchesOpenApi('POST', '/api/auth/passkeys/login/verify', response)
  })

  it('answers 401 when the user handle names another account', async () => {
    const user = await registerUser()
    const other = await registerUser()
    const { authenticator } = await addPasskey(user)
    expectError(await signIn(authenticator, { userHandle: Buffer.from(other.id).toString('base64url') }), 401, 'Unknown passkey')
  })

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP ID', { rpId: 'evil.example' }],
    ['no user verification', { userVerified: false }],
  ])('answers 401 for an answer with %s', async (_, overrides) => {
    const user = await registerUser()
    const { authenticator } = await addPasskey(user)
    expectError(await signIn(authenticator, overrides), 401, 'Passkey could not be verified')
  })

  it('answers 401 for a forged signature', async () => {
    const user = await registerUser()
    const { authenticator } = await addPasskey(user)
    const options = await loginOptions()
    const answer = authenticator.authenticate(options.body)
    answer.response.signature = new SoftAuthenticator(origin()).authenticate(options.body).response.signature
    expectError(await loginVerify({ response: answer }), 401, 'Passkey could not be verified')
  })

  it('answers 401 when the signature counter does not move forward (a cloned authenticator)', async () => {
    const user = await registerUser()
    const { authenticator, passkey } = await addPasskey(user)
    expect((await signIn(authenticator)).status).toBe(200)
    expect((await signIn(authenticator)).status).toBe(200)
    authenticator.counter = 0 // the clone signs with counter 1, already seen
    expectError(await signIn(authenticator), 401, 'Passkey could not be verified')
    const row = await serverDatabase().db.get<{ counter: number }>(sql`SELECT counter FROM passkeys WHERE id = ${passkey.id}`)
    expect(row!.counter).toBe(2)
  })

  it('accepts authenticators that keep no counter (always 0)', async () => {
    const user = await registerUser()
    const { authenticator } = await addPasskey(user, 'synced', new SoftAuthenticator(origin(), undefined, 0))
    expect((await signIn(authenticator)).status).toBe(200)
    expect((await signIn(authenticator)).status).toBe(200)
  })

  it.each([
    [{}, 'Response is required'],
    [{ response: null }, 'Invalid passkey response'],
    [{ response: { id: 'abc', rawId: 'abc', type: 'public-key', response: { clientDataJSON: 'abc', authenticatorData: 'abc' } } }, 'Invalid passkey response'],
    [{ response: { id: 'abc', rawId: 'abc', type: 'other', response: { clientDataJSON: 'abc', authenticatorData: 'abc', signature: 'abc' } } }, 'Invalid passkey response'],
  ])('answers 400 for %j', async (body, message) => {
    const response = await loginVerify(body)
    expect(response.status).toBe(400)
    expect(response.body.message).toBe(message)
  })
})

describe('passkey sign-in rate limit', () => {
  it('counts both sign-in steps in the AUTH category, and registration in GENERAL', async () => {
    const server = await startServer({ NUXT_RATE_LIMIT_ENABLED: 'true', NUXT_RATE_LIMIT_AUTH_MAX: '3' })
    try {
      const baseURL = server.url
      const user = await registerUser({}, baseURL) // AUTH 1
      const options = await api('/api/auth/passkeys/login/options', { method: 'POST', baseURL }) // AUTH 2
      expect(options.headers.get('ratelimit-limit')).toBe('3')
      expect(options.headers.get('ratelimit-remaining')).toBe('1')
      const register = await api('/api/auth/passkeys/register/options', { method: 'POST', token: user.token, baseURL })
      expect(register.headers.get('ratelimit-limit')).not.toBe('3')
      const verify = await api('/api/auth/passkeys/login/verify', { method: 'POST', body: {}, baseURL }) // AUTH 3
      expect(verify.status).toBe(400)
      const limited = await api('/api/auth/passkeys/login/options', { method: 'POST', baseURL })
      expect(limited.status).toBe(429)
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/)
    }
    finally {
      await server.stop()
    }
  })
})
