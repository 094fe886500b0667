import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { SignJWT, UnsecuredJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { sql } from '../../server/database/sql'
import { ADMIN_EMAIL } from '../support/global-setup'
import { ROOT } from '../support/server'
import { serverDatabase, storedSecrets } from '../support/seed'
import { signInAsAdmin } from '../support/accounts'
import { sharedServer } from '../support/shared-server'

const run = promisify(execFile)
const sessionSecret = async () => (await storedSecrets()).sessionSecret
const suffix = () => randomUUID().slice(0, 8)

describe('POST /api/auth register', () => {
  it('answers 201 with user, token and mfaRequired false, sets the cookie and stores the e-mail lowercase', async () => {
    const name = `Reg_${suffix()}`
    const response = await api('/api/auth', { method: 'POST', body: { action: 'register', email: `  ${name}@E2E.Test `, username: name, password: 'correct horse battery' } })
    expect(response.status).toBe(201)
    expect(Object.keys(response.body).sort()).toEqual(['mfaRequired', 'token', 'user'])
    expect(response.body.user).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), username: name, email: `${name.toLowerCase()}@e2e.test` })
    expect(response.body.mfaRequired).toBe(false)
    const cookie = response.headers.get('set-cookie')!
    expect(cookie).toContain(`auth-token=${response.body.token}`)
    expect(cookie).toMatch(/Max-Age=86400/)
    expect(cookie).toMatch(/Path=\//)
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    expect(cookie).not.toMatch(/Secure/) // the test site is http
    const profile = await api('/api/profile', { token: response.body.token })
    expect(profile.body.user.email).toBe(`${name.toLowerCase()}@e2e.test`)
  })

  it('answers 409 for a taken e-mail (any case) or username (case-insensitively)', async () => {
    const user = await registerUser()
    const email = await api('/api/auth', { method: 'POST', body: { action: 'register', email: user.email.toUpperCase(), username: `other_${suffix()}`, password: 'correct horse battery' } })
    expect(email.status).toBe(409)
    expect(email.body).toEqual({ statusCode: 409, statusMessage: 'Conflict', message: 'Email already registered' })
    const username = await api('/api/auth', { method: 'POST', body: { action: 'register', email: `other_${suffix()}@e2e.test`, username: user.username.toUpperCase(), password: 'correct horse battery' } })
    expect(username.status).toBe(409)
    expect(username.body).toEqual({ statusCode: 409, statusMessage: 'Conflict', message: 'Username already taken' })
  })

  it.each([
    [{ email: 'x@e2e.test', username: 'ab', password: 'correct horse' }, 'Username must be 3 to 30 characters'],
    [{ email: 'x@e2e.test', username: 'a'.repeat(31), password: 'correct horse' }, 'Username must be 3 to 30 characters'],
    [{ email: 'x@e2e.test', username: 'bad name!', password: 'correct horse' }, 'Username may contain only letters, digits, _ and -'],
    [{ email: 'x@e2e.test', username: 'good_name', password: 'short' }, 'Password must be 8 to 256 characters'],
    [{ email: 'x@e2e.test', username: 'good_name', password: 'p'.repeat(257) }, 'Password must be 8 to 256 characters'],
    [{ email: 'not-an-email', username: 'good_name', password: 'correct horse' }, 'Invalid email'],
    [{ email: 42, username: 'good_name', password: 'correct horse' }, 'Email is required'],
    [{ username: 'good_name', password: 'correct horse' }, 'Email is required'],
  ])('answers 400 for %j', async (fields, message) => {
    const response = await api('/api/auth', { method: 'POST', body: { action: 'register', ...fields } })
    expect(response.status).toBe(400)
    expect(response.body.statusMessage).toBe('Bad Request')
    expect(response.body.message).toBe(message)
  })

  it('answers 400 for an unknown action or no body', async () => {
    const unknown = await api('/api/auth', { method: 'POST', body: { action: 'delete', email: 'x@e2e.test', password: 'whatever1' } })
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toBe('action must be "login" or "register"')
    const empty = await api('/api/auth', { method: 'POST' })
    expect(empty.status).toBe(400)
  })
})

describe('POST /api/auth login', () => {
  it('answers user, token and mfaRequired false and sets the cookie', async () => {
    const user = await registerUser()
    const response = await api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email.toUpperCase(), password: user.password } })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ user: { id: user.id, username: user.username, email: user.email }, token: expect.any(String), mfaRequired: false })
    expect(response.headers.get('set-cookie')).toContain(`auth-token=${response.body.token}`)
    const profile = await api('/api/profile', { token: response.body.token })
    expect(profile.status).toBe(200)
  })

  it('answers 401 with one message for a wrong password and an unknown e-mail', async () => {
    const user = await registerUser()
    const wrong = await api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: 'wrong password' } })
    const unknown = await api('/api/auth', { method: 'POST', body: { action: 'login', email: `nobody_${suffix()}@e2e.test`, password: user.password } })
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401)
      expect(response.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Invalid email or password' })
      expect(response.headers.get('set-cookie')).toBeNull()
    }
  })

  it('answers 400 for missing fields', async () => {
    const response = await api('/api/auth', { method: 'POST', body: { action: 'login', email: 'x@e2e.test', password: null } })
    expect(response.status).toBe(400)
    expect(response.body.message).toBe('Password is required')
    const missing = await api('/api/auth', { method: 'POST', body: { action: 'login', password: 'whatever1' } })
    expect(missing.status).toBe(400)
    expect(missing.body.data.issues[0].path).toBe('email')
  })
})

describe('session JWT', () => {
  const now = () => Math.floor(Date.now() / 1000)
  const sign = (key: string, claims: { sub: string, sid: string }, exp = now() + 3600) =>
    new SignJWT({ sid: claims.sid }).setProtectedHeader({ alg: 'HS256' }).setSubject(claims.sub).setIssuedAt(now() - 10).setExpirationTime(exp).sign(new TextEncoder().encode(key))
  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string, sid: string, iat: number, exp: number }

  it('carries sub, sid, iat and exp = iat + 24 h', async () => {
    const user = await registerUser()
    const claims = claimsOf(user.token)
    expect(claims.sub).toBe(user.id)
    expect(claims.sid).toMatch(/^[0-9a-f-]{36}$/)
    expect(claims.exp - claims.iat).toBe(86400)
    expect(JSON.parse(Buffer.from(user.token.split('.')[0]!, 'base64url').toString()).alg).toBe('HS256')
  })

  it('is accepted when re-signed with the server key (control for the cases below)', async () => {
    const user = await registerUser()
    const token = await sign(await sessionSecret(), claimsOf(user.token))
    expect((await api('/api/profile', { token })).status).toBe(200)
  })

  it.each([
    ['signed with another key', async (c: { sub: string, sid: string }) => sign('another-key-another-key-another-key!', c)],
    ['with alg none', async (c: { sub: string, sid: string }) => new UnsecuredJWT({ sid: c.sid }).setSubject(c.sub).setIssuedAt().setExpirationTime('1h').encode()],
    ['expired', async (c: { sub: string, sid: string }) => sign(await sessionSecret(), c, now() - 1)],
    ['of an unknown session', async (c: { sub: string, sid: string }) => sign(await sessionSecret(), { sub: c.sub, sid: randomUUID() })],
    ['with another user as sub', async (c: { sub: string, sid: string }) => sign(await sessionSecret(), { sub: randomUUID(), sid: c.sid })],
    ['that is not a JWT', async () => 'not.a.jwt'],
  ])('answers 401 Invalid or expired token for a JWT %s, as cookie and as bearer', async (_, make) => {
    const user = await registerUser()
    const token = await make(claimsOf(user.token))
    const asCookie = await api('/api/profile', { token })
    expect(asCookie.status).toBe(401)
    expect(asCookie.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Invalid or expired token' })
    const asBearer = await api('/api/auth/tokens', { bearer: token })
    expect(asBearer.status).toBe(401)
    expect(asBearer.body.message).toBe('Invalid or expired token')
  })
})

describe('POST /api/auth/logout', () => {
  it('answers success, clears the cookie and revokes the session', async () => {
    const user = await registerUser()
    const response = await api('/api/auth/logout', { method: 'POST', token: user.token })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true })
    expect(response.headers.get('set-cookie')).toMatch(/^auth-token=;.*Max-Age=0/)
    for (const request of [api('/api/profile', { token: user.token }), api('/api/auth/tokens', { bearer: user.token })]) {
      const after = await request
      expect(after.status).toBe(401)
      expect(after.body.message).toBe('Invalid or expired token')
    }
  })

  it('revokes only its own session', async () => {
    const user = await registerUser()
    const second = await api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: user.password } })
    await api('/api/auth/logout', { method: 'POST', token: user.token })
    expect((await api('/api/profile', { token: second.body.token })).status).toBe(200)
  })

  it('answers 401 without a session', async () => {
    const response = await api('/api/auth/logout', { method: 'POST' })
    expect(response.status).toBe(401)
    expect(response.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Authentication required' })
  })
})

describe('GET /api/profile', () => {
  it('answers the account and its counts, private for 30 s', async () => {
    const user = await registerUser()
    const response = await api('/api/profile', { token: user.token })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      user: { id: user.id, username: user.username, email: user.email, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), isAdmin: false, mfaEnabled: false, emailVerified: false, publicFavourites: true },
      stats: { uploads: 0, votes: 0 },
    })
    expect(response.headers.get('cache-control')).toBe('private, max-age=30')
  })

  it('answers 401 without a cookie, and does not take the JWT as bearer', async () => {
    const user = await registerUser()
    expect((await api('/api/profile')).status).toBe(401)
    const bearer = await api('/api/profile', { bearer: user.token })
    expect(bearer.status).toBe(401)
    expect(bearer.body.message).toBe('Authentication required')
  })

  it('shows a verified address from NUXT_ADMIN_EMAILS as admin', async () => {
    const profile = await api('/api/profile', { token: await signInAsAdmin() })
    expect(profile.body.user).toMatchObject({ email: ADMIN_EMAIL, isAdmin: true, emailVerified: true })
  })
})

describe('admin CLI', () => {
  const admin = (...args: string[]) => run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/admin.ts'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NUXT_DATA_DIR: sharedServer().dataDir, NUXT_DATABASE_URL: sharedServer().databaseUrl },
  })

  it('grants and revokes admin by e-mail, live for the running server', async () => {
    const user = await registerUser()
    const granted = await admin('grant', user.email.toUpperCase())
    expect(granted.stdout).toContain(`${user.email} is now an admin`)
    expect((await api('/api/profile', { token: user.token })).body.user.isAdmin).toBe(true)
    // Again: nothing changes, and it says so (the moderation log gets one entry a change: tests/e2e/modlog.test.ts).
    expect((await admin('grant', user.email)).stdout).toContain(`${user.email} is an admin already`)
    const revoked = await admin('revoke', user.email)
    expect(revoked.stdout).toContain(`${user.email} is no longer an admin`)
    expect((await api('/api/profile', { token: user.token })).body.user.isAdmin).toBe(false)
    expect((await admin('revoke', user.email)).stdout).toContain(`${user.email} was not an admin`)
    const logged = await serverDatabase().db.all<{ action: string }>(sql`SELECT action FROM moderation_log WHERE target_id = ${user.id} ORDER BY created_at, id`)
    expect(logged.map(row => row.action)).toEqual(['admin_granted', 'admin_revoked'])
  })

  // A mistyped NUXT_DATA_DIR: no check may report a new, empty site as sound.
  it('refuses a data dir that holds no site, and makes none', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'dif-admin-')), 'data')
    for (const args of [['grant', 'first@e2e.test'], ['recount', '--check'], ['media-check']]) {
      const result = run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/admin.ts'), ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, NUXT_DATA_DIR: dataDir } })
      await expect(result, args.join(' ')).rejects.toMatchObject({ code: 1, stderr: `admin: No site in ${dataDir} (app.sqlite is missing): set NUXT_DATA_DIR, or NUXT_DATABASE_URL for PostgreSQL\n` })
    }
    expect(existsSync(dataDir)).toBe(false)
  })

  it('fails for an unknown e-mail and for bad usage', async () => {
    await expect(admin('grant', `nobody_${suffix()}@e2e.test`)).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('No account with the e-mail') })
    await expect(admin('promote', 'x@e2e.test')).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/^admin: no command "promote"\nUsage: npm run admin/) })
    await expect(admin('grant', '--fix')).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/^admin: grant takes an e-mail, not "--fix"\nUsage: npm run admin/) })
  })
})
