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

  it('is what en-GB\'s formatter writes for every day of four years, leap day and "Sept" included', () => {
    const intl = new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' })
    const start = Date.UTC(2024, 0, 1, 13, 7)
    for (let day = 0; day < 4 * 366; day++) {
      const time = start + day * 86_400_000
      expect(formatDate(new Date(time).toISOString())).toBe(intl.format(time))
    }
    expect(formatDate('2024-02-29T12:00:00.000Z')).toBe('29 Feb 2024')
    expect(formatDate('2026-09-04T12:00:00.000Z')).toBe('4 Sept 2026')
  })
})

describe('the moment a session shows', () => {
  it('is the UTC minute, said to be UTC, the same on the server and in any browser', () => {
    expect(formatDateTime('2026-12-01T16:05:59.000Z')).toBe('1 Dec 2026, 16:05 UTC')
    expect(formatDateTime('2026-12-01T23:30:00.000-02:00')).toBe('2 Dec 2026, 01:30 UTC')
    expect(formatDateTime('2027-01-09T00:00:00.000Z')).toBe('9 Jan 2027, 00:00 UTC')
    const intl = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })
    for (let hour = 0; hour < 24 * 40; hour += 7) {
      const time = Date.UTC(2026, 7, 20, hour, hour % 60)
      expect(formatDateTime(new Date(time).toISOString())).toBe(`${intl.format(time)} UTC`)
    }
    expect(formatDateTime(null)).toBe('')
    expect(formatDateTime('soon')).toBe('')
  })
})
