import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { api, registerUser } from '../support/api'
import { randomImage, uploadForm } from '../support/images'
import { expectMatchesOpenApi, openApi } from '../support/openapi'
import { makeAdmin, seedUpload } from '../support/seed'
import { ROOT } from '../support/server'
import { createApiToken, postUpload, uploadImage } from '../support/uploads'

/** Every `METHOD /path/{param}` the app routes, from the handler files under server/api (Nitro's file routing). */
function routedOperations(): string[] {
  const apiDir = join(ROOT, 'server/api')
  const files = readdirSync(apiDir, { recursive: true, withFileTypes: true }).filter(entry => entry.isFile() && entry.name.endsWith('.ts'))
  return files.flatMap((file) => {
    const match = relative(apiDir, join(file.parentPath, file.name)).match(/^(.*?)(?:\.(get|post|put|patch|delete))?\.ts$/)!
    const [, route, method] = match
    if (route!.includes('[...')) return [] // the catch-all 404
    const path = `/api/${route}`.replace(/\/index$/, '').replace(/\[(\w+)\]/g, '{$1}')
    return (method ? [method] : ['get', 'post', 'put', 'patch', 'delete']).map(m => `${m.toUpperCase()} ${path}`)
  }).sort()
}

describe('the OpenAPI document is complete', () => {
  it('describes every route the app answers, and no route it does not', async () => {
    const { document } = await openApi()
    const documented = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map(method => `${method.toUpperCase()} ${path}`)).sort()
    const routed = routedOperations()
    expect(routed.length).toBeGreaterThan(30)
    expect(documented.filter(operation => operation.includes(' /api/'))).toEqual(routed)
    // Outside /api only the feeds are described (server/routes/feeds).
    expect(documented.filter(operation => !operation.includes(' /api/'))).toEqual(['recent', 'top', 'search', 'tag/{slug}', 'user/{username}', 'user/{username}/favourites', 'upload/{id}/comments']
      .flatMap(feed => [`GET /feeds/${feed}.atom`, `GET /feeds/${feed}.json`]).sort())
  })

  it('gives each endpoint the credentials of the spec\'s Auth column', async () => {
    const { document } = await openApi()
    const security = (method: string, path: string) => (document.paths[path]![method] as unknown as { security: object[] }).security
      .map(alternative => Object.keys(alternative)[0] ?? 'none')
    const expected: [string, string, string[]][] = [
      ['post', '/api/auth', []], ['post', '/api/auth/forgot-password', []], ['post', '/api/auth/reset-password', []],
      ['post', '/api/auth/tokens/generate', ['jwt', 'cookie']], ['get', '/api/auth/tokens', ['jwt', 'cookie']], ['delete', '/api/auth/tokens/{id}', ['jwt', 'cookie']],
      ['post', '/api/auth/mfa/setup', ['cookie']], ['post', '/api/auth/mfa/verify', ['cookie']], ['post', '/api/auth/change-password', ['cookie']],
      ['post', '/api/upload', ['cookie']], ['post', '/api/v1/upload', ['apiToken']],
      ['get', '/api/upload/{id}', ['none', 'cookie']], ['patch', '/api/upload/{id}/privacy', ['cookie']],
      ['get', '/api/uploads', ['none', 'cookie']], ['get', '/api/uploads/filtered', ['none', 'cookie']], ['get', '/api/items-recent', ['none', 'cookie']], ['get', '/api/items-top-voted', ['none', 'cookie']],
      ['get', '/api/user/{username}/uploads', ['none', 'cookie']], ['get', '/api/uploads/{id}/tags', ['none', 'cookie']], ['post', '/api/uploads/{id}/tags', ['cookie']],
      ['post', '/api/vote', ['cookie']], ['get', '/api/vote', ['cookie']], ['post', '/api/vote/anonymous', []], ['get', '/api/profile', ['cookie']],
    ]
    for (const [method, path, schemes] of expected) expect(security(method, path), `${method} ${path}`).toEqual(schemes)
  })
})

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
    const uploadId = await seedUpload(owner, { tags: ['OpenAPI Check'] })
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

    const admin = await makeAdmin(await registerUser())
    await expectMatchesOpenApi('GET', '/api/admin/users', await api('/api/admin/users?q=user_', { token: admin.token }))
    await expectMatchesOpenApi('POST', '/api/admin/users/{id}/shadow-ban', await api(`/api/admin/users/${voter.id}/shadow-ban`, { method: 'POST', token: admin.token, body: { shadowBanned: true } }))
    await expectMatchesOpenApi('GET', '/api/admin/users', await api('/api/admin/users', { token: voter.token }))
  })

  it('rankings, the next upload to vote on and hidden tags', async () => {
    const user = await registerUser()
    await seedUpload(user, { tags: ['OpenAPI Ranked'], upvotes: 3, downvotes: 1 })
    for (const query of ['sort=hot', 'sort=best&period=week', 'sort=divisive&period=year', 'sort=top', 'sort=nope', 'period=never']) {
      await expectMatchesOpenApi('GET', '/api/uploads', await api(`/api/uploads?${query}`))
      await expectMatchesOpenApi('GET', '/api/uploads/filtered', await api(`/api/uploads/filtered?tags=openapi-ranked&${query}`))
    }
    await expectMatchesOpenApi('GET', '/api/uploads', await api('/api/uploads?unvoted=true'))
    await expectMatchesOpenApi('GET', '/api/uploads/filtered', await api('/api/uploads/filtered?unvoted=true', { token: user.token }))
    await expectMatchesOpenApi('GET', '/api/vote/next', await api('/api/vote/next', { token: user.token }))
    await expectMatchesOpenApi('GET', '/api/vote/next', await api(`/api/vote/next?clientFingerprint=fp-${user.id}`))
    await expectMatchesOpenApi('GET', '/api/vote/next', await api('/api/vote/next'))
    const voted = await seedUpload(user)
    await api('/api/vote', { method: 'POST', token: user.token, body: { uploadId: voted, vote: 'fucks' } })
    await expectMatchesOpenApi('GET', '/api/vote/mine', await api(`/api/vote/mine?uploadIds=${voted}`, { token: user.token }))
    await expectMatchesOpenApi('GET', '/api/vote/mine', await api('/api/vote/mine?uploadIds=nope', { token: user.token }))
    await expectMatchesOpenApi('GET', '/api/vote/mine', await api(`/api/vote/mine?uploadIds=${voted}`))
    await expectMatchesOpenApi('PUT', '/api/profile/filters', await api('/api/profile/filters', { method: 'PUT', token: user.token, body: { hiddenTags: ['openapi-ranked'] } }))
    await expectMatchesOpenApi('PUT', '/api/profile/filters', await api('/api/profile/filters', { method: 'PUT', token: user.token, body: { hiddenTags: ['Bad Slug'] } }))
    await expectMatchesOpenApi('GET', '/api/profile/filters', await api('/api/profile/filters', { token: user.token }))
    await expectMatchesOpenApi('GET', '/api/profile/filters', await api('/api/profile/filters'))
    await expectMatchesOpenApi('GET', '/api/items-recent', await api('/api/items-recent', { token: user.token }))
  })

  it('uploads, images, privacy and delete', async () => {
    const owner = await registerUser()
    const other = await registerUser()
    const linkFields = { upload_type: 'link', description: 'OpenAPI link', external_url: 'https://example.com/openapi' }
    const link = await postUpload(owner, { ...linkFields, tags: 'Doc Check' })
    await expectMatchesOpenApi('POST', '/api/upload', link)
    const data = await randomImage('png')
    const image = await postUpload(owner, { upload_type: 'image', description: 'OpenAPI image', is_private: 'true' }, { data, name: 'doc.png', type: 'image/png' })
    await expectMatchesOpenApi('POST', '/api/upload', image)
    await expectMatchesOpenApi('POST', '/api/upload', await postUpload(owner, { upload_type: 'image', description: 'Again' }, { data, name: 'again.png', type: 'image/png' }))
    await expectMatchesOpenApi('POST', '/api/upload', await postUpload(owner, { upload_type: 'link', description: '' }))
    await expectMatchesOpenApi('POST', '/api/upload', await postUpload(null, linkFields))

    const apiToken = await createApiToken(owner.id)
    await expectMatchesOpenApi('POST', '/api/v1/upload', await api('/api/v1/upload', { method: 'POST', bearer: apiToken.token, body: uploadForm(linkFields) }))
    await expectMatchesOpenApi('POST', '/api/v1/upload', await api('/api/v1/upload', { method: 'POST', bearer: apiToken.token, body: uploadForm({ ...linkFields, upload_type: 'image_url', image_url: 'https://example.com/a.png' }) }))
    await expectMatchesOpenApi('POST', '/api/v1/upload', await api('/api/v1/upload', { method: 'POST', body: uploadForm(linkFields) }))

    const publicId = link.body.upload.id as string
    const privateId = image.body.upload.id as string
    await expectMatchesOpenApi('GET', '/api/upload/{id}', await api(`/api/upload/${publicId}`))
    await expectMatchesOpenApi('GET', '/api/upload/{id}', await api(`/api/upload/${privateId}`, { token: owner.token }))
    await expectMatchesOpenApi('GET', '/api/upload/{id}', await api(`/api/upload/${privateId}`))
    const fetched = await api(`/api/upload/${publicId}`)
    await expectMatchesOpenApi('GET', '/api/upload/{id}', await api(`/api/upload/${publicId}`, { headers: { 'if-none-match': fetched.headers.get('etag')! } }))

    await expectMatchesOpenApi('GET', '/api/image/{id}', await api(`/api/image/${privateId}`))
    await expectMatchesOpenApi('GET', '/api/image/{id}', await api(`/api/image/${privateId}?size=thumb`))
    await expectMatchesOpenApi('GET', '/api/image/{id}', await api(`/api/image/${privateId}?size=huge`))
    await expectMatchesOpenApi('GET', '/api/image/{id}', await api(`/api/image/${publicId}`))

    await expectMatchesOpenApi('PATCH', '/api/upload/{id}/privacy', await api(`/api/upload/${privateId}/privacy`, { method: 'PATCH', token: owner.token }))
    await expectMatchesOpenApi('PATCH', '/api/upload/{id}/privacy', await api(`/api/upload/${privateId}/privacy`, { method: 'PATCH', token: other.token }))
    await expectMatchesOpenApi('PATCH', '/api/upload/{id}/privacy', await api(`/api/upload/${privateId}/privacy`, { method: 'PATCH' }))

    await expectMatchesOpenApi('DELETE', '/api/upload/{id}', await api(`/api/upload/${publicId}`, { method: 'DELETE', token: other.token }))
    await expectMatchesOpenApi('DELETE', '/api/upload/{id}', await api(`/api/upload/${publicId}`, { method: 'DELETE', token: owner.token }))
    await expectMatchesOpenApi('DELETE', '/api/upload/{id}', await api(`/api/upload/${publicId}`, { method: 'DELETE' }))
  })

  it('comments', async () => {
    const [owner, admin] = await Promise.all([registerUser(), registerUser()])
    await makeAdmin(admin)
    const uploadId = await seedUpload(owner)
    const posted = await api(`/api/upload/${uploadId}/comments`, { method: 'POST', token: owner.token, body: { body: 'Does it *fuck*?' } })
    await expectMatchesOpenApi('POST', '/api/upload/{id}/comments', posted)
    const id = posted.body.comment.id as string
    const reply = await api(`/api/upload/${uploadId}/comments`, { method: 'POST', token: admin.token, body: { body: 'yes', parentId: id } })
    await expectMatchesOpenApi('POST', '/api/upload/{id}/comments', reply)
    await expectMatchesOpenApi('POST', '/api/upload/{id}/comments', await api(`/api/upload/${uploadId}/comments`, { method: 'POST', token: owner.token, body: { body: '' } }))
    await expectMatchesOpenApi('PUT', '/api/comments/{id}/vote', await api(`/api/comments/${id}/vote`, { method: 'PUT', token: admin.token, body: { vote: 'up' } }))
    await expectMatchesOpenApi('PATCH', '/api/comments/{id}', await api(`/api/comments/${id}`, { method: 'PATCH', token: owner.token, body: { body: 'edited' } }))
    await expectMatchesOpenApi('PATCH', '/api/comments/{id}', await api(`/api/comments/${id}`, { method: 'PATCH', token: admin.token, body: { body: 'not mine' } }))
    await expectMatchesOpenApi('GET', '/api/upload/{id}/comments', await api(`/api/upload/${uploadId}/comments`, { token: admin.token }))
    await expectMatchesOpenApi('GET', '/api/upload/{id}/comments', await api(`/api/upload/${uploadId}/comments?sort=nope`))
    await expectMatchesOpenApi('POST', '/api/comments/preview', await api('/api/comments/preview', { method: 'POST', token: owner.token, body: { body: '**b**' } }))
    await expectMatchesOpenApi('DELETE', '/api/comments/{id}', await api(`/api/comments/${id}`, { method: 'DELETE', token: owner.token }))
    await expectMatchesOpenApi('DELETE', '/api/comments/{id}', await api(`/api/comments/${id}`, { method: 'DELETE', token: owner.token }))
    await expectMatchesOpenApi('GET', '/api/upload/{id}', await api(`/api/upload/${uploadId}`))
  })

  it('error answers of every kind', async () => {
    const user = await registerUser()
    const { id } = await uploadImage(user)
    const big = JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) })
    await expectMatchesOpenApi('POST', '/api/auth/forgot-password', await api('/api/auth/forgot-password', { method: 'POST', body: big, headers: { 'content-type': 'application/json' } }))
    await expectMatchesOpenApi('POST', '/api/auth', await api('/api/auth', { method: 'POST', body: '[1,2', headers: { 'content-type': 'application/json' } }))
    await expectMatchesOpenApi('POST', '/api/auth', await api('/api/auth', { method: 'POST', body: { action: 'register', email: 'bad', username: 'x', password: 'short' } }))
    await expectMatchesOpenApi('POST', '/api/vote', await api('/api/vote', { method: 'POST', token: user.token, body: { uploadId: id, vote: 'maybe' } }))
    await expectMatchesOpenApi('POST', '/api/vote', await api('/api/vote', { method: 'POST', body: { uploadId: id, vote: 'fucks' } }))
    await expectMatchesOpenApi('POST', '/api/uploads/{id}/tags', await api(`/api/uploads/${id}/tags`, { method: 'POST', token: (await registerUser()).token, body: { tags: ['Not Mine'] } }))
    await expectMatchesOpenApi('GET', '/api/uploads', await api('/api/uploads?limit=0'))
    await expectMatchesOpenApi('GET', '/api/user/{username}/uploads', await api(`/api/user/${user.username}/uploads?sort=random`))
    await expectMatchesOpenApi('GET', '/api/profile', await api('/api/profile', { token: 'not-a-jwt' }))
    await expectMatchesOpenApi('POST', '/api/vote/anonymous', await api('/api/vote/anonymous', { method: 'POST', body: { uploadId: id, vote: 'upvote', clientFingerprint: 'short' } }))
    const tokens = await api('/api/auth/tokens', { bearer: user.token })
    await expectMatchesOpenApi('GET', '/api/auth/tokens', await api('/api/auth/tokens', { bearer: user.token, headers: { 'if-none-match': tokens.headers.get('etag')! } }))
  })
})
