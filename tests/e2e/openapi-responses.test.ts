import { describe, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { expectMatchesOpenApi } from '../support/openapi'
import { makeAdmin, seedUpload } from '../support/seed'

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
  it('lists, tags, votes and admin', async () => {
    const owner = await registerUser()
    const uploadId = seedUpload(owner, { tags: ['OpenAPI Check'] })
    await expectMatchesOpenApi('GET', '/api/uploads', await api('/api/uploads?limit=5'))
    await expectMatchesOpenApi('GET', '/api/uploads', await api('/api/uploads?page=0'))
    await expectMatchesOpenApi('GET', '/api/uploads/filtered', await api('/api/uploads/filtered?tags=openapi-check'))
    await expectMatchesOpenApi('GET', '/api/items-recent', await api('/api/items-recent'))
    await expectMatchesOpenApi('GET', '/api/items-top-voted', await api('/api/items-top-voted'))
    await expectMatchesOpenApi('GET', '/api/user/{username}/uploads', await api(`/api/user/${owner.username}/uploads?sort=votes`))
    await expectMatchesOpenApi('GET', '/api/user/{username}/uploads', await api('/api/user/no_such_user_here/uploads'))
    await expectMatchesOpenApi('GET', '/api/tags', await api('/api/tags?q=open'))
    await expectMatchesOpenApi('GET', '/api/uploads/{id}/tags', await api(`/api/uploads/${uploadId}/tags`))
    await expectMatchesOpenApi('POST', '/api/uploads/{id}/tags', await api(`/api/uploads/${uploadId}/tags`, { method: 'POST', token: owner.token, body: { tags: ['Second Tag'] } }))
    await expectMatchesOpenApi('POST', '/api/uploads/{id}/tags', await api(`/api/uploads/${uploadId}/tags`, { method: 'POST', token: owner.token, body: { tags: ['bad!'] } }))

    const voter = await registerUser()
    await expectMatchesOpenApi('POST', '/api/vote', await api('/api/vote', { method: 'POST', token: voter.token, body: { uploadId, vote: 'fucks' } }))
    await expectMatchesOpenApi('GET', '/api/vote', await api(`/api/vote?uploadId=${uploadId}`, { token: voter.token }))
    await expectMatchesOpenApi('GET', '/api/vote', await api('/api/vote', { token: voter.token }))
    await expectMatchesOpenApi('DELETE', '/api/vote', await api(`/api/vote?uploadId=${uploadId}`, { method: 'DELETE', token: voter.token }))
    const anonymous = { uploadId, vote: 'upvote', clientFingerprint: `fp-${voter.id}` }
    await expectMatchesOpenApi('POST', '/api/vote/anonymous', await api('/api/vote/anonymous', { method: 'POST', body: anonymous }))
    await expectMatchesOpenApi('POST', '/api/vote/anonymous', await api('/api/vote/anonymous', { method: 'POST', body: anonymous }))

    const admin = makeAdmin(await registerUser())
    await expectMatchesOpenApi('GET', '/api/admin/users', await api('/api/admin/users?q=user_', { token: admin.token }))
    await expectMatchesOpenApi('POST', '/api/admin/users/{id}/shadow-ban', await api(`/api/admin/users/${voter.id}/shadow-ban`, { method: 'POST', token: admin.token, body: { shadowBanned: true } }))
    await expectMatchesOpenApi('GET', '/api/admin/users', await api('/api/admin/users', { token: voter.token }))
  })
})
