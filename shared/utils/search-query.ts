import { slugify } from './tags'

/**
 * The search language (docs/behaviour.md, "Search"), parsed into a tree that the
 * server turns into SQL and the search box reads for suggestions. Pure: no I/O,
 * the same on both sides.
 *
 *   query   := or
 *   or      := and (("OR" | "||") and)*
 *   and     := unary ([","] unary)*          terms side by side (or after a comma) are ANDed
 *   unary   := ("-" | "NOT") unary | primary
 *   primary := "(" or ")" | '"' phrase '"' | field ":" value | tag slug
 *
 * Keywords are case-insensitive. A bare word is a tag slug; `"a phrase"` and
 * `text:word` (`text:wor*` a prefix) match descriptions; the other fields compare
 * counts, the age, the date, the uploader, the type, the rating or the caller's
 * relation to an upload. Errors carry the position (0-based, in characters) and
 * what was expected there.
 */

/**
 * `text` caps the full-text terms (phrases and `text:`): each is one lookup in the
 * full-text index, so a query of many is refused rather than run slow.
 */
export const SEARCH_LIMITS = { length: 500, terms: 30, depth: 5, text: 5 } as const

/**
 * `expected` of the 400 `Query too complex` that refuses a search past the
 * server's time budget: the whole query is too broad, not a place in it.
 */
export const NARROWER_QUERY = 'a narrower query'

/** Fields the site may not offer yet: `rating:` and `is:fav` (left out: then a field or value not supported). */
export interface SearchOptions { rating?: boolean, favourites?: boolean }

export type Comparison = '=' | '>' | '>=' | '<' | '<='

/** A number field's test: one comparison, or an inclusive range `a..b`. */
export type NumberTest = { op: Comparison, value: number } | { op: 'range', from: number, to: number }

/** A time test on created_at, as a half-open interval of ISO instants (either end open). */
export interface TimeTest { from: string | null, to: string | null }

export type SearchNode
  = | { kind: 'and', children: SearchNode[] }
    | { kind: 'or', children: SearchNode[] }
    | { kind: 'not', child: SearchNode }
    | { kind: 'tag', slug: string }
  /** Whole words of the description, in order; `prefix`: the last word is a prefix. */
    | { kind: 'text', words: string[], prefix: boolean }
    | { kind: 'count', field: CountField, test: NumberTest }
    | { kind: 'time', field: 'age' | 'date', test: TimeTest }
    | { kind: 'user', username: string }
    | { kind: 'type', value: 'image' | 'link' }
    | { kind: 'rating', value: 'safe' | 'suggestive' | 'explicit' }
    | { kind: 'is', value: 'voted' | 'unvoted' | 'mine' | 'fav' }

/** Fields that compare a number: the two counts, their sum, their difference, the ratio of fucks, the tag count. */
export type CountField = 'fucks' | 'nope' | 'votes' | 'score' | 'ratio' | 'tags'

export const SEARCH_FIELDS = ['fucks', 'nope', 'votes', 'score', 'ratio', 'tags', 'age', 'date', 'user', 'type', 'rating', 'is', 'text'] as const

export class SearchQueryError extends Error {
  constructor(
    /** `invalid`: 400 `Invalid query` with position and expected; `complex`: 400 `Query too complex`. */
    readonly reason: 'invalid' | 'complex',
    readonly position: number,
    readonly expected: string,
  ) {
    super(reason === 'invalid' ? 'Invalid query' : 'Query too complex')
  }
}

interface Token {
  type: 'word' | 'phrase' | '(' | ')' | ',' | 'or' | 'not' | '-'
  text: string
  position: number
}

/** Characters that end a word. */
const BREAK = /[\s(),"]/u

function tokenize(q: string): Token[] {
  const tokens: Token[] = []
  const chars = [...q]
  let i = 0
  while (i < chars.length) {
    const c = chars[i]!
    if (/\s/u.test(c)) {
      i++
      continue
    }
    if (c === '(' || c === ')' || c === ',') {
      tokens.push({ type: c, text: c, position: i })
      i++
      continue
    }
    if (c === '|' && chars[i + 1] === '|') {
      tokens.push({ type: 'or', text: '||', position: i })
      i += 2
      continue
    }
    if (c === '"') {
      const end = chars.indexOf('"', i + 1)
      if (end < 0) throw new SearchQueryError('invalid', chars.length, 'a closing "')
      tokens.push({ type: 'phrase', text: chars.slice(i + 1, end).join(''), position: i })
      i = end + 1
      continue
    }
    // A minus opens a negation where a term starts; inside a word it is part of it.
    if (c === '-' && (i === 0 || /[\s(,]/u.test(chars[i - 1]!))) {
      tokens.push({ type: '-', text: '-', position: i })
      i++
      continue
    }
    const start = i
    while (i < chars.length && !BREAK.test(chars[i]!) && !(chars[i] === '|' && chars[i + 1] === '|')) i++
    const text = chars.slice(start, i).join('')
    const upper = text.toUpperCase()
    tokens.push({ type: upper === 'OR' ? 'or' : upper === 'NOT' ? 'not' : 'word', text, position: start })
  }
  return tokens
}

/** A tag slug as the tag rule makes it: letters, digits and single hyphens, 2 to 50 characters. */
const SLUG = /^[\p{L}\p{N}-]{2,50}$/u
const NUMBER = /^-?\d+(\.\d+)?$/
const DURATION = /^(\d{1,6})([hdwmy])$/
const DURATION_SECONDS = { h: 3600, d: 86_400, w: 7 * 86_400, m: 30 * 86_400, y: 365 * 86_400 } as const
const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/
const TEXT_WORD = /^[\p{L}\p{N}]+$/u

/** Parses `q` into a tree; throws SearchQueryError. `now` fixes the clock for `age:`. */
export function parseSearchQuery(q: string, now: Date = new Date(), options: SearchOptions = {}): SearchNode {
  const rating = options.rating ?? true
  const favourites = options.favourites ?? true
  if ([...q].length > SEARCH_LIMITS.length) throw new SearchQueryError('complex', SEARCH_LIMITS.length, `at most ${SEARCH_LIMITS.length} characters`)
  const tokens = tokenize(q)
  const end = [...q].length
  let at = 0
  let terms = 0
  let textTerms = 0
  const peek = () => tokens[at]
  const fail = (expected: string): never => {
    throw new SearchQueryError('invalid', peek()?.position ?? end, expected)
  }

  function or(depth: number): SearchNode {
    const children = [and(depth)]
    while (peek()?.type === 'or') {
      at++
      children.push(and(depth))
    }
    return children.length === 1 ? children[0]! : { kind: 'or', children }
  }

  function and(depth: number): SearchNode {
    const children = [unary(depth)]
    for (;;) {
      const next = peek()
      if (next === undefined || next.type === ')' || next.type === 'or') break
      if (next.type === ',') {
        at++
        if (peek() === undefined || peek()!.type === ')' || peek()!.type === 'or' || peek()!.type === ',') fail('a term')
      }
      children.push(unary(depth))
    }
    return children.length === 1 ? children[0]! : { kind: 'and', children }
  }

  function unary(depth: number): SearchNode {
    const token = peek()
    if (token?.type === '-' || token?.type === 'not') {
      at++
      if (depth + 1 > SEARCH_LIMITS.depth) throw new SearchQueryError('complex', token.position, `nesting of at most ${SEARCH_LIMITS.depth}`)
      return { kind: 'not', child: unary(depth + 1) }
    }
    return primary(depth)
  }

  function primary(depth: number): SearchNode {
    const token = peek()
    if (token === undefined) return fail('a term')
    if (token.type === '(') {
      if (depth + 1 > SEARCH_LIMITS.depth) throw new SearchQueryError('complex', token.position, `nesting of at most ${SEARCH_LIMITS.depth}`)
      at++
      const inner = or(depth + 1)
      if (peek()?.type !== ')') fail('")"')
      at++
      return inner
    }
    if (token.type === 'phrase') {
      at++
      countTerm(token)
      countText(token)
      const words = textWords(token.text)
      if (words.length === 0) throw new SearchQueryError('invalid', token.position + 1, 'a word between the quotes')
      return { kind: 'text', words, prefix: false }
    }
    if (token.type !== 'word') return fail('a term')
    at++
    countTerm(token)
    const colon = token.text.indexOf(':')
    if (colon < 0) return tag(token)
    return field(token, token.text.slice(0, colon).toLowerCase(), token.text.slice(colon + 1))
  }

  function countTerm(token: Token) {
    if (++terms > SEARCH_LIMITS.terms) throw new SearchQueryError('complex', token.position, `at most ${SEARCH_LIMITS.terms} terms`)
  }

  function countText(token: Token) {
    if (++textTerms > SEARCH_LIMITS.text) throw new SearchQueryError('complex', token.position, `at most ${SEARCH_LIMITS.text} text terms`)
  }

  function tag(token: Token): SearchNode {
    const slug = slugify(token.text)
    if (!SLUG.test(slug)) throw new SearchQueryError('invalid', token.position, 'a tag (2 to 50 letters, digits and hyphens) or a field')
    return { kind: 'tag', slug }
  }

  function field(token: Token, name: string, raw: string): SearchNode {
    const valueAt = token.position + name.length + 1
    const bad = (expected: string, offset = 0): never => {
      throw new SearchQueryError('invalid', valueAt + offset, expected)
    }
    switch (name) {
      case 'text': {
        const prefix = raw.endsWith('*')
        const word = prefix ? raw.slice(0, -1) : raw
        if (!TEXT_WORD.test(word)) return bad('a word of letters and digits, optionally ending in *')
        countText(token)
        return { kind: 'text', words: [word.toLowerCase()], prefix }
      }
      case 'fucks': case 'nope': case 'votes': case 'score': case 'ratio': case 'tags':
        return { kind: 'count', field: name, test: numberTest(raw, name, bad) }
      case 'age': case 'date':
        return { kind: 'time', field: name, test: name === 'age' ? ageTest(raw, now, bad) : dateTest(raw, bad) }
      case 'user':
        if (!/^[A-Za-z0-9_-]{3,30}$/.test(raw)) return bad('a username')
        return { kind: 'user', username: raw }
      case 'type': {
        const value = raw.toLowerCase()
        if (value !== 'image' && value !== 'link') return bad('image or link')
        return { kind: 'type', value }
      }
      case 'rating': {
        if (!rating) break
        const value = raw.toLowerCase()
        if (value !== 'safe' && value !== 'suggestive' && value !== 'explicit') return bad('safe, suggestive or explicit')
        return { kind: 'rating', value }
      }
      case 'is': {
        const value = raw.toLowerCase()
        if (value !== 'voted' && value !== 'unvoted' && value !== 'mine' && (value !== 'fav' || !favourites)) return bad(favourites ? 'voted, unvoted, mine or fav' : 'voted, unvoted or mine')
        return { kind: 'is', value }
      }
    }
    const fields = SEARCH_FIELDS.filter(f => rating || f !== 'rating')
    // A field's name with an s too many or too few (`tag:`, `vote:`) is most likely that field.
    const near = fields.find(f => f === `${name}s` || `${f}s` === name)
    throw new SearchQueryError('invalid', token.position, near ? `${near}: (or another field: ${fields.join(', ')})` : `a field (${fields.join(', ')})`)
  }

  if (tokens.length === 0) fail('a term')
  const tree = or(0)
  if (at < tokens.length) fail(peek()!.type === ')' ? 'a term or the end of the query (this ")" opens nothing)' : 'an operator or the end of the query')
  return tree
}

/** The words of a phrase as full text matches them: letters and digits, lowercased. */
function textWords(phrase: string): string[] {
  return phrase.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)
}

/** `:`, `:>`, `:>=`, `:<`, `:<=` before a value, and the value. */
function comparison(raw: string): { op: Comparison, rest: string, width: number } {
  for (const op of ['>=', '<=', '>', '<'] as const) if (raw.startsWith(op)) return { op, rest: raw.slice(op.length), width: op.length }
  return { op: '=', rest: raw, width: 0 }
}

/** The largest count a query compares: the counts are 32-bit integers, and PostgreSQL refuses a larger parameter for one. */
const COUNT_LIMIT = 2_147_483_647

function numberTest(raw: string, field: CountField, bad: (expected: string, offset?: number) => never): NumberTest {
  const expected = field === 'ratio' ? 'a number from 0 to 1' : field === 'score' ? 'a whole number' : 'a whole number of 0 or more'
  const parse = (text: string, offset: number): number => {
    if (!NUMBER.test(text)) return bad(expected, offset)
    const value = Number(text)
    // Only a score may be negative, not even as -0.
    if (field !== 'score' && text.startsWith('-')) return bad(expected, offset)
    if (field !== 'ratio' && Math.abs(value) > COUNT_LIMIT) return bad(field === 'score' ? `a whole number from -${COUNT_LIMIT} to ${COUNT_LIMIT}` : `a whole number up to ${COUNT_LIMIT}`, offset)
    const fits = field === 'ratio' ? value >= 0 && value <= 1 : Number.isSafeInteger(value) && (field === 'score' || value >= 0)
    if (!fits) return bad(expected, offset)
    return value
  }
  const range = raw.indexOf('..')
  if (range >= 0) {
    const from = parse(raw.slice(0, range), 0)
    const to = parse(raw.slice(range + 2), range + 2)
    if (from > to) return bad('a range from low to high', 0)
    return { op: 'range', from, to }
  }
  const { op, rest, width } = comparison(raw)
  return { op, value: parse(rest, width) }
}

/** `age:<7d`: younger than seven days, so created after now − 7 days; `age:7d` is within the day around it. */
function ageTest(raw: string, now: Date, bad: (expected: string, offset?: number) => never): TimeTest {
  const { op, rest, width } = comparison(raw)
  const match = DURATION.exec(rest)
  if (!match) return bad('a duration such as 12h, 7d, 2w, 3m or 1y', width)
  const seconds = Number(match[1]) * DURATION_SECONDS[match[2] as keyof typeof DURATION_SECONDS]
  // No upload is older than 1970: an age reaching further back (up to 999,999 years, past
  // the dates JavaScript can hold) reaches back to then.
  const at = (s: number) => new Date(Math.max(0, now.getTime() - s * 1000)).toISOString()
  const unit = DURATION_SECONDS[match[2] as keyof typeof DURATION_SECONDS]
  switch (op) {
    case '<': return { from: at(seconds), to: null }
    case '<=': return { from: at(seconds + unit), to: null }
    case '>': return { from: null, to: at(seconds + unit) }
    case '>=': return { from: null, to: at(seconds) }
    default: return { from: at(seconds + unit), to: at(seconds) }
  }
}

/** `date:2026-01`: within January 2026 (UTC); with a comparison, before or after that span. */
function dateTest(raw: string, bad: (expected: string, offset?: number) => never): TimeTest {
  const { op, rest, width } = comparison(raw)
  const match = DATE.exec(rest)
  if (!match) return bad('a date such as 2026, 2026-01 or 2026-01-15', width)
  const [year, month, day] = [Number(match[1]), match[2] ? Number(match[2]) : null, match[3] ? Number(match[3]) : null]
  if (month !== null && (month < 1 || month > 12)) return bad('a month from 01 to 12', width + 5)
  const start = new Date(Date.UTC(year, (month ?? 1) - 1, day ?? 1))
  if (day !== null && start.getUTCDate() !== day) return bad('a day of that month', width + 8)
  const end = day !== null
    ? new Date(Date.UTC(year, month! - 1, day + 1))
    : month !== null ? new Date(Date.UTC(year, month, 1)) : new Date(Date.UTC(year + 1, 0, 1))
  const [from, to] = [start.toISOString(), end.toISOString()]
  switch (op) {
    case '<': return { from: null, to: from }
    case '<=': return { from: null, to }
    case '>': return { from: to, to: null }
    case '>=': return { from, to: null }
    default: return { from, to }
  }
}
