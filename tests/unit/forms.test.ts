import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { MfaCodeBodySchema } from '../../shared/schemas/auth'
import { fieldError, safeRedirect } from '../../composables/useForm'
import { plainMessage } from '../../composables/useFormat'

describe('the page a sign-in returns to', () => {
  it('keeps a path on this site, with its query and fragment', () => {
    expect(safeRedirect('/settings')).toBe('/settings')
    expect(safeRedirect('/upload/new?mode=link#tags')).toBe('/upload/new?mode=link#tags')
    expect(safeRedirect(['/my-uploads', '/settings'])).toBe('/my-uploads')
  })

  it('sends anything that could leave the site to /', () => {
    for (const target of ['//evil.example', '/\\evil.example', '/\\/evil.example', '\\\\evil.example', '/\t/evil.example', '/\n/evil.example', 'https://evil.example/', 'javascript:alert(1)', 'settings', '', undefined, null, 42, []]) {
      expect(safeRedirect(target), String(target)).toBe('/')
    }
    expect(safeRedirect('//evil.example', '/settings')).toBe('/settings')
  })
})

describe('the words of an error message', () => {
  it('says "two-step verification" where the API says MFA', () => {
    expect(plainMessage('MFA code required')).toBe('Enter your two-step verification code')
    expect(plainMessage('MFA code is required')).toBe('Enter your two-step verification code')
    expect(plainMessage('Invalid MFA code')).toBe('Invalid two-step verification code')
    expect(plainMessage('MFA is already enabled')).toBe('Two-step verification is already on')
    expect(plainMessage('MFA is not enabled')).toBe('Two-step verification is not on')
    expect(plainMessage('MFA setup has not been started')).toBe('Start setting up two-step verification first')
    expect(plainMessage('MFA is something new')).toBe('Two-step verification is something new')
    expect(plainMessage('Invalid email or password')).toBe('Invalid email or password')
    expect(fieldError(v.pipe(v.string(), v.nonEmpty('MFA code is required')), '')).toBe('Enter your two-step verification code')
    expect(fieldError(MfaCodeBodySchema, { mfaCode: '' })).toBe('Enter your two-step verification code')
  })
})
