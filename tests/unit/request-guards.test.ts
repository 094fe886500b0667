import { describe, expect, it } from 'vitest'
import { isJsonType } from '../../server/utils/request-guards'

describe('the Content-Type a JSON endpoint reads', () => {
  it.each([
    'application/json',
    'Application/JSON',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'application/json; charset="utf-8"',
    'application/json; charset=utf8',
    'application/json; foo=bar',
  ])('takes %j', (type) => {
    expect(isJsonType(type)).toBe(true)
  })

  // The body is read as UTF-8: another charset is a 415 like another type, never read as UTF-8 anyway.
  it.each([
    'application/json; charset=latin1',
    'application/json; charset=iso-8859-1',
    'application/json; charset=utf-16',
    'application/json; charset=',
    'text/plain',
    'application/jsonx',
  ])('refuses %j', (type) => {
    expect(isJsonType(type)).toBe(false)
  })
})
