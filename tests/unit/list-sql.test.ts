import { existsSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Database } from '../../server/database/port'
import { render, sql, type Dialect, type RenderedQuery } from '../../server/database/sql'
import { featureList, listFilteredUploads, listMatchingUploads, listUploads, listUserUploads, nextToVote, PUBLIC_VIEW, type ListView } from '../../server/services/lists'
import { onOneTag, parseSearch, searchUploads } from '../../server/services/search'

// The SQL of every list, per engine, as files beside this one (tests/unit/list-sql/<engine>/):
// a change to a list's statements shows as a diff there. `npx vitest run --project unit
// tests/unit/list-sql.test.ts -u` rewrites them. The lists run against a stand-in for the
// database that records each statement and answers the lookups a list reads to choose its
// way (tag sizes, a pair's count, the recent days' uploads, the account), so every way is
// rendered for both engines without a database; tests/e2e runs the same statements for real.

const NOW = new Date('2026-11-28T12:00:00.000Z')
const DAY_MS = 24 * 3600 * 1000
const since = (days: number) => new Date(NOW.getTime() - days * DAY_MS).toISOString()
const SNAPSHOTS = fileURLToPath(new URL('./list-sql', import.meta.url))

/** What the stand-in answers to a list's lookups. */
interface Answers {
  /** Public uploads by tag slug (tags.public_uploads); a slug left out has no tag. */
  tags?: Record<string, number>
  /** A pair's kept count (tag_pairs). */
  pair?: number
  /** A kept triple's count (tag_triples); left out, the triple is not kept. */
  triple?: number
  /** Public uploads of the newest days (upload_days). */
  recent?: number
  /** A word's kept count (search_words) and the public uploads of all months (upload_months). */
  word?: { found: number, all: number }
}

/**
 * Statements that are not the list's own: the lookup of aliases among the
 * slugs. A page read from links' copies tests for pending ones in its own
 * statement, so copying them (none pending here) would show as a statement
 * of its own; a tag's page looks its alias up in its own statement too.
 */
const UPKEEP = /^SELECT a\.slug AS alias, /

/** A database that records what a list asks of it and answers only its lookups (the rest: no rows). */
function recorder(dialect: Dialect, answers: Answers) {
  const statements: RenderedQuery[] = []
  let daysRead = 0
  const answer = (query: RenderedQuery): unknown[] => {
    const { text, values } = query
    if (text.startsWith('SELECT n.slug, t.public_uploads FROM (SELECT slug, tag_id FROM tag_aliases')) {
      const asked: string[] = dialect === 'sqlite' ? JSON.parse(values[0] as string) : values[0] as string[]
      return asked.filter(slug => answers.tags?.[slug] !== undefined).map(slug => ({ slug, public_uploads: answers.tags![slug] }))
    }
    if (text.startsWith('SELECT public_uploads FROM tag_triples')) return answers.triple === undefined ? [] : [{ public_uploads: answers.triple }]
    // A page whose total reads a triple: its total is null while the triple is not kept.
    if (/^SELECT c\.total,[^]*FROM tag_triples/.test(text)) return [{ total: answers.triple === undefined ? null : 2 * (answers.pair ?? 0) - answers.triple, id: null }]
    if (text.includes('FROM tag_pairs')) return [{ total: answers.pair ?? 0 }]
    if (text.includes('FROM upload_days ORDER BY day DESC')) return [{ n: answers.recent ?? 0 }]
    if (text.includes(' AS words,')) return [{ words: 1, found: answers.word?.found ?? 0, all: answers.word?.all ?? 0 }]
    const head = /^SELECT u\.rowid AS rid, (.+?) FROM uploads u\s+WHERE u\.is_private = 0 AND u\.created_day = \?[^<]*LIMIT (\d+)$/s.exec(text)
    if (head) {
      // SQLite's first read of a period's day: as many rows as asked, each day's below the
      // day before's, so the merge reads on from the days above its bound.
      const day = daysRead++
      return Array.from({ length: Number(head[2]) }, (_, i) => Object.fromEntries(['rid', ...head[1]!.split(', ').map(column => column.slice(2))]
        .map(column => [column, 10_000 - day * 10 - i])))
    }
    // A user's whole public list: the account's row, with no upload on the page.
    if (text.includes(' AS owner_public_uploads,')) return [{ owner_id: 'user-1', owner_username: 'alice', owner_created_at: '2026-01-01T00:00:00.000Z', owner_public_uploads: 3, id: null }]
    if (text.includes('FROM users WHERE lower(username)')) return [{ id: 'user-1', username: 'alice', created_at: '2026-01-01T00:00:00.000Z', public_uploads: 3 }]
    return []
  }
  const all = async <T>(query: Parameters<Database['all']>[0]): Promise<T[]> => {
    const rendered = render(query, dialect)
    if (!UPKEEP.test(rendered.text)) statements.push(rendered)
    return answer(rendered) as T[]
  }
  const refused = () => Promise.reject(new Error('a list only reads'))
  const db: Database = {
    dialect,
    all,
    get: async <T>(query: Parameters<Database['get']>[0]) => (await all<T>(query))[0],
    run: refused,
    exec: refused,
    transaction: refused,
    lock: refused,
    dataVersion: async () => null, // nothing kept: every call runs its SQL
    ping: async () => {},
    close: async () => {},
  }
  return { db, statements }
}

/** A bound value as the file shows it (long arrays shortened: the statement is what is reviewed). */
function shown(value: unknown): string {
  const list = Array.isArray(value) ? value : typeof value === 'string' && value.startsWith('[') ? JSON.parse(value) as unknown[] : null
  if (list && list.length > 6) return `${JSON.stringify(list.slice(0, 2)).slice(0, -1)}, … ${list.length} values …, ${JSON.stringify(list.at(-1))}]`
  return JSON.stringify(value)
}

/** One statement as a file: what runs it, the SQL (trailing blanks cut), its values. */
function statementFile(title: string, statement: RenderedQuery, runs: number): string {
  const notes = [`-- ${title}`]
  if (runs > 1) notes.push(`-- run ${runs} times (values of the first)`)
  if (statement.replanned) notes.push('-- replanned: PostgreSQL plans it for its values on every run')
  const text = statement.text.split('\n').map(line => line.trimEnd()).join('\n')
  const values = statement.values.map((value, i) => `-- ${i + 1}: ${shown(value)}`)
  return `${[...notes, text, ...values].join('\n')}\n`
}

const VIEW: ListView = PUBLIC_VIEW
const NARROWED: ListView = { ...PUBLIC_VIEW, ratings: ['safe'], hiddenTags: ['gore'], unvotedBy: 'user-2' }
const page = (n: number, limit = 20) => ({ page: n, limit })

/** Every list, each way to its page: name, title, the lookups' answers, the call. */
const CASES: { name: string, title: string, answers?: Answers, run: (db: Database) => Promise<unknown> }[] = [
  { name: 'uploads-new', title: 'GET /api/uploads, newest, page 1', run: db => listUploads(db, page(1), VIEW) },
  { name: 'uploads-new-page-3', title: 'GET /api/uploads, newest, page 3 (PostgreSQL: from the recent days)', answers: { recent: 1000 }, run: db => listUploads(db, page(3), VIEW) },
  { name: 'uploads-new-page-3-past-recent', title: 'GET /api/uploads, newest, page 3 past the recent days (PostgreSQL: from the months)', answers: { recent: 10 }, run: db => listUploads(db, page(3), VIEW) },
  { name: 'uploads-hot-narrowed', title: 'GET /api/uploads, hot, one rating, a hidden tag, unvoted', run: db => listUploads(db, page(2), { ...NARROWED, sort: 'hot' }) },
  { name: 'uploads-new-two-ratings', title: 'GET /api/uploads, newest, two ratings', run: db => listUploads(db, page(1), { ...VIEW, ratings: ['safe', 'suggestive'] }) },
  { name: 'uploads-top-week', title: 'GET /api/uploads, top of the week, page 1 (merged from its days)', run: db => listUploads(db, page(1), { ...VIEW, sort: 'top', since: since(7) }) },
  { name: 'uploads-best-month-page-2', title: 'GET /api/uploads, best of the month, page 2 (days read on to a bound)', run: db => listUploads(db, page(2), { ...VIEW, sort: 'best', since: since(30) }) },
  { name: 'uploads-favourites-month-page-3', title: 'GET /api/uploads, favourites of the month, page 3 (the best days read on first)', run: db => listUploads(db, page(3), { ...VIEW, sort: 'favourites', since: since(30) }) },
  { name: 'uploads-divisive-year', title: 'GET /api/uploads, divisive of the year (the ranking\'s first rows, then its days)', run: db => listUploads(db, page(1), { ...VIEW, sort: 'divisive', since: since(365) }) },
  { name: 'uploads-top-week-deep', title: 'GET /api/uploads, top of the week, a page past the merge', run: db => listUploads(db, page(20), { ...VIEW, sort: 'top', since: since(7) }) },
  { name: 'filtered-no-tags', title: 'GET /api/uploads/filtered, no tags, favourites', run: db => listFilteredUploads(db, { ...page(1), match: 'all' }, { ...VIEW, sort: 'favourites' }) },
  { name: 'filtered-tag', title: 'GET /api/uploads/filtered, one tag, top (a tag\'s page, its kept count)', run: db => listFilteredUploads(db, { ...page(1), tags: 'cats', match: 'all' }, { ...VIEW, sort: 'top' }) },
  { name: 'filtered-tag-narrowed', title: 'GET /api/uploads/filtered, one tag, newest, narrowed (counted link by link)', run: db => listFilteredUploads(db, { ...page(2), tags: 'cats', match: 'all' }, NARROWED) },
  { name: 'filtered-tag-week', title: 'GET /api/uploads/filtered, one tag, top of the week', run: db => listFilteredUploads(db, { ...page(1), tags: 'cats', match: 'all' }, { ...VIEW, sort: 'top', since: since(7) }) },
  { name: 'filtered-tag-favourites', title: 'GET /api/uploads/filtered, one tag, favourites (matched whole)', answers: { tags: { cats: 100 } }, run: db => listFilteredUploads(db, { ...page(1), tags: 'cats', match: 'all' }, { ...VIEW, sort: 'favourites' }) },
  { name: 'filtered-pair-walked', title: 'GET /api/uploads/filtered, two tags, newest (the rarer tag\'s links walked)', answers: { tags: { cats: 1000, dogs: 1200 }, pair: 50 }, run: db => listFilteredUploads(db, { ...page(1), tags: 'cats,dogs', match: 'all' }, VIEW) },
  { name: 'filtered-pair-whole', title: 'GET /api/uploads/filtered, two tags that rarely meet, hot (matched whole)', answers: { tags: { cats: 1000, dogs: 1000 }, pair: 1 }, run: db => listFilteredUploads(db, { ...page(1), tags: 'cats,dogs', match: 'all' }, { ...VIEW, sort: 'hot' }) },
  { name: 'filtered-all-rare', title: 'GET /api/uploads/filtered, three tags, one rare (looked up)', answers: { tags: { cats: 5, dogs: 500, birds: 800 } }, run: db => listFilteredUploads(db, { ...page(1), tags: 'cats,dogs,birds', match: 'all' }, VIEW) },
  { name: 'filtered-any', title: 'GET /api/uploads/filtered, any of two tags, best, narrowed (matched)', answers: { tags: { cats: 300, dogs: 200 } }, run: db => listFilteredUploads(db, { ...page(1), tags: 'cats,dogs', match: 'any' }, { ...NARROWED, sort: 'best' }) },
  { name: 'filtered-either', title: 'GET /api/uploads/filtered, any of two tags, top, page 2 (the tags\' pages united; kept counts less the pair\'s)', answers: { tags: { cats: 300, dogs: 200 } }, run: db => listFilteredUploads(db, { ...page(2), tags: 'cats,dogs', match: 'any' }, { ...VIEW, sort: 'top' }) },
  { name: 'search', title: 'GET /api/search, a condition, top', run: db => listMatchingUploads(db, 'cat', sql`u.description LIKE ${'%cat%'}`, page(1), { ...VIEW, sort: 'top' }, Number.POSITIVE_INFINITY) },
  { name: 'search-tag-without', title: 'GET /api/search?q=cats -dogs, newest (the tag\'s links walked; its kept count less the pair\'s)', answers: { tags: { cats: 100 } }, run: db => listMatchingUploads(db, 'cats -dogs', sql`1 = 1`, page(1), VIEW, Number.POSITIVE_INFINITY, undefined, { links: onOneTag(parseSearch('cats -dogs')!) }) },
  { name: 'search-tag-counted', title: 'GET /api/search?q=votes:>=10 cats, top (the tag\'s links walked and counted)', answers: { tags: { cats: 100 } }, run: db => listMatchingUploads(db, 'votes:>=10 cats', sql`1 = 1`, page(1), { ...VIEW, sort: 'top' }, Number.POSITIVE_INFINITY, undefined, { links: onOneTag(parseSearch('votes:>=10 cats')!) }) },
  { name: 'search-tags-merged', title: 'GET /api/search?q=(cats OR dogs) pets -birds, newest (SQLite: the tags\' links merged)', answers: { tags: { cats: 300, dogs: 200, pets: 900, birds: 100 } }, run: db => searchUploads(db, parseSearch('(cats OR dogs) pets -birds'), page(1), VIEW, null, Number.POSITIVE_INFINITY) },
  { name: 'search-tags-looked-up', title: 'GET /api/search?q=(cats OR dogs) pets, newest (SQLite: from the rare OR, the common tag looked up)', answers: { tags: { cats: 3, dogs: 2, pets: 900 } }, run: db => searchUploads(db, parseSearch('(cats OR dogs) pets'), page(1), VIEW, null, Number.POSITIVE_INFINITY) },
  { name: 'search-tag-or-walked', title: 'GET /api/search?q=(cats OR dogs) pets, newest (pets\' links walked, the total from the pairs less the uploads with all three, matched: the triple could not be kept)', answers: { tags: { cats: 3000, dogs: 2000, pets: 9000 }, pair: 500 }, run: db => searchUploads(db, parseSearch('(cats OR dogs) pets'), page(1), VIEW, null, Number.POSITIVE_INFINITY) },
  { name: 'search-tag-or-kept', title: 'GET /api/search?q=(cats OR dogs) pets, top (pets\' links walked, the total from the pairs less the kept triple)', answers: { tags: { cats: 3000, dogs: 2000, pets: 9000 }, pair: 500, triple: 40 }, run: db => searchUploads(db, parseSearch('(cats OR dogs) pets'), page(1), { ...VIEW, sort: 'top' }, null, Number.POSITIVE_INFINITY) },
  { name: 'search-two-tags', title: 'GET /api/search?q=cats dogs, newest (the filtered list\'s pair)', answers: { tags: { cats: 300, dogs: 200 }, pair: 50 }, run: db => searchUploads(db, parseSearch('cats dogs'), page(1), VIEW, null, Number.POSITIVE_INFINITY) },
  { name: 'search-word-walked', title: 'GET /api/search?q=text:cats, newest (a common word: its kept count, the list walked)', answers: { word: { found: 900, all: 1000 } }, run: db => listMatchingUploads(db, 'text:cats', sql`1 = 1`, page(1), VIEW, Number.POSITIVE_INFINITY, undefined, { word: 'cats' }) },
  { name: 'search-word-matched', title: 'GET /api/search?q=text:cats, top (a rare word: matched and counted)', answers: { word: { found: 5, all: 1000 } }, run: db => listMatchingUploads(db, 'text:cats', sql`1 = 1`, page(1), { ...VIEW, sort: 'top' }, Number.POSITIVE_INFINITY, undefined, { word: 'cats' }) },
  { name: 'user', title: 'GET /api/user/{username}/uploads, by date (the account\'s kept count)', run: db => listUserUploads(db, 'alice', { ...page(1), sort: 'date' }) },
  { name: 'user-filtered', title: 'GET /api/user/{username}/uploads, by votes, narrowed', run: db => listUserUploads(db, 'alice', { ...page(2), sort: 'votes' }, { ratings: ['safe'], hiddenTags: ['gore'] }) },
  { name: 'user-tagged', title: 'GET /api/user/{username}/uploads, by name, one tag', answers: { tags: { cats: 100 } }, run: db => listUserUploads(db, 'alice', { ...page(1), sort: 'name', tags: 'cats' }) },
  { name: 'feature-recent', title: 'GET /api/items-recent', run: db => featureList(db, 'recent') },
  { name: 'feature-top-voted', title: 'GET /api/items-top-voted, narrowed', run: db => featureList(db, 'top-voted', { ratings: ['safe', 'suggestive'], hiddenTags: ['gore'] }) },
  { name: 'next-unvoted-account', title: 'GET /api/vote/next, an account with a hidden tag', run: db => nextToVote(db, { userId: 'user-2' }, { ratings: null, hiddenTags: ['gore'] }) },
  { name: 'next-unvoted-visitor', title: 'GET /api/vote/next, a visitor', run: db => nextToVote(db, { ipHash: 'ip-hash', fingerprint: 'fingerprint' }, { ratings: ['safe', 'suggestive'], hiddenTags: [] }) },
]

describe('list SQL per engine', () => {
  beforeAll(() => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] })
  })
  afterAll(() => {
    vi.useRealTimers()
  })

  const written = new Set<string>()
  for (const dialect of ['sqlite', 'postgres'] as const) {
    it.each(CASES)(`${dialect}: $name`, async ({ name, title, answers, run }) => {
      const { db, statements } = recorder(dialect, answers ?? {})
      await run(db)
      // A statement run again with other values (a day of a period on SQLite) is one file.
      const distinct = new Map<string, { statement: RenderedQuery, runs: number }>()
      for (const statement of statements) {
        const seen = distinct.get(statement.text)
        if (seen) seen.runs++
        else distinct.set(statement.text, { statement, runs: 1 })
      }
      expect(distinct.size).toBeGreaterThan(0)
      let n = 0
      for (const { statement, runs } of distinct.values()) {
        const file = distinct.size === 1 ? `${name}.sql` : `${name}.${++n}.sql`
        written.add(`${dialect}/${file}`)
        await expect(statementFile(title, statement, runs)).toMatchFileSnapshot(`./list-sql/${dialect}/${file}`)
      }
    })
  }

  it('keeps no file of a statement that is gone', () => {
    const files = (['sqlite', 'postgres'] as const).filter(dialect => existsSync(`${SNAPSHOTS}/${dialect}`))
      .flatMap(dialect => readdirSync(`${SNAPSHOTS}/${dialect}`).map(file => `${dialect}/${file}`))
    expect(files.filter(file => !written.has(file))).toEqual([])
  })
})
