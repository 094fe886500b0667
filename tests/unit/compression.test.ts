import { describe, expect, it } from 'vitest'
import { etagMatches, isCompressibleType, negotiateEncoding, variantEtag } from '../../server/utils/compression'

describe('Accept-Encoding negotiation', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1.0, br;q=0.5', 'gzip'],
    ['gzip;q=0.5, br;q=0.9', 'br'],
    ['*', 'br'],
    ['*;q=0', null],
    ['gzip;q=0, *', 'br'],
    ['identity', null],
    ['deflate', null],
    ['', null],
    [undefined, null],
  ])('%s → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected)
  })
})

describe('per-encoding ETags', () => {
  it('suffixes the variant inside the quotes and knows every form for the same content', () => {
    expect(variantEtag('"abc-_1"', 'br')).toBe('"abc-_1-br"')
    expect(variantEtag('"abc-_1"', 'gzip')).toBe('"abc-_1-gzip"')
    expect(etagMatches('"abc-_1"', '"abc-_1"')).toBe(true)
    expect(etagMatches(' W/"abc-_1" ', '"abc-_1"')).toBe(true)
    expect(etagMatches('"abc-_1-br"', '"abc-_1"')).toBe(true)
    expect(etagMatches('W/"abc-_1-gzip"', '"abc-_1"')).toBe(true)
    expect(etagMatches('"abc-_1-zstd"', '"abc-_1"')).toBe(false)
    expect(etagMatches('"abc"', '"abc-_1"')).toBe(false)
    expect(etagMatches('"abc-_1-br"', '"abc-_2"')).toBe(false)
  })
})

describe('compressible types', () => {
  it.each([
    ['text/html;charset=utf-8', true],
    ['application/json', true],
    ['application/feed+json', true],
    ['application/atom+xml; charset=utf-8', true],
    ['text/css', true],
    ['text/javascript', true],
    ['application/javascript', true],
    ['image/svg+xml', true],
    ['image/png', false],
    ['image/webp', false],
    ['application/octet-stream', false],
    [undefined, false],
  ])('%s → %s', (type, expected) => {
    expect(isCompressibleType(type)).toBe(expected)
  })
})
