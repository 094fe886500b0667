import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { api, registerUser, type TestUser } from '../support/api'
import { enableMfa, totpCode } from '../support/accounts'
import { databaseOf, serverDatabase } from '../support/seed'
import { restartableDatabase } from '../support/postgres'
import { startServer } from '../support/server'
import { sql } from '../../server/database/sql'

const run = promisify(execFile)
const login = (user: TestUser, mfaCode?: string) =>
  api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: user.password, ...(mfaCode === undefined ? {} : { mfaCode }) } })

describe('POST /api/auth/mfa/setup', () => {
  it('answers a PNG QR code of otpauthUrl, the secret and 10 hex backup codes', async () => {
    const user = await registerUser()
    const response = await api('/api/auth/mfa/setup', { method: 'POST', token: user.token })
    expect(response.status).toBe(200)
    const { qrCode, secret, otpauthUrl, backupCodes } = response.body
    expect(Object.keys(response.body).sort()).toEqual(['backupCodes', 'otpauthUrl', 'qrCode', 'secret'])
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    const url = new URL(otpauthUrl)
    expect(url.protocol).toBe('otpauth:')
    expect(url.host).toBe('totp')
    expect(decodeURIComponent(url.pathname)).toBe(`/Does It Fuck?:${user.email}`)
    expect(Object.fromEntries(url.searchParams)).toEqual({ issuer: 'Does It Fuck?', secret, algorithm: 'SHA1', digits: '6', period: '30' })
    expect(backupCodes).toHaveLength(10)
    for (const code of backupCodes) expect(code).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}$/)
    expect(new Set(backupCodes).size).toBe(10)

    expect(qrCode).toMatch(/^data:image\/png;base64,/)
    const png = join(mkdtempSync(join(tmpdir(), 'dif-qr-')), 'qr.png')
    writeFileSync(png, Buffer.from(qrCode.slice('data:image/png;base64,'.length), 'base64'))
    const { stdout } = await run('zbarimg', ['--raw', '-q', png])
    expect(stdout.trim()).toBe(otpauthUrl)
  })

  it('does not turn MFA on before verify, and a second setup replaces the secret', async () => {
    const user = await registerUser()
    const first = await api('/api/auth/mfa/setup', { method: 'POST', token: user.token })
    const second = await api('/api/auth/mfa/setup', { method: 'POST', token: user.token })
    expect(second.body.secret).not.toBe(first.body.secret)
    expect((await api('/api/profile', { token: user.token })).body.user.mfaEnabled).toBe(false)
    expect((await login(user)).body.mfaRequired).toBe(false)
    const stale = await api('/api/auth/mfa/verify', { method: 'POST', token: user.token, body: { mfaCode: totpCode(first.body.secret) } })
    expect(stale.status).toBe(400)
  })

  it('keeps the secret encrypted in the database, never as the base32 value', async () => {
    const user = await registerUser()
    const { body } = await api('/api/auth/mfa/setup', { method: 'POST', token: user.token })
    const row = await serverDatabase().db.get<{ mfa_secret: string }>(sql`SELECT mfa_secret FROM users WHERE id = ${user.id}`)
    expect(row!.mfa_secret).toMatch(/^v1:[\w-]+$/)
    expect(row!.mfa_secret).not.toContain(body.secret)
    const verify = await api('/api/auth/mfa/verify', { method: 'POST', token: user.token, body: { mfaCode: totpCode(body.secret) } })
    expect(verify.status).toBe(200)
  })

  it('answers 401 without a session and 409 when MFA is already on', async () => {
    expect((await api('/api/auth/mfa/setup', { method: 'POST' })).status).toBe(401)
    const user = await enableMfa(await registerUser())
    const response = await api('/api/auth/mfa/setup', { method: 'POST', token: user.token })
    expect(response.status).toBe(409)
    expect(response.body).toEqual({ statusCode: 409, statusMessage: 'Conflict', message: 'MFA is already enabled' })
  })
})

describe('POST /api/auth/mfa/verify', () => {
  it('turns MFA on with a code from oathtool (an independent TOTP implementation)', async () => {
    const user = await registerUser()
    const setup = await api('/api/auth/mfa/setup', { method: 'POST', token: user.token })
    const now = Date.now()
    const { stdout } = await run('oathtool', ['--totp', '-b', '--now', new Date(now).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'), setup.body.secret])
    expect(stdout.trim()).toBe(totpCode(setup.body.secret, now))
    const response = await api('/api/auth/mfa/verify', { method: 'POST', token: user.token, body: { mfaCode: stdout.trim() } })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true, mfaEnabled: true })
    expect((await api('/api/profile', { token: user.token })).body.user.mfaEnabled).toBe(true)
  })

  it('answers 400 Invalid MFA code for a wrong code, and 400 for a missing one', async () => {
    const user = await registerUser()
    await api('/api/auth/mfa/setup', { method: 'POST', token: user.token })
    const wrong = await api('/api/auth/mfa/verify', { method: 'POST', token: user.token, body: { mfaCode: '000000' } })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid MFA code' })
    const missing = await api('/api/auth/mfa/verify', { method: 'POST', token: user.token, body: { mfaCode: '' } })
    expect(missing.status).toBe(400)
    expect(missing.body.message).toBe('MFA code is required')
  })

  it('does not accept a backup code to turn MFA on', async () => {
    const user = await registerUser()
    const setup = await api('/api/auth/mfa/setup', { method: 'POST', token: user.token })
    const response = await api('/api/auth/mfa/verify', { method: 'POST', token: user.token, body: { mfaCode: setup.body.backupCodes[0] } })
    expect(response.status).toBe(400)
    expect(response.body.message).toBe('Invalid MFA code')
  })

  it('answers 400 before setup, 409 when already on, 401 without a session', async () => {
    const user = await registerUser()
    const early = await api('/api/auth/mfa/verify', { method: 'POST', token: user.token, body: { mfaCode: '123456' } })
    expect(early.status).toBe(400)
    expect(early.body.message).toBe('MFA setup has not been started')
    const on = await enableMfa(user)
    const again = await api('/api/auth/mfa/verify', { method: 'POST', token: on.token, body: { mfaCode: totpCode(on.secret, on.verifiedAt + 30_000) } })
    expect(again.status).toBe(409)
    expect((await api('/api/auth/mfa/verify', { method: 'POST', body: { mfaCode: '123456' } })).status).toBe(401)
  })
})

describe('login with MFA', () => {
  it('answers { mfaRequired: true } without a code: no token, no cookie', async () => {
    const user = await enableMfa(await registerUser())
    for (const response of [await login(user), await login(user, '')]) {
      expect(response.status).toBe(200)
      expect(response.body).toEqual({ mfaRequired: true })
      expect(response.headers.get('set-cookie')).toBeNull()
    }
  })

  it('logs in with the next TOTP code, and rejects its replay and older codes', async () => {
    const user = await enableMfa(await registerUser())
    // The verify step used the code of `verifiedAt`: it cannot log in again.
    const replayedVerify = await login(user, totpCode(user.secret, user.verifiedAt))
    expect(replayedVerify.status).toBe(401)
    expect(replayedVerify.body).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Invalid MFA code' })

    const code = totpCode(user.secret, user.verifiedAt + 30_000)
    const ok = await login(user, code)
    expect(ok.status).toBe(200)
    expect(ok.body).toEqual({ user: { id: user.id, username: user.username, email: user.email }, token: expect.any(String), mfaRequired: false })
    expect(ok.headers.get('set-cookie')).toContain('auth-token=')

    const replay = await login(user, code)
    expect(replay.status).toBe(401)
    expect(replay.body.message).toBe('Invalid MFA code')
  })

  it('answers 401 Invalid MFA code for a wrong code', async () => {
    const user = await enableMfa(await registerUser())
    for (const code of ['000000', '12345', 'ZZZZ-ZZZZ-ZZZZ-ZZZZ', '0123-4567-89AB-CDEF']) {
      const response = await login(user, code)
      expect(response.status).toBe(401)
      expect(response.body.message).toBe('Invalid MFA code')
    }
  })

  it('answers Invalid email or password for a wrong password even with a valid code', async () => {
    const user = await enableMfa(await registerUser())
    const response = await api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: 'wrong password', mfaCode: user.backupCodes[0] } })
    expect(response.status).toBe(401)
    expect(response.body.message).toBe('Invalid email or password')
    // The code was not used up by the failed attempt.
    expect((await login(user, user.backupCodes[0])).status).toBe(200)
  })

  it('accepts each backup code once, in any case and without dashes', async () => {
    const user = await enableMfa(await registerUser())
    const first = await login(user, user.backupCodes[0])
    expect(first.status).toBe(200)
    expect(first.body.token).toEqual(expect.any(String))
    const reuse = await login(user, user.backupCodes[0])
    expect(reuse.status).toBe(401)
    expect(reuse.body.message).toBe('Invalid MFA code')
    const relaxed = await login(user, user.backupCodes[1]!.replace(/-/g, '').toLowerCase())
    expect(relaxed.status).toBe(200)
  })
})

describe('POST /api/auth/mfa/disable', () => {
  it('turns MFA off with the password and a code; login needs no code afterwards', async () => {
    const user = await enableMfa(await registerUser())
    const response = await api('/api/auth/mfa/disable', { method: 'POST', token: user.token, body: { password: user.password, mfaCode: user.backupCodes[2] } })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true, mfaEnabled: false })
    expect((await api('/api/profile', { token: user.token })).body.user.mfaEnabled).toBe(false)
    const plain = await login(user)
    expect(plain.body.mfaRequired).toBe(false)
    expect(plain.body.token).toEqual(expect.any(String))
  })

  it('answers 400 for a wrong password, a wrong code, or MFA that is off', async () => {
    const user = await enableMfa(await registerUser())
    const password = await api('/api/auth/mfa/disable', { method: 'POST', token: user.token, body: { password: 'wrong password', mfaCode: user.backupCodes[0] } })
    expect(password.status).toBe(400)
    expect(password.body.message).toBe('Password is incorrect')
    const code = await api('/api/auth/mfa/disable', { method: 'POST', token: user.token, body: { password: user.password, mfaCode: '000000' } })
    expect(code.status).toBe(400)
    expect(code.body.message).toBe('Invalid MFA code')
    const missing = await api('/api/auth/mfa/disable', { method: 'POST', token: user.token, body: { password: user.password } })
    expect(missing.status).toBe(400)
    expect((await api('/api/profile', { token: user.token })).body.user.mfaEnabled).toBe(true)

    const plain = await registerUser()
    const off = await api('/api/auth/mfa/disable', { method: 'POST', token: plain.token, body: { password: plain.password, mfaCode: '123456' } })
    expect(off.status).toBe(400)
    expect(off.body.message).toBe('MFA is not enabled')
  })

  it('answers 401 without a session', async () => {
    const response = await api('/api/auth/mfa/disable', { method: 'POST', body: { password: 'x', mfaCode: '123456' } })
    expect(response.status).toBe(401)
  })
})

describe('TOTP secrets stored before encryption at rest', () => {
  it('are encrypted at the next start and still sign in, never printed', async () => {
    const databaseUrl = await restartableDatabase()
    let server = await startServer({}, { databaseUrl })
    const dataDir = server.dataDir
    try {
      const user = await enableMfa(await registerUser({}, server.url), server.url)
      await server.stop({ keepData: true })
      // As an older version stored it: the base32 secret itself.
      await databaseOf(server).db.run(sql`UPDATE users SET mfa_secret = ${user.secret} WHERE id = ${user.id}`)
      server = await startServer({}, { dataDir, databaseUrl })
      expect(server.output()).toContain('[start] encrypted 1 TOTP secret(s) stored before encryption at rest')
      expect(server.output()).not.toContain(user.secret)
      const row = await databaseOf(server).db.get<{ mfa_secret: string }>(sql`SELECT mfa_secret FROM users WHERE id = ${user.id}`)
      expect(row!.mfa_secret).toMatch(/^v1:/)
      const login = await api('/api/auth', { method: 'POST', baseURL: server.url,
        body: { action: 'login', email: user.email, password: user.password, mfaCode: totpCode(user.secret, user.verifiedAt + 30_000) } })
      expect(login.status).toBe(200)
    }
    finally {
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
