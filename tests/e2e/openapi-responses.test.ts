import { describe, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { expectMatchesOpenApi } from '../support/openapi'

/** Real answers of the running server validate against the OpenAPI document it serves. */
describe('responses match the OpenAPI document', () => {
  it('accounts', async () => {
    const suffix = Math.random().toString(36).slice(2, 10)
    const register = await api('/api/auth', { method: 'POST', body: { action: 'register', email: `oa_${suffix}@e2e.test`, username: `oa_${suffix}`, password: 'correct horse battery' } })
    await expectMatchesOpenApi('POST', '/api/auth', register)
    const login = await api('/api/auth', { method: 'POST', body: { action: 'login', email: `oa_${suffix}@e2e.test`, password: 'correct horse battery' } })
    await expectMatchesOpenApi('POST', '/api/auth', login)
    const wrong = await api('/api/auth', { method: 'POST', body: { action: 'login', email: `oa_${suffix}@e2e.test`, password: 'wrong password' } })
    await expectMatchesOpenApi('POST', '/api/auth', wrong)
    const conflict = await api('/api/auth', { method: 'POST', body: { action: 'register', email: `oa_${suffix}@e2e.test`, username: `oa2_${suffix}`, password: 'correct horse battery' } })
    await expectMatchesOpenApi('POST', '/api/auth', conflict)

    const token = login.body.token as string
    await expectMatchesOpenApi('GET', '/api/profile', await api('/api/profile', { token }))
    await expectMatchesOpenApi('GET', '/api/profile', await api('/api/profile'))
    const generated = await api('/api/auth/tokens/generate', { method: 'POST', bearer: token, body: { name: 'openapi check' } })
    await expectMatchesOpenApi('POST', '/api/auth/tokens/generate', generated)
    await expectMatchesOpenApi('GET', '/api/auth/tokens', await api('/api/auth/tokens', { bearer: token }))
    await expectMatchesOpenApi('DELETE', '/api/auth/tokens/{id}', await api(`/api/auth/tokens/${generated.body.id}`, { method: 'DELETE', bearer: token }))
    await expectMatchesOpenApi('POST', '/api/auth/mfa/setup', await api('/api/auth/mfa/setup', { method: 'POST', token }))
    await expectMatchesOpenApi('POST', '/api/auth/forgot-password', await api('/api/auth/forgot-password', { method: 'POST', body: { email: `oa_${suffix}@e2e.test` } }))
    await expectMatchesOpenApi('POST', '/api/auth/logout', await api('/api/auth/logout', { method: 'POST', token }))
  })

  it('OAuth helpers', async () => {
    const user = await registerUser()
    await expectMatchesOpenApi('GET', '/api/auth/providers', await api('/api/auth/providers'))
    await expectMatchesOpenApi('GET', '/api/auth/oauth-accounts', await api('/api/auth/oauth-accounts', { token: user.token }))
  })
})
