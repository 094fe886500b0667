import { describe, expect, it } from 'vitest'
import { parseSearchQuery, SearchQueryError } from '../../shared/utils/search-query'

const NOW = new Date('2026-11-28T12:00:00.000Z')
const parse = (q: string) => parseSearchQuery(q, NOW)

/** The error a query gives: reason, position and what was expected. */
function failure(q: string) {
  try {
    parse(q)
  }
  catch (error) {
    if (error instanceof SearchQueryError) return { reason: error.reason, message: error.message, position: error.position, expected: error.expected }
    throw error
  }
  throw new Error(`parsed: ${q}`)
}

describe('the search language', () => {
  it('reads words as tags, ANDed by spaces or commas, case-insensitive', () => {
    expect(parse('Red')).toEqual({ kind: 'tag', slug: 'red' })
    const and = { kind: 'and', children: [{ kind: 'tag', slug: 'red' }, { kind: 'tag', slug: 'green-car' }, { kind: 'tag', slug: 'blue' }] }
    expect(parse('red green-car blue')).toEqual(and)
    expect(parse('red, green-car,blue')).toEqual(and)
  })

  it('binds AND tighter than OR, and reads NOT, a minus and parentheses', () => {
    expect(parse('a1 b1 OR c1')).toEqual({ kind: 'or', children: [
      { kind: 'and', children: [{ kind: 'tag', slug: 'a1' }, { kind: 'tag', slug: 'b1' }] }, { kind: 'tag', slug: 'c1' }] })
    expect(parse('a1 || c1 or d1')).toEqual({ kind: 'or', children: [{ kind: 'tag', slug: 'a1' }, { kind: 'tag', slug: 'c1' }, { kind: 'tag', slug: 'd1' }] })
    expect(parse('-spam not nsfw')).toEqual({ kind: 'and', children: [
      { kind: 'not', child: { kind: 'tag', slug: 'spam' } }, { kind: 'not', child: { kind: 'tag', slug: 'nsfw' } }] })
    expect(parse('cat (red OR -blue)')).toEqual({ kind: 'and', children: [{ kind: 'tag', slug: 'cat' },
      { kind: 'or', children: [{ kind: 'tag', slug: 'red' }, { kind: 'not', child: { kind: 'tag', slug: 'blue' } }] }] })
    // A hyphen inside a word belongs to the tag.
    expect(parse('sci-fi')).toEqual({ kind: 'tag', slug: 'sci-fi' })
  })

  it('reads phrases and text: as full text, a trailing * as a prefix', () => {
    expect(parse('"Café au lait"')).toEqual({ kind: 'text', words: ['café', 'au', 'lait'], prefix: false })
    expect(parse('text:Wor*')).toEqual({ kind: 'text', words: ['wor'], prefix: true })
    expect(parse('text:word')).toEqual({ kind: 'text', words: ['word'], prefix: false })
  })

  it('reads number fields with comparisons and ranges', () => {
    expect(parse('fucks:10')).toEqual({ kind: 'count', field: 'fucks', test: { op: '=', value: 10 } })
    expect(parse('nope:>=3')).toEqual({ kind: 'count', field: 'nope', test: { op: '>=', value: 3 } })
    expect(parse('score:<-3')).toEqual({ kind: 'count', field: 'score', test: { op: '<', value: -3 } })
    expect(parse('ratio:0.25..0.75')).toEqual({ kind: 'count', field: 'ratio', test: { op: 'range', from: 0.25, to: 0.75 } })
    expect(parse('VOTES:>100 tags:<=2')).toEqual({ kind: 'and', children: [
      { kind: 'count', field: 'votes', test: { op: '>', value: 100 } }, { kind: 'count', field: 'tags', test: { op: '<=', value: 2 } }] })
  })

  it('reads age and date as spans of created_at', () => {
    expect(parse('age:<7d')).toEqual({ kind: 'time', field: 'age', test: { from: '2026-11-21T12:00:00.000Z', to: null } })
    expect(parse('age:>2w')).toEqual({ kind: 'time', field: 'age', test: { from: null, to: '2026-11-07T12:00:00.000Z' } })
    // Further back than 1970 (and than a JavaScript date reaches) is 1970: no upload is older.
    expect(parse('age:<999999y')).toEqual({ kind: 'time', field: 'age', test: { from: '1970-01-01T00:00:00.000Z', to: null } })
    expect(parse('age:>=300000y')).toEqual({ kind: 'time', field: 'age', test: { from: null, to: '1970-01-01T00:00:00.000Z' } })
    expect(parse('date:2026-01')).toEqual({ kind: 'time', field: 'date', test: { from: '2026-01-01T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z' } })
    expect(parse('date:>=2025')).toEqual({ kind: 'time', field: 'date', test: { from: '2025-01-01T00:00:00.000Z', to: null } })
    expect(parse('date:<=2024-02-29')).toEqual({ kind: 'time', field: 'date', test: { from: null, to: '2024-03-01T00:00:00.000Z' } })
  })

  it('reads the user, type, rating and is: fields', () => {
    expect(parse('user:Some_One type:link rating:explicit is:unvoted')).toEqual({ kind: 'and', children: [
      { kind: 'user', username: 'Some_One' }, { kind: 'type', value: 'link' }, { kind: 'rating', value: 'explicit' }, { kind: 'is', value: 'unvoted' }] })
    // Their values are keywords too: case does not matter.
    expect(parse('TYPE:Link RATING:SAFE Is:Fav')).toEqual({ kind: 'and', children: [
      { kind: 'type', value: 'link' }, { kind: 'rating', value: 'safe' }, { kind: 'is', value: 'fav' }] })
  })

  it('says where a query is wrong and what was expected there', () => {
    expect(failure('red (blue')).toEqual({ reason: 'invalid', message: 'Invalid query', position: 9, expected: '")"' })
    expect(failure('red )')).toMatchObject({ position: 4, expected: expect.stringContaining('opens nothing') })
    expect(failure('red OR')).toEqual({ reason: 'invalid', message: 'Invalid query', position: 6, expected: 'a term' })
    expect(failure('fucks:lots')).toEqual({ reason: 'invalid', message: 'Invalid query', position: 6, expected: 'a whole number of 0 or more' })
    expect(failure('ratio:>1.5')).toMatchObject({ position: 7, expected: 'a number from 0 to 1' })
    expect(failure('fucks:>=-0')).toMatchObject({ position: 8, expected: 'a whole number of 0 or more' })
    // The counts are 32-bit integers: PostgreSQL would refuse a larger parameter.
    expect(parse('fucks:2147483647')).toEqual({ kind: 'count', field: 'fucks', test: { op: '=', value: 2147483647 } })
    expect(failure('fucks:2147483648')).toMatchObject({ position: 6, expected: 'a whole number up to 2147483647' })
    expect(failure('votes:1..9007199254740991')).toMatchObject({ position: 9, expected: 'a whole number up to 2147483647' })
    expect(failure('score:<-2147483648')).toMatchObject({ position: 7, expected: 'a whole number from -2147483647 to 2147483647' })
    expect(failure('ratio:-0..1')).toMatchObject({ position: 6, expected: 'a number from 0 to 1' })
    expect(parse('score:-0')).toEqual({ kind: 'count', field: 'score', test: { op: '=', value: -0 } })
    expect(failure('colour:red')).toMatchObject({ position: 0, expected: expect.stringMatching(/^a field \(fucks, nope/) })
    expect(failure('"open')).toMatchObject({ position: 5, expected: 'a closing "' })
    expect(failure('date:2026-13')).toMatchObject({ position: 10, expected: 'a month from 01 to 12' })
    expect(failure('date:2025-02-29')).toMatchObject({ expected: 'a day of that month' })
    expect(failure('age:soon')).toMatchObject({ position: 4, expected: expect.stringContaining('duration') })
    expect(failure('is:cool')).toMatchObject({ position: 3, expected: 'voted, unvoted, mine or fav' })
    expect(failure('')).toMatchObject({ position: 0, expected: 'a term' })
    expect(failure('red,,blue')).toMatchObject({ position: 4, expected: 'a term' })
    expect(failure('a')).toMatchObject({ position: 0, expected: expect.stringContaining('a tag') })
  })

  it('refuses queries past the limits as too complex', () => {
    expect(failure('x'.repeat(501))).toMatchObject({ reason: 'complex', message: 'Query too complex' })
    expect(failure(Array.from({ length: 31 }, (_, i) => `t${i}`).join(' '))).toMatchObject({ reason: 'complex', expected: 'at most 30 terms' })
    expect(parse(Array.from({ length: 30 }, (_, i) => `t${i}`).join(' '))).toMatchObject({ kind: 'and' })
    expect(failure('((((((deep))))))')).toMatchObject({ reason: 'complex', expected: 'nesting of at most 5' })
    expect(parse('(((((deep)))))')).toEqual({ kind: 'tag', slug: 'deep' })
    expect(failure('- - - - - - deep')).toMatchObject({ reason: 'complex' })
  })
})

describe('the search language as this site offers it', () => {
  const offered = (q: string) => {
    try {
      return parseSearchQuery(q, NOW, { rating: false, favourites: false })
    }
    catch (error) {
      if (error instanceof SearchQueryError) return { reason: error.reason, position: error.position, expected: error.expected }
      throw error
    }
  }

  it('leaves out fields the site does not have, naming what it has', () => {
    expect(offered('red rating:safe')).toEqual({ reason: 'invalid', position: 4, expected: 'a field (fucks, nope, votes, score, ratio, tags, age, date, user, type, is, text)' })
    expect(offered('tag:cats')).toEqual({ reason: 'invalid', position: 0, expected: 'tags: (or another field: fucks, nope, votes, score, ratio, tags, age, date, user, type, is, text)' })
    expect(offered('red votess:>3')).toMatchObject({ position: 4, expected: expect.stringMatching(/^votes: \(or another field/) })
    expect(offered('is:fav')).toEqual({ reason: 'invalid', position: 3, expected: 'voted, unvoted or mine' })
    expect(offered('is:mine')).toEqual({ kind: 'is', value: 'mine' })
  })

  it('refuses more than 5 full-text terms as too complex', () => {
    expect(offered('"a b" text:c text:d* "e" text:f')).toMatchObject({ kind: 'and' })
    expect(offered('"a b" text:c text:d* "e" text:f "g"')).toEqual({ reason: 'complex', position: 32, expected: 'at most 5 text terms' })
  })
})
