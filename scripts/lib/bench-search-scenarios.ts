/**
 * The search language's rows of the benchmarks: each query over HTTP
 * (`GET /api/search?q=`) and the same work through the search service (parse,
 * aliases, the matching list). The one-tag query is measured beside
 * `/api/uploads/filtered?tags=` for the same tag (bench-scenarios.ts), which
 * it must stay within 1.5× of; the others must stay under 5 ms at the median
 * and flat from 100,000 to 1,000,000 uploads (docs/performance.md).
 */
import { parseSearch, searchUploads } from '../../server/services/search'
import { paging, viewOf, type Scenario } from './bench-scenarios'

/** The seed's tag `tag N` as a search term (its slug). */
const tag = (index: number) => `tag-${index}`

const QUERIES: { name: string, q: string }[] = [
  { name: 'one tag', q: tag(5) },
  { name: 'a -b', q: `${tag(5)} -${tag(0)}` },
  { name: 'a b', q: `${tag(0)} ${tag(1)}` },
  { name: 'a OR b', q: `${tag(1)} OR ${tag(2)}` },
  { name: '(a OR b) c', q: `(${tag(1)} OR ${tag(2)}) ${tag(0)}` },
  { name: 'votes:>=10 a', q: `votes:>=10 ${tag(5)}` },
  // Every seeded description has the word: the match is the whole site, newest first.
  { name: 'text: a word every upload has', q: 'text:seeded' },
  // One seeded description has the number.
  { name: 'text: a rare word', q: 'text:4242' },
]

export const searchScenarios: Scenario[] = QUERIES.map(({ name, q }): Scenario => ({
  name: `GET /api/search (${name})`,
  method: 'GET',
  path: `/api/search?q=${encodeURIComponent(q)}`,
  read: true,
  // Without a budget: the cost of matching, where the server refuses a query past its budget.
  baseline: (db, url) => searchUploads(db, parseSearch(url.searchParams.get('q') ?? ''), paging(url), viewOf(url), null, Number.POSITIVE_INFINITY),
}))
