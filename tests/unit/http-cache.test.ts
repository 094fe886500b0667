import { describe, expect, it } from 'vitest'
import { CACHE_POLICIES, etagOf, routeCachePolicy } from '../../server/utils/http-cache'

describe('cache policies', () => {
  it.each([
    ['/api/uploads', 'public, max-age=120'],
    ['/api/uploads/filtered', 'public, max-age=120'],
    ['/api/items-recent', 'public, max-age=300'],
    ['/api/items-top-voted', 'public, max-age=300'],
    ['/api/profile', 'private, max-age=30'],
    ['/api/auth/tokens', 'private, no-store'],
    ['/api/vote', 'private, no-store'],
    ['/api/admin/users', 'private, no-store'],
    ['/api/upload/7a0a5a0e-0000-4000-8000-000000000000', 'no-cache'],
    ['/api/openapi.json', 'no-cache'],
  ])('%s → %s', (path, value) => {
    expect(CACHE_POLICIES[routeCachePolicy(path)]).toBe(value)
  })

  it('makes strong, content-derived ETags', () => {
    expect(etagOf('{"a":1}')).toBe(etagOf('{"a":1}'))
    expect(etagOf('{"a":1}')).not.toBe(etagOf('{"a":2}'))
    expect(etagOf('x')).toMatch(/^"[\w-]+"$/)
  })
})
