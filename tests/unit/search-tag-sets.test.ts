import { afterAll, describe, expect, it } from 'vitest'
import { createSeeder, random } from '../../scripts/lib/seed'
import { render, sql } from '../../server/database/sql'
import { listMatchingUploads, PUBLIC_VIEW, tagTermsIds } from '../../server/services/lists'
import { parseSearch, searchCondition, searchUploads } from '../../server/services/search'
import type { Sort } from '../../shared/utils/ranking'
import { TEST_ENGINES } from '../support/database'

// Tags alone under an AND or an OR are matched as one set on SQLite (lists/tags.ts,
// tagTermsIds), and two tags, both or either, are the filtered list's pages of a pair
// (pairPage, eitherTagPage): each must give what the query's plain condition gives.

const TAGS = ['red', 'blue', 'green', 'gold', 'most', 'rare', 'odd', 'nothing']
/** Shapes and their edges: tags no upload has, a tag both wanted and left out, two ORs, counts beside tags. */
const QUERIES = ['(red OR blue) green', '(red OR blue) green -gold', 'red OR blue', 'red OR (blue OR green)', '(rare OR red) blue',
  'rare red', 'rare red -blue', '(rare OR odd) most', '(rare OR odd) most -blue', '(rare OR odd) red', '(rare OR gold) green red', 'red -blue -green',
  '-red blue', 'red OR rare', 'red OR red OR blue', 'gold OR nothing', '(red OR nothing) blue', '(nothing OR nada) red', 'red nothing', 'red -nothing', 'nothing OR red', 'red -red blue',
  '(red OR blue) (green OR gold)', 'NOT (red blue)', '(red OR blue) votes:>=5', '(red OR blue) green OR gold rare', '(red OR red) red',
  'red blue green gold', 'red blue -nothing', '-(red OR blue) green']
const SORTS: Sort[] = ['new', 'top', 'hot']

/** A query of tags made at random: ANDs, ORs and NOTs of the tags above, two levels deep. */
function randomQuery(next: () => number): string {
  const pick = () => TAGS[Math.floor(next() * TAGS.length)]!
  const term = (depth: number): string => {
    const roll = next()
    if (depth > 0 && roll < 0.3) return `(${[term(depth - 1), term(depth - 1), ...next() < 0.3 ? [term(depth - 1)] : []].join(' OR ')})`
    return `${roll > 0.8 ? '-' : ''}${pick()}`
  }
  const terms = Array.from({ length: 2 + Math.floor(next() * 3) }, () => term(2))
  // At least one wanted term: a query of tags left out alone is not an AND of tags.
  return [pick(), ...terms].join(' ')
}

describe.each(TEST_ENGINES)('a search of tags ($name)', ({ name, open }) => {
  const closing: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const close of closing) await close()
  })

  it('gives the uploads and the total its condition gives, tag by tag, in each order', async () => {
    const { db, close } = await open()
    closing.push(close)
    const seeder = createSeeder(db)
    const next = random(11)
    const userId = await seeder.user({ username: 'seeder' })
    const ids: string[] = []
    for (let i = 0; i < 120; i++) {
      ids.push(await seeder.upload({
        userId,
        tags: [
          ...['red', 'blue', 'green', 'gold'].filter(() => next() < 0.45),
          ...next() < 0.9 ? ['most'] : [],
          ...next() < 0.04 ? ['rare'] : [],
          ...next() < 0.03 ? ['odd'] : [],
        ],
        upvotes: Math.floor(next() * 10),
        downvotes: Math.floor(next() * 6),
        isPrivate: next() < 0.1,
        createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(next() * 300) * 86_400_000 + i).toISOString(),
      }))
    }
    // Votes after the links were written: their copies of the counts wait until a ranked page of tags reads them.
    for (const id of ids.filter(() => next() < 0.3)) await db.run(sql`UPDATE uploads SET upvotes = upvotes + ${Math.floor(next() * 10)} WHERE id = ${id}`)

    const fuzz = random(5)
    const queries = [...QUERIES, ...Array.from({ length: 60 }, () => randomQuery(fuzz))]
    let matched = 0
    for (const q of queries) {
      const node = parseSearch(q)!
      for (const sort of SORTS) {
        for (const page of [1, 2]) {
          const [view, paging] = [{ ...PUBLIC_VIEW, sort }, { page, limit: 7 }]
          const plain = await listMatchingUploads(db, `${q} plain`, searchCondition(node, null), paging, view, Number.POSITIVE_INFINITY)
          const found = await searchUploads(db, node, paging, view, null, Number.POSITIVE_INFINITY)
          expect({ total: found.total, ids: found.uploads.map(upload => upload.id) }, `${q} ${sort} page ${page}`)
            .toEqual({ total: plain.total, ids: plain.uploads.map(upload => upload.id) })
          if (page === 1 && sort === 'new' && plain.total > 0) matched++
        }
      }
    }
    // The seed makes most queries match something.
    expect(matched).toBeGreaterThan(queries.length / 2)

    if (name !== 'SQLite') return
    // Both ways are taken: a rare OR looked up from, common tags merged.
    const way = async (terms: { all: string[], any: string[], none: string[] }) => render((await tagTermsIds(db, terms))!, 'sqlite').text
    expect(await way({ all: ['most'], any: ['rare', 'odd'], none: [] })).toMatch(/^SELECT t0\.upload_id FROM upload_tags t0 .* LIMIT -1$/s)
    expect(await way({ all: ['green'], any: ['red', 'blue'], none: ['gold'] })).toMatch(/ UNION .* INTERSECT .* EXCEPT .* ORDER BY 1$/s)
    expect(await tagTermsIds(db, { all: ['red', 'nothing'], any: [], none: [] })).toBeNull()
    expect(await tagTermsIds(db, { all: [], any: ['nothing', 'nada'], none: ['red'] })).toBeNull()
  })
})
