import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { AuthResponseSchema, GeneratedTokenSchema, MfaRequiredSchema, MfaSetupSchema, MfaStateSchema, ProfileSchema, TokenListSchema } from '#shared/schemas/auth'
import { api, registerUser } from '../support/api'
import { enableMfa } from '../support/accounts'

describe('OpenAPI: account endpoints', () => {
  it('describes every account endpoint with its security scheme', async () => {
    const { body: doc } = await api('/api/openapi.json')
    const security = (path: string, method: string) => doc.paths[path]?.[method]?.security?.flatMap((s: object) => Object.keys(s))
    expect(security('/api/auth', 'post')).toEqual([])
    expect(security('/api/auth/forgot-password', 'post')).toEqual([])
    expect(security('/api/auth/reset-password', 'post')).toEqual([])
    expect(security('/api/auth/verify-email', 'post')).toEqual([])
    expect(security('/api/auth/verify-email/resend', 'post')).toEqual(['cookie'])
    expect(Object.keys(doc.paths['/api/auth/verify-email/resend'].post.responses).sort()).toEqual(['200', '400', '401', '403', '409', '415', '429'])
    for (const path of ['/api/auth/logout', '/api/auth/mfa/setup', '/api/auth/mfa/verify', '/api/auth/mfa/disable', '/api/auth/change-password']) {
      expect(security(path, 'post'), path).toEqual(['cookie'])
    }
    expect(security('/api/profile', 'get')).toEqual(['cookie'])
    expect(security('/api/auth/tokens/generate', 'post')).toEqual(['jwt', 'cookie'])
    expect(security('/api/auth/tokens', 'get')).toEqual(['jwt', 'cookie'])
    expect(security('/api/auth/tokens/{id}', 'delete')).toEqual(['jwt', 'cookie'])
    expect(doc.paths['/api/auth/tokens/{id}'].delete.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true })
    expect(Object.keys(doc.paths['/api/auth'].post.responses).sort()).toEqual(['200', '201', '400', '401', '403', '409', '413', '415', '429'])
  })

  it('real answers match the response schemas the document is built from', async () => {
    const user = await registerUser()
    const login = await api('/api/auth', { method: 'POST', body: { action: 'login', email: user.email, password: user.password } })
    expect(v.safeParse(AuthResponseSchema, login.body).success).toBe(true)
    expect(v.safeParse(ProfileSchema, (await api('/api/profile', { token: user.token })).body).success).toBe(true)
    const generated = await api('/api/auth/tokens/generate', { method: 'POST', bearer: user.token, body: { name: 'doc' } })
    expect(v.safeParse(GeneratedTokenSchema, generated.body).success).toBe(true)
    expect(v.safeParse(TokenListSchema, (await api('/api/auth/tokens', { bearer: user.token })).body).success).toBe(true)
    const setup = await api('/api/auth/mfa/setup', { method: 'POST', token: user.token })
    expect(v.safeParse(MfaSetupSchema, setup.body).success).toBe(true)
    const mfa = await enableMfa(await registerUser())
    const step = await api('/api/auth', { method: 'POST', body: { action: 'login', email: mfa.email, password: mfa.password } })
    expect(v.safeParse(MfaRequiredSchema, step.body).success).toBe(true)
    const off = await api('/api/auth/mfa/disable', { method: 'POST', token: mfa.token, body: { password: mfa.password, mfaCode: mfa.backupCodes[0] } })
    expect(v.safeParse(MfaStateSchema, off.body).success).toBe(true)
  })
})
