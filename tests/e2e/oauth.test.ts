import { randomUUID } from 'node:crypto'
import * as OTPAuth from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, registerUser } from '../support/api'
import { browse, CookieJar, runOAuthFlow, startOAuthMock, type MockProvider, type OAuthMock } from '../support/oauth-mock'
import { databaseOf } from '../support/seed'
import { startServer, type RunningServer } from '../support/server'
import { registerPasskey } from '../support/webauthn'
import { verifyRegisteredEmail } from '../support/accounts'
import { createApiToken } from '../support/uploads'

let mock: OAuthMock
let server: RunningServer
/** Admin addresses of this file's server, registered by nobody but the tests that squat them. */
const BOSS = 'boss@oauth.test'
const CHIEF = 'chief@oauth.test'

beforeAll(async () => {
  mock = await startOAuthMock()
  server = await startServer({ ...mock.env, NUXT_ADMIN_EMAILS: `${BOSS},${CHIEF}` })
})

afterAll(async () => {
  await server?.stop()
  await mock?.stop()
})

const unique = () => randomUUID().slice(0, 8)
const numericId = () => Math.floor(Math.random() * 1e9) + 1

/** Sets the mock's user of `provider` with the fields each provider uses. */
function providerUser(provider: MockProvider, fields: { id: string, name: string, email: string | null, verified: boolean }) {
  if (provider === 'github') {
    const emails = fields.email ? [{ email: fields.email, primary: true, verified: fields.verified, visibility: 'public' }] : []
    mock.setUser('github', { id: Number(fields.id), login: fields.name, name: null, email: fields.email }, emails)
  }
  else if (provider === 'google') {
    mock.setUser('google', { sub: fields.id, name: fields.name, email: fields.email, email_verified: fields.verified })
  }
  else {
    mock.setUser('discord', { id: fields.id, username: fields.name, email: fields.email, verified: fields.verified })
  }
}

function sessionToken(response: Response): string | undefined {
  const line = response.headers.getSetCookie().find(cookie => cookie.startsWith('auth-token='))
  return line?.split(';')[0]!.slice('auth-token='.length) || undefined
}

const profileOf = async (token: string) => (await api('/api/profile', { token, baseURL: server.url })).body.user

const countUsers = async () =>
  (await databaseOf(server).db.get<{ n: number }>(sql`SELECT count(*) AS n FROM users`))!.n

/** Turns MFA on for a user directly in the server's database; returns its TOTP. */
async function enableMfa(userId: string) {
  const secret = new OTPAuth.Secret({ size: 20 })
  await databaseOf(server).db.run(sql`UPDATE users SET mfa_enabled = 1, mfa_secret = ${secret.base32} WHERE id = ${userId}`)
  return new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret })
}

async function expectErrorPage(response: Response, status: number, message: string) {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toContain('text/html')
  expect(sessionToken(response)).toBeUndefined()
  expect(await response.text()).toContain(message)
}

describe('provider configuration', () => {
  it('offers only configured providers', async () => {
    const all = await api('/api/auth/providers', { baseURL: server.url })
    expect(all.status).toBe(200)
    expect(all.body).toEqual({ providers: ['github', 'google', 'discord'] })
    const none = await api('/api/auth/providers')
    expect(none.body).toEqual({ providers: [] })
  })

  it('answers an unconfigured provider route with a 404 page', async () => {
    const response = await api('/auth/github', { headers: { accept: 'text/html' } })
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toContain('text/html')
  })

  it('redirects to the provider with client id, callback URL and state', async () => {
    const jar = new CookieJar()
    const response = await browse(`${server.url}/auth/google`, jar)
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get('location')!)
    expect(location.pathname).toBe('/authorize')
    expect(location.searchParams.get('client_id')).toBe('google-client')
    expect(location.searchParams.get('redirect_uri')).toBe(`${server.url}/auth/google`)
    expect(location.searchParams.get('state')).toBe(jar.cookies.get('nuxt-auth-state'))
    expect(jar.cookies.has('auth-token')).toBe(false)
  })
})

describe.each(['github', 'google', 'discord'] as const)('%s sign-in', (provider) => {
  it('creates a new account and sets the auth-token cookie', async () => {
    const name = `${provider}_${unique()}`
    const email = `${name}@oauth.test`
    providerUser(provider, { id: String(numericId()), name, email, verified: true })
    const { callback } = await runOAuthFlow(server.url, provider)
    expect(callback.status).toBe(302)
    expect(callback.headers.get('location')).toBe('/')
    const cookie = callback.headers.getSetCookie().find(line => line.startsWith('auth-token='))!
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).toMatch(/Max-Age=86400/i)
    const token = sessionToken(callback)!
    // The provider vouched for the address: it is the account's, verified.
    expect(await profileOf(token)).toMatchObject({ username: name, email, isAdmin: false, mfaEnabled: false, emailVerified: true })
    const linked = await api('/api/auth/oauth-accounts', { token, baseURL: server.url })
    expect(linked.status).toBe(200)
    expect(linked.headers.get('cache-control')).toBe('private, no-store')
    expect(linked.body).toEqual({ accounts: [{ provider, email, createdAt: expect.any(String) }], hasPassword: false })
    // nuxt-auth-utils' own sealed session is not used.
    expect(callback.headers.getSetCookie().some(line => line.startsWith('nuxt-session='))).toBe(false)
    // The provider's user endpoint got the access token.
    expect(mock.userInfoAuthorizations.at(-1)).toMatch(/^(token|Bearer) \S+/)
  })

  it('signs a returning account in to the same account', async () => {
    const id = String(numericId())
    const name = `${provider}_${unique()}`
    providerUser(provider, { id, name, email: `${name}@oauth.test`, verified: true })
    const first = await profileOf(sessionToken((await runOAuthFlow(server.url, provider)).callback)!)
    const users = await countUsers()
    // The provider's name and e-mail changed since; the id did not.
    providerUser(provider, { id, name: `renamed_${unique()}`, email: `other_${unique()}@oauth.test`, verified: true })
    const { callback } = await runOAuthFlow(server.url, provider)
    expect(callback.status).toBe(302)
    expect(await profileOf(sessionToken(callback)!)).toMatchObject({ id: first.id, username: name })
    expect(await countUsers()).toBe(users)
  })

  it('links to an existing account by verified e-mail, which keeps its password', async () => {
    const user = await registerUser({}, server.url)
    await verifyRegisteredEmail(user, { dataDir: server.dataDir, baseURL: server.url })
    providerUser(provider, { id: String(numericId()), name: `${provider}_${unique()}`, email: user.email.toUpperCase(), verified: true })
    const { callback } = await runOAuthFlow(server.url, provider)
    expect(callback.status).toBe(302)
    const token = sessionToken(callback)!
    expect((await profileOf(token)).id).toBe(user.id)
    const linked = await api('/api/auth/oauth-accounts', { token, baseURL: server.url })
    expect(linked.body).toEqual({ accounts: [{ provider, email: user.email, createdAt: expect.any(String) }], hasPassword: true })
    // The registrant's own password and session still work.
    expect((await api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: user.password }, baseURL: server.url })).status).toBe(200)
    expect((await api('/api/profile', { token: user.token, baseURL: server.url })).status).toBe(200)
  })

  it('does not link by an unverified e-mail', async () => {
    const user = await registerUser({}, server.url)
    const name = `${provider}_${unique()}`
    providerUser(provider, { id: String(numericId()), name, email: user.email, verified: false })
    const { callback } = await runOAuthFlow(server.url, provider)
    expect(callback.status).toBe(302)
    const profile = await profileOf(sessionToken(callback)!)
    expect(profile.id).not.toBe(user.id)
    expect(profile).toMatchObject({ username: name, email: null, emailVerified: false })
    const owner = await api('/api/auth/oauth-accounts', { token: user.token, baseURL: server.url })
    expect(owner.body).toEqual({ accounts: [], hasPassword: true })
  })

  it('refuses a callback with a wrong state', async () => {
    providerUser(provider, { id: String(numericId()), name: `${provider}_${unique()}`, email: null, verified: false })
    const users = await countUsers()
    const { callback, jar } = await runOAuthFlow(server.url, provider, { tamper: url => url.searchParams.set('state', 'forged') })
    await expectErrorPage(callback, 400, 'missing or wrong state')
    expect(jar.cookies.has('nuxt-auth-state')).toBe(false)
    expect(await countUsers()).toBe(users)
  })

  it('refuses a callback without state, or without the state cookie', async () => {
    providerUser(provider, { id: String(numericId()), name: `${provider}_${unique()}`, email: null, verified: false })
    const users = await countUsers()
    const { callback } = await runOAuthFlow(server.url, provider, { tamper: url => url.searchParams.delete('state') })
    await expectErrorPage(callback, 400, 'missing or wrong state')
    // A callback link made by someone else: state in the URL, none in this browser.
    const { callbackUrl } = await runOAuthFlow(server.url, provider, { tamper: url => url.searchParams.set('state', 'x') })
    const replayed = await browse(callbackUrl, new CookieJar())
    await expectErrorPage(replayed, 400, 'missing or wrong state')
    expect(await countUsers()).toBe(users)
  })

  it('asks an MFA account for a code before setting the cookie', async () => {
    const user = await registerUser({}, server.url)
    await verifyRegisteredEmail(user, { dataDir: server.dataDir, baseURL: server.url })
    const totp = await enableMfa(user.id)
    providerUser(provider, { id: String(numericId()), name: `${provider}_${unique()}`, email: user.email, verified: true })
    const { callback, jar } = await runOAuthFlow(server.url, provider)
    expect(callback.status).toBe(302)
    expect(callback.headers.get('location')).toBe('/auth/mfa')
    expect(sessionToken(callback)).toBeUndefined()
    const pendingCookie = callback.headers.getSetCookie().find(line => line.startsWith('oauth-mfa='))!
    expect(pendingCookie).toMatch(/HttpOnly/i)
    expect(pendingCookie).toMatch(/Max-Age=300/i)
    const cookie = jar.header()
    const post = (body: unknown, headers: Record<string, string> = { cookie }) => api('/api/auth/oauth/mfa', { method: 'POST', body, headers, baseURL: server.url })

    const noCookie = await post({ code: totp.generate() }, {})
    expect(noCookie.status).toBe(401)
    expect(noCookie.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Sign-in expired, please sign in again' })
    const forged = await post({ code: totp.generate() }, { cookie: 'oauth-mfa=eyJhbGciOiJIUzI1NiJ9.e30.x' })
    expect(forged.status).toBe(401)
    const missing = await post({})
    expect(missing.status).toBe(400)
    expect(missing.body.message).toBe('MFA code is required')
    const wrong = await post({ code: '000000' === totp.generate() ? '111111' : '000000' })
    expect(wrong.status).toBe(401)
    expect(wrong.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Invalid MFA code' })
    // The link waits for the MFA step.
    expect((await api('/api/auth/oauth-accounts', { token: user.token, baseURL: server.url })).body.accounts).toEqual([])

    const code = totp.generate()
    const ok = await post({ code })
    expect(ok.status).toBe(200)
    expect(ok.body).toEqual({ user: { id: user.id, username: user.username, email: user.email }, token: expect.any(String), mfaRequired: false })
    const token = ok.headers.getSetCookie().find(line => line.startsWith('auth-token='))!.split(';')[0]!.slice('auth-token='.length)
    expect(token).toBe(ok.body.token)
    expect(ok.headers.getSetCookie().some(line => /^oauth-mfa=;/.test(line) || /^oauth-mfa=.*Max-Age=0/i.test(line))).toBe(true)
    expect((await profileOf(token)).id).toBe(user.id)
    expect((await api('/api/auth/oauth-accounts', { token, baseURL: server.url })).body.accounts.map((a: { provider: string }) => a.provider)).toEqual([provider])
    // The same TOTP code does not work twice, even with the old pending cookie.
    const replay = await post({ code })
    expect(replay.status).toBe(401)

    // Next time the account is found by provider id, and still asks for MFA.
    const again = await runOAuthFlow(server.url, provider)
    expect(again.callback.headers.get('location')).toBe('/auth/mfa')
    expect(sessionToken(again.callback)).toBeUndefined()
  })

  it('shows an error page when the user refuses at the provider', async () => {
    mock.refuseNextAuthorize()
    const { callback } = await runOAuthFlow(server.url, provider)
    const label = { github: 'GitHub', google: 'Google', discord: 'Discord' }[provider]
    await expectErrorPage(callback, 401, `Sign-in with ${label} was cancelled or refused.`)
  })

  it('shows an error page when the provider answers the token request with an error', async () => {
    providerUser(provider, { id: String(numericId()), name: `${provider}_${unique()}`, email: null, verified: false })
    const users = await countUsers()
    mock.failNextToken()
    const { callback } = await runOAuthFlow(server.url, provider)
    await expectErrorPage(callback, 502, 'did not answer as expected')
    expect(await countUsers()).toBe(users)
  })

  it('shows an error page when the provider\'s user endpoint fails', async () => {
    providerUser(provider, { id: String(numericId()), name: `${provider}_${unique()}`, email: null, verified: false })
    mock.failUserInfo()
    const { callback } = await runOAuthFlow(server.url, provider)
    await expectErrorPage(callback, 502, 'did not answer as expected')
  })
})

describe('an account whose address was never verified', () => {
  const login = (email: string, password: string) => api('/api/auth', { method: 'POST', body: { action: 'login', email, password }, baseURL: server.url })

  it('is taken over by the provider\'s verified owner, with every credential of its registrant gone', async () => {
    // Someone registers the owner's address, and arms the account with every way back in.
    const squatter = await registerUser({}, server.url)
    const apiToken = await createApiToken(squatter.id, { server })
    await registerPasskey(squatter, server.url, 'Squatter key')
    providerUser('discord', { id: String(numericId()), name: `squat_${unique()}`, email: null, verified: false })
    const jar = new CookieJar()
    jar.cookies.set('auth-token', squatter.token)
    expect((await runOAuthFlow(server.url, 'discord', { jar })).callback.headers.get('location')).toBe('/settings')
    await enableMfa(squatter.id)
    await databaseOf(server).db.run(sql`INSERT INTO mfa_backup_codes (id, user_id, code_hash) VALUES (${randomUUID()}, ${squatter.id}, 'x')`)

    // The address's owner signs in with GitHub, which vouches for it: no MFA step of the squatter's.
    providerUser('github', { id: String(numericId()), name: `owner_${unique()}`, email: squatter.email, verified: true })
    const { callback } = await runOAuthFlow(server.url, 'github')
    expect(callback.status).toBe(302)
    expect(callback.headers.get('location')).toBe('/')
    const token = sessionToken(callback)!
    expect(await profileOf(token)).toMatchObject({ id: squatter.id, email: squatter.email, emailVerified: true, mfaEnabled: false })
    const linked = await api('/api/auth/oauth-accounts', { token, baseURL: server.url })
    expect(linked.body).toEqual({ accounts: [{ provider: 'github', email: squatter.email, createdAt: expect.any(String) }], hasPassword: false })

    // The squatter's password, session, API token, passkey, MFA and Discord link are gone.
    const password = await login(squatter.email, squatter.password)
    expect(password.status).toBe(401)
    expect(password.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Invalid email or password' })
    const session = await api('/api/profile', { token: squatter.token, baseURL: server.url })
    expect(session.status).toBe(401)
    expect(session.body.message).toBe('Invalid or expired token')
    const upload = await api('/api/v1/upload', { method: 'POST', bearer: apiToken.token, body: { upload_type: 'link', external_url: 'https://example.com/' }, baseURL: server.url })
    expect(upload.status).toBe(401)
    expect(upload.body.message).toBe('Invalid or expired token')
    const left = await databaseOf(server).db.get<Record<string, number>>(sql`SELECT
      (SELECT count(*) FROM passkeys WHERE user_id = ${squatter.id}) AS passkeys,
      (SELECT count(*) FROM api_tokens WHERE user_id = ${squatter.id}) AS api_tokens,
      (SELECT count(*) FROM mfa_backup_codes WHERE user_id = ${squatter.id}) AS backup_codes,
      (SELECT count(*) FROM sessions WHERE user_id = ${squatter.id} AND revoked_at IS NULL) AS live_sessions,
      (SELECT count(*) FROM users WHERE id = ${squatter.id} AND (mfa_secret IS NOT NULL OR password_hash IS NOT NULL)) AS secrets`)
    expect(Object.fromEntries(Object.entries(left!).map(([key, n]) => [key, Number(n)]))).toEqual({ passkeys: 0, api_tokens: 0, backup_codes: 0, live_sessions: 1, secrets: 0 })
    const discord = await runOAuthFlow(server.url, 'discord')
    expect((await profileOf(sessionToken(discord.callback)!)).id).not.toBe(squatter.id)
  })

  it('gives an admin\'s address no admin until it is verified: by a provider, or by the mailed link', async () => {
    const squatter = await registerUser({ email: BOSS }, server.url)
    expect(await profileOf(squatter.token)).toMatchObject({ email: BOSS, isAdmin: false, emailVerified: false })
    expect((await login(BOSS, squatter.password)).status).toBe(200)
    expect(await profileOf(squatter.token)).toMatchObject({ isAdmin: false })
    expect((await api('/api/admin/users', { token: squatter.token, baseURL: server.url })).status).toBe(403)

    providerUser('google', { id: String(numericId()), name: 'The Boss', email: BOSS, verified: true })
    const { callback } = await runOAuthFlow(server.url, 'google')
    expect(await profileOf(sessionToken(callback)!)).toMatchObject({ id: squatter.id, isAdmin: true, emailVerified: true })
    expect((await api('/api/profile', { token: squatter.token, baseURL: server.url })).status).toBe(401)

    const chief = await registerUser({ email: CHIEF }, server.url)
    expect(await profileOf(chief.token)).toMatchObject({ isAdmin: false })
    await verifyRegisteredEmail(chief, { dataDir: server.dataDir, baseURL: server.url })
    expect(await profileOf(chief.token)).toMatchObject({ isAdmin: true, emailVerified: true })
    expect((await api('/api/admin/users', { token: chief.token, baseURL: server.url })).status).toBe(200)
  })
})

describe('identities across providers', () => {
  it('maps the same numeric id from two providers to two accounts', async () => {
    const id = String(numericId())
    providerUser('github', { id, name: `gh_${unique()}`, email: null, verified: false })
    providerUser('discord', { id, name: `dc_${unique()}`, email: null, verified: false })
    const github = await profileOf(sessionToken((await runOAuthFlow(server.url, 'github')).callback)!)
    const discord = await profileOf(sessionToken((await runOAuthFlow(server.url, 'discord')).callback)!)
    expect(github.id).not.toBe(discord.id)
  })

  it('makes a taken provider username unique', async () => {
    const user = await registerUser({}, server.url)
    providerUser('google', { id: String(numericId()), name: user.username.toUpperCase(), email: null, verified: false })
    const profile = await profileOf(sessionToken((await runOAuthFlow(server.url, 'google')).callback)!)
    expect(profile.username).toBe(`${user.username.toUpperCase()}_2`)
  })

  it('links another provider to the signed-in account', async () => {
    const user = await registerUser({}, server.url)
    providerUser('discord', { id: String(numericId()), name: `dc_${unique()}`, email: null, verified: false })
    const jar = new CookieJar()
    jar.cookies.set('auth-token', user.token)
    const { callback } = await runOAuthFlow(server.url, 'discord', { jar })
    expect(callback.status).toBe(302)
    expect(callback.headers.get('location')).toBe('/settings')
    const linked = await api('/api/auth/oauth-accounts', { token: user.token, baseURL: server.url })
    expect(linked.body.accounts.map((a: { provider: string }) => a.provider)).toEqual(['discord'])

    // The same Discord identity cannot then be linked to someone else.
    const other = await registerUser({}, server.url)
    const otherJar = new CookieJar()
    otherJar.cookies.set('auth-token', other.token)
    const conflict = await runOAuthFlow(server.url, 'discord', { jar: otherJar })
    await expectErrorPage(conflict.callback, 409, 'already linked to another user')
  })
})

describe('unlinking', () => {
  it('counts a passkey as a way to sign in, and keeps the last one of a passwordless account', async () => {
    providerUser('github', { id: String(numericId()), name: `pk_${unique()}`, email: null, verified: false })
    const { callback } = await runOAuthFlow(server.url, 'github', { jar: new CookieJar() })
    const token = sessionToken(callback)!
    const { authenticator, passkey } = await registerPasskey({ token }, server.url, 'Key')

    expect((await api('/api/auth/oauth-accounts/github', { method: 'DELETE', token, baseURL: server.url })).body).toEqual({ success: true })
    const last = await api(`/api/auth/passkeys/${passkey.id}`, { method: 'DELETE', token, baseURL: server.url })
    expect(last.body).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Cannot delete your only way to sign in: set a password or link a provider first' })
    expect((await api('/api/auth/passkeys', { token, baseURL: server.url })).body.passkeys).toHaveLength(1)

    // Signing in with it still works, and a second passkey makes the first removable.
    const signInOptions = await api('/api/auth/passkeys/login/options', { method: 'POST', baseURL: server.url })
    expect((await api('/api/auth/passkeys/login/verify', { method: 'POST', baseURL: server.url, body: { response: authenticator.authenticate(signInOptions.body) } })).status).toBe(200)
    await registerPasskey({ token }, server.url, 'Spare')
    expect((await api(`/api/auth/passkeys/${passkey.id}`, { method: 'DELETE', token, baseURL: server.url })).body).toEqual({ success: true })
  })

  it('unlinks while another way to sign in is left', async () => {
    providerUser('github', { id: String(numericId()), name: `gh_${unique()}`, email: null, verified: false })
    const jar = new CookieJar()
    const { callback } = await runOAuthFlow(server.url, 'github', { jar })
    const token = sessionToken(callback)!
    const del = (provider: string, withToken = token) => api(`/api/auth/oauth-accounts/${provider}`, { method: 'DELETE', token: withToken, baseURL: server.url })

    const last = await del('github')
    expect(last.status).toBe(400)
    expect(last.body).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Cannot unlink your only way to sign in: set a password, add a passkey or link another provider first' })

    providerUser('google', { id: String(numericId()), name: `gg_${unique()}`, email: null, verified: false })
    expect((await runOAuthFlow(server.url, 'google', { jar })).callback.headers.get('location')).toBe('/settings')
    const ok = await del('github')
    expect(ok.status).toBe(200)
    expect(ok.body).toEqual({ success: true })
    const linked = await api('/api/auth/oauth-accounts', { token, baseURL: server.url })
    expect(linked.body.accounts.map((a: { provider: string }) => a.provider)).toEqual(['google'])

    const notLinked = await del('github')
    expect(notLinked.status).toBe(404)
    expect(notLinked.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'GitHub is not linked to this account' })
    const unknown = await del('myspace')
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toBe('Unknown provider')
  })

  it('requires a session', async () => {
    expect((await api('/api/auth/oauth-accounts', { baseURL: server.url })).status).toBe(401)
    const response = await api('/api/auth/oauth-accounts/github', { method: 'DELETE', baseURL: server.url })
    expect(response.status).toBe(401)
    expect(response.body.message).toBe('Authentication required')
    // 401 comes before validating the provider.
    expect((await api('/api/auth/oauth-accounts/myspace', { method: 'DELETE', baseURL: server.url })).status).toBe(401)
  })
})
