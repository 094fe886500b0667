import { describe, expect, it } from 'vitest'
import { rateLimitCategory } from '../../server/utils/rate-limit'

describe('rate-limit categories', () => {
  it.each([
    ['POST', '/api/auth', 'auth'],
    ['POST', '/api/auth/forgot-password', 'auth'],
    ['POST', '/api/auth/reset-password', 'auth'],
    ['POST', '/api/auth/reset-password/check', 'auth'],
    ['POST', '/api/auth/change-password', 'auth'],
    ['POST', '/api/auth/mfa/verify', 'auth'],
    ['POST', '/api/auth/mfa/disable', 'auth'],
    ['POST', '/api/auth/mfa/setup', 'general'],
    ['POST', '/api/auth/logout', 'general'],
    ['POST', '/api/auth/passkeys/login/options', 'auth'],
    ['POST', '/api/auth/passkeys/login/verify', 'auth'],
    ['POST', '/api/auth/passkeys/register/options', 'general'],
    ['POST', '/api/auth/passkeys/register/verify', 'general'],
    ['GET', '/api/auth/sessions', 'general'],
    ['POST', '/api/upload', 'upload'],
    ['POST', '/api/v1/upload', 'upload'],
    ['POST', '/api/vote', 'vote'],
    ['DELETE', '/api/vote?uploadId=x', 'vote'],
    ['GET', '/api/vote?uploadId=x', 'general'],
    ['POST', '/api/vote/anonymous', 'anonVote'],
    ['PUT', '/api/upload/0b6f3c1e-5d2a-4f7e-9a61-2c8d4e5f6a7b/favourite', 'vote'],
    ['DELETE', '/api/upload/0b6f3c1e-5d2a-4f7e-9a61-2c8d4e5f6a7b/favourite', 'vote'],
    ['GET', '/api/profile/favourites', 'general'],
    ['POST', '/api/upload/0b6f3c1e-5d2a-4f7e-9a61-2c8d4e5f6a7b/comments', 'comment'],
    ['GET', '/api/upload/0b6f3c1e-5d2a-4f7e-9a61-2c8d4e5f6a7b/comments', 'general'],
    ['PATCH', '/api/comments/0b6f3c1e-5d2a-4f7e-9a61-2c8d4e5f6a7b', 'comment'],
    ['DELETE', '/api/comments/0b6f3c1e-5d2a-4f7e-9a61-2c8d4e5f6a7b', 'general'],
    ['PUT', '/api/comments/0b6f3c1e-5d2a-4f7e-9a61-2c8d4e5f6a7b/vote', 'general'],
    ['POST', '/api/comments/preview', 'general'],
    ['GET', '/api/uploads', 'general'],
    ['POST', '/api/upload/0b6f3c1e-5d2a-4f7e-9a61-2c8d4e5f6a7b/report', 'general'],
    ['DELETE', '/api/profile', 'auth'],
    ['GET', '/api/profile', 'general'],
    ['POST', '/api/auth/verify-email', 'auth'],
    ['POST', '/api/auth/verify-email/resend', 'auth'],
    ['GET', '/api/image/abc', null],
    ['GET', '/api/health', null],
    ['GET', '/', null],
    ['GET', '/_nuxt/app.js', null],
  ])('%s %s → %s', (method, path, category) => {
    expect(rateLimitCategory(method, path)).toBe(category)
  })

  it('counts a duel\'s judgement in VOTE with a session cookie, ANON_VOTE without', () => {
    expect(rateLimitCategory('POST', '/api/duel', () => true)).toBe('vote')
    expect(rateLimitCategory('POST', '/api/duel', () => false)).toBe('anonVote')
    expect(rateLimitCategory('GET', '/api/duel/next', () => true)).toBe('general')
  })
})
