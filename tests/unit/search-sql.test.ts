import { describe, expect, it } from 'vitest'
import { sql, render } from '../../server/database/sql'
import { searchCondition } from '../../server/services/search'
import { parseSearchQuery, SearchQueryError } from '../../shared/utils/search-query'
import { testDatabase } from '../support/database'

const NOW = new Date('2026-11-28T12:00:00.000Z')

/** Pieces of the language and of nonsense, joined at random into queries. */
const PIECES = ['red', 'blue-sky', 'OR', '||', 'NOT', '-', '(', ')', ',', '"', '"quick fox"', 'text:wor*', 'text:café', 'fucks:>3', 'nope:1..2',
  'votes:<=9', 'score:-2', 'ratio:0.5', 'tags:>=2', 'age:<7d', 'date:2026-01', 'user:bob', 'type:link', 'is:voted', 'is:unvoted', 'is:mine',
  'rating:safe', 'is:fav', 'x', ':', '*', '\'', ';', '$1', '?', 'é', '\u0000', ' ', '  ']

/** A deterministic pseudo-random sequence (mulberry32), so a failure repeats. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6D2B79F5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('search queries as SQL', () => {
  it('parse to a tree or one of the two refusals, and every tree runs on SQLite (fuzzed)', async () => {
    const db = await testDatabase()
    const next = random(42)
    let ran = 0
    for (let i = 0; i < 2000; i++) {
      const q = Array.from({ length: 1 + Math.floor(next() * 12) }, () => PIECES[Math.floor(next() * PIECES.length)]).join(next() < 0.7 ? ' ' : '')
      let node
      try {
        node = parseSearchQuery(q, NOW, { rating: false, favourites: false })
      }
      catch (error) {
        expect(error, q).toBeInstanceOf(SearchQueryError)
        continue
      }
      const condition = searchCondition(node, 'caller')
      expect(render(condition, 'postgres').text, q).not.toContain('?')
      await db.all(sql`SELECT count(*) AS n FROM uploads u WHERE u.is_private = 0 AND ${condition}`)
      ran++
    }
    expect(ran).toBeGreaterThan(150)
  })

  it('binds every value the query gives', () => {
    const node = parseSearchQuery('"it\'s" OR user:o_brien OR blue-sky', NOW)
    const { text, values } = render(searchCondition(node, null), 'sqlite')
    expect(text).not.toContain('o_brien')
    expect(text).not.toContain('blue-sky')
    expect(values).toEqual(expect.arrayContaining(['"it s"', 'o_brien', 'blue-sky']))
  })
})

describe('kept word counts (search_words) on SQLite', () => {
  it('count, for every word, the public uploads the full-text index matches with it (fuzzed descriptions)', async () => {
    const db = await testDatabase()
    const next = random(7)
    // Letters with and without diacritics, other scripts, combining marks, digits, joiners and separators.
    const CHARS = [...'abcABC019', 'é', 'É', 'ß', 'Æ', 'ø', 'ı', 'İ', 'ﬁ', 'Ω', 'ж', '中', 'ア', '\u0301', '\u0308', '\u200d', '_', '-', '\'', '.', ' ', ' ', '\u00a0', '😀', '٣']
    await db.run(sql`INSERT INTO users (id, username) VALUES ('u1', 'owner')`)
    for (let i = 0; i < 300; i++) {
      const description = Array.from({ length: 1 + Math.floor(next() * 30) }, () => CHARS[Math.floor(next() * CHARS.length)]).join('')
      await db.run(sql`INSERT INTO uploads (id, user_id, original_name, description, upload_type, is_private) VALUES (${`p${i}`}, 'u1', 'a.png', ${description}, 'image', ${i % 5 === 0 ? 1 : 0})`)
    }
    // Edits and privacy changes move the counts as they go.
    await db.run(sql`UPDATE uploads SET description = description || ' abc' WHERE rowid % 7 = 0`)
    await db.run(sql`UPDATE uploads SET is_private = 1 - is_private WHERE rowid % 11 = 0`)
    await db.run(sql`DELETE FROM uploads WHERE rowid % 13 = 0`)
    const words = await db.all<{ word: string, public_uploads: number }>(sql`SELECT word, public_uploads FROM search_words ORDER BY word`)
    expect(words.filter(w => w.public_uploads > 0).length).toBeGreaterThan(50)
    for (const { word, public_uploads } of words) {
      const matched = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM uploads u
        WHERE u.is_private = 0 AND u.rowid IN (SELECT rowid FROM uploads_fts WHERE uploads_fts MATCH ${`"${word}"`})`)
      expect(public_uploads, word).toBe(matched!.n)
    }
  })
})
