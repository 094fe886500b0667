import { describe, expect, it } from 'vitest'
import { tryAgainIn } from '../../composables/useApi'
import { formatWait } from '../../composables/useFormat'

describe('the wait a rate-limit message shows', () => {
  it.each([
    [1, '1 second'],
    [12, '12 seconds'],
    [59, '59 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [720, '12 minutes'],
    [899, '15 minutes'],
    [3600, '1 hour'],
    [3601, '2 hours'],
  ])('%i s → %s', (seconds, text) => {
    expect(formatWait(seconds)).toBe(text)
  })

  it('reads Retry-After in seconds or as a date, and says less without one', () => {
    expect(tryAgainIn('720')).toBe('Please try again in 12 minutes.')
    expect(tryAgainIn(new Date(Date.now() + 90_000).toUTCString())).toMatch(/^Please try again in (1|2) minutes?\.$/)
    expect(tryAgainIn(null)).toBe('Please wait a moment and try again.')
    expect(tryAgainIn('soon')).toBe('Please wait a moment and try again.')
  })
})
