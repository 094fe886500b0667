import { describe, expect, it } from 'vitest'
import { settingOn, variableOf } from '../../server/utils/settings'

describe('settings', () => {
  it('names a setting by the variable Nitro reads it from', () => {
    expect(variableOf('trustProxy')).toBe('NUXT_TRUST_PROXY')
    expect(variableOf('rateLimit.anonVote.windowSeconds')).toBe('NUXT_RATE_LIMIT_ANON_VOTE_WINDOW_SECONDS')
    expect(variableOf('public.siteUrl')).toBe('NUXT_PUBLIC_SITE_URL')
    expect(variableOf('s3.forcePathStyle')).toBe('NUXT_S3_FORCE_PATH_STYLE')
  })

  it('reads an on/off setting as on only for true or 1, as Nitro hands it over or as text', () => {
    for (const on of [true, 'true', 'TRUE', 1, '1', ' true ']) expect(settingOn(on), String(on)).toBe(true)
    for (const off of [false, 'false', 'False', 0, '0', 'no', 'yes', '', undefined, null]) expect(settingOn(off), String(off)).toBe(false)
  })
})
