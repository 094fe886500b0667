import { describe, expect, it } from 'vitest'
import { DatabaseUnavailableError, failureText } from '../../server/database/port'

describe('a failure said in one line', () => {
  it('adds the driver\'s words to an unavailable database, which say where and why', () => {
    expect(failureText(new DatabaseUnavailableError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }))))
      .toBe('The database is unavailable (connect ECONNREFUSED 127.0.0.1:1)')
    // A host with two addresses refuses on both: Node says so as an AggregateError without a message.
    const both = new AggregateError([new Error('connect ECONNREFUSED ::1:1'), new Error('connect ECONNREFUSED 127.0.0.1:1')], '')
    expect(failureText(new DatabaseUnavailableError(both))).toBe('The database is unavailable (connect ECONNREFUSED ::1:1; connect ECONNREFUSED 127.0.0.1:1)')
    expect(failureText(new DatabaseUnavailableError(Object.assign(new Error(''), { code: 'ETIMEDOUT' })))).toBe('The database is unavailable (ETIMEDOUT)')
  })

  it('is the message alone otherwise', () => {
    expect(failureText(new DatabaseUnavailableError('not an error'))).toBe('The database is unavailable')
    expect(failureText(new Error('secrets.json is not valid JSON'))).toBe('secrets.json is not valid JSON')
    expect(failureText('plain words')).toBe('plain words')
  })
})
