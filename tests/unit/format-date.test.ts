import { describe, expect, it } from 'vitest'
import { formatDate, formatDateTime } from '../../composables/useFormat'

describe('the date a card shows', () => {
  it('is the UTC day, the same for every time of that day', () => {
    expect(formatDate('2026-11-26T00:00:00.000Z')).toBe('26 Nov 2026')
    expect(formatDate('2026-11-26T23:59:59.999Z')).toBe('26 Nov 2026')
    expect(formatDate('2026-11-27T00:00:00.000Z')).toBe('27 Nov 2026')
    expect(formatDate('2026-11-26T23:30:00.000-02:00')).toBe('27 Nov 2026')
    expect(formatDate('1969-12-31T23:59:59.000Z')).toBe('31 Dec 1969')
    expect(formatDate('1970-01-01T00:00:00.000Z')).toBe('1 Jan 1970')
  })

  it('is empty for no date or one that does not parse', () => {
    expect(formatDate(null)).toBe('')
    expect(formatDate(undefined)).toBe('')
    expect(formatDate('')).toBe('')
    expect(formatDate('yesterday')).toBe('')
  })

  it('stays right past the thousand days it keeps', () => {
    const start = Date.UTC(2020, 0, 1)
    for (let day = 0; day < 1500; day++) formatDate(new Date(start + day * 86_400_000).toISOString())
    expect(formatDate('2020-01-01T12:00:00.000Z')).toBe('1 Jan 2020')
    expect(formatDate('2024-02-09T12:00:00.000Z')).toBe('9 Feb 2024')
  })
})

describe('the moment a session shows', () => {
  it('is the UTC minute, said to be UTC, the same on the server and in any browser', () => {
    expect(formatDateTime('2026-12-01T16:05:59.000Z')).toBe('1 Dec 2026, 16:05 UTC')
    expect(formatDateTime('2026-12-01T23:30:00.000-02:00')).toBe('2 Dec 2026, 01:30 UTC')
    expect(formatDateTime(null)).toBe('')
    expect(formatDateTime('soon')).toBe('')
  })
})
