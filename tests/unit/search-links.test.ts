import { afterAll, describe, expect, it, vi } from 'vitest'
import { createSeeder, random } from '../../scripts/lib/seed'
import type { Database } from '../../server/database/port'
import { sql } from '../../server/database/sql'
import { listMatchingUploads, PUBLIC_VIEW } from '../../server/services/lists'
import type { Paging } from '../../server/services/lists/paging'
import { linkSearchPage } from '../../server/services/lists/tags'
import { foundWithoutRoom, keepTriple, keptTriple, TRIPLES_PER_TAG } from '../../server/services/lists/triples'
import { onOneTag, parseSearch, searchCondition } from '../../server/services/search'
import type { Sort } from '../../shared/utils/ranking'
import { TEST_ENGINES } from '../support/database'

/** Queries one tag's links answer, and their edges: a tag left out that no upload has, the tag itself left out, an unknown tag. */
const ON_LINKS = ['red -blue', 'blue -red', 'green -gold', 'red -nothing', 'red -red', 'nothing -red', 'red -blue -blue', 'votes:>=10 red',
  'fucks:>3 nope:<5 blue', 'score:<0 green', 'ratio:>=0.5 red', 'votes:3..9 ratio:<0.5 gold', 'votes:>=0 nothing',
  'votes:<=4 red', 'score:0 blue', 'nope:0 fucks:<9 green']
/**
 * A tag AND an OR of tags: of two (its total the pairs' kept counts less the uploads with all three), of one
 * known tag (an unknown one dropped: the pair), holding the tag itself (the tag alone), of unknown tags only.
 * Read in pages of one, which walk a small share of the tag's links (a larger share is matched whole).
 */
const ON_LINKS_ANY = ['(blue OR green) red', '(red OR gold) blue', 'green (gold OR blue)', '(nothing OR blue) red', 'red (red OR blue)',
  'red (nothing OR nada)', 'nothing (red OR blue)', '(blue OR blue) red']
/** Shapes that look alike but need the whole match (two tags left out, a left-out tag with a count test, an OR with more). */
const WHOLE = ['red -blue -green', 'votes:>=10 red -blue', '(blue OR green) red -gold', '(blue OR green OR gold) red', 'votes:>=3 (blue OR green) red']
const SORTS: Sort[] = ['new', 'top', 'hot', 'best', 'divisive']

describe.each(TEST_ENGINES)('a search one tag\'s links answer ($name)', ({ open }) => {
  const closing: (() => Promise<void>)[] = []
  let opened: Database | undefined
  afterAll(async () => {
    for (const close of closing) await close()
  })

  it('gives the uploads and the total of the whole match, in every order and page, with votes since the links were written', async () => {
    const { db, close } = await open()
    closing.push(close)
    opened = db
    const seeder = createSeeder(db)
    const next = random(7)
    const userId = await seeder.user({ username: 'seeder' })
    const ids: string[] = []
    for (let i = 0; i < 80; i++) {
      // About one in five without votes: ranked, their links are read from an index of their own.
      const quiet = next() < 0.2
      ids.push(await seeder.upload({
        userId,
        tags: ['red', 'blue', 'green', 'gold'].filter(() => next() < 0.45),
        upvotes: quiet ? 0 : Math.floor(next() * 16),
        downvotes: quiet ? 0 : Math.floor(next() * 12),
        isPrivate: next() < 0.1,
        createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(next() * 300) * 86_400_000 + i).toISOString(),
      }))
    }
    // Votes after the links were written: their copies of the counts are pending until a page flushes them.
    for (const id of ids.filter(() => next() < 0.3)) await db.run(sql`UPDATE uploads SET upvotes = upvotes + ${Math.floor(next() * 10)} WHERE id = ${id}`)

    const paging = (page: number) => ({ page, limit: 7 })
    await expectSameAsWhole(paging, 'first')
    await expectSameAsWhole(page => ({ page, limit: 1 }), 'first, pages of one', ON_LINKS_ANY)
    // The OR's first pages kept their triples (tag_triples), which the changes below must move.
    expect(Number((await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM tag_triples`))!.n)).toBe(3)
    // Every change a link's kept counts per pair of votes and kept triples follow (tag_vote_counts,
    // tag_triples): uploads added, privacy both ways, a link removed and one moved to another tag,
    // an upload deleted with its links, and votes again, some back to none.
    for (let i = 0; i < 6; i++) {
      await seeder.upload({ userId, tags: i < 4 ? ['red', 'blue', 'green', 'gold'] : ['gold', 'blue'], upvotes: i, isPrivate: i === 3 })
    }
    const changed = ids.filter(() => next() < 0.5)
    for (const [i, id] of changed.entries()) {
      if (i % 5 === 0) await db.run(sql`UPDATE uploads SET is_private = 1 - is_private WHERE id = ${id}`)
      if (i % 5 === 1) await db.run(sql`DELETE FROM upload_tags WHERE upload_id = ${id} AND tag_id = (SELECT min(tag_id) FROM upload_tags WHERE upload_id = ${id})`)
      if (i % 5 === 2) {
        await db.run(sql`UPDATE upload_tags SET tag_id = (SELECT id FROM tags WHERE slug = 'red') WHERE upload_id = ${id}
          AND tag_id = (SELECT min(tag_id) FROM upload_tags WHERE upload_id = ${id}) AND NOT EXISTS (SELECT 1 FROM upload_tags x
            WHERE x.upload_id = ${id} AND x.tag_id = (SELECT id FROM tags WHERE slug = 'red'))`)
      }
      if (i % 5 === 3) await db.run(sql`DELETE FROM uploads WHERE id = ${id}`)
      if (i % 5 === 4) await db.run(sql`UPDATE uploads SET upvotes = ${i % 2 ? 0 : i}, downvote_count = 0 WHERE id = ${id}`)
    }
    await expectSameAsWhole(paging, 'after the changes')
    await expectSameAsWhole(page => ({ page, limit: 1 }), 'after the changes, pages of one', ON_LINKS_ANY)
    // The seed makes each shape match something, and not everything.
    const sizes = await Promise.all(['red -blue', 'votes:>=10 red', '(blue OR green) red'].map(async q => (await listMatchingUploads(db, `${q} size`, searchCondition(parseSearch(q)!, null), paging(1), PUBLIC_VIEW, Number.POSITIVE_INFINITY)).total))
    for (const size of sizes) expect(size).toBeGreaterThan(7)
  })

  it('keeps a triple only while its tags are under the cap, counting it as matched', async () => {
    const { db, close } = await open()
    closing.push(close)
    const seeder = createSeeder(db)
    const userId = await seeder.user({ username: 'capped' })
    for (const tags of [['red', 'blue', 'gold'], ['red', 'blue', 'gold'], ['red', 'blue'], ['gold']]) await seeder.upload({ userId, tags })
    await seeder.upload({ userId, tags: ['red', 'blue', 'gold'], isPrivate: true })
    const gold = (await db.get<{ id: string }>(sql`SELECT id FROM tags WHERE slug = 'gold'`))!.id
    const matched = async () => sql`SELECT count(*) FROM uploads u WHERE u.is_private = 0 AND (SELECT count(*) FROM upload_tags ut
      JOIN tags t ON t.id = ut.tag_id WHERE ut.upload_id = u.id AND t.slug IN ('red', 'blue', 'gold')) = 3`
    const triple = ['gold', 'red', 'blue'] as const
    // gold in TRIPLES_PER_TAG kept triples already (of tags no upload has).
    for (let i = 0; i < TRIPLES_PER_TAG; i++) await db.run(sql`INSERT INTO tag_triples (first_tag_id, second_tag_id, third_tag_id) VALUES (${gold}, ${`~x${i}`}, ${`~y${i}`})`)
    expect(foundWithoutRoom(db, triple)).toBe(false)
    expect(await keepTriple(db, triple, matched, Number.POSITIVE_INFINITY)).toBe(false)
    expect(await db.get(keptTriple(triple))).toBeUndefined()
    // A search of it then matches it without reading its page twice (anyOfPage in lists/tags.ts).
    expect(foundWithoutRoom(db, ['red', 'blue', 'gold'])).toBe(true)
    // Still past the cap for a minute once found there, though room was made.
    await db.run(sql`DELETE FROM tag_triples WHERE second_tag_id = '~x0'`)
    expect(await keepTriple(db, triple, matched, Number.POSITIVE_INFINITY)).toBe(false)
    vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ['Date'] })
    try {
      expect(foundWithoutRoom(db, triple)).toBe(false)
      expect(await keepTriple(db, triple, matched, Number.POSITIVE_INFINITY)).toBe(true)
    }
    finally {
      vi.useRealTimers()
    }
    expect(await db.get(keptTriple(triple))).toEqual({ public_uploads: 2 })
  })

  /** Each query's pages in every order, as one tag's links answer them and as the whole match does. */
  async function expectSameAsWhole(paging: (page: number) => Paging, round: string, queries = [...ON_LINKS, ...WHOLE]) {
    const db = opened!
    for (const q of queries) {
      const node = parseSearch(q)!
      const search = onOneTag(node)
      for (const sort of SORTS) {
        for (const page of [1, 2]) {
          const view = { ...PUBLIC_VIEW, sort }
          const whole = await listMatchingUploads(db, `${q} whole ${round}`, searchCondition(node, null), paging(page), view, Number.POSITIVE_INFINITY)
          const onLinks = search && await linkSearchPage(db, search, paging(page), sort)
          if (WHOLE.includes(q)) {
            expect(onLinks ?? null, q).toBeNull()
            continue
          }
          expect(onLinks, `${q} ${sort}`).not.toBeNull()
          expect({ total: onLinks!.total, ids: onLinks!.uploads.map(upload => upload.id) }, `${q} ${sort} page ${page}`)
            .toEqual({ total: whole.total, ids: whole.uploads.map(upload => upload.id) })
        }
      }
    }
  }
})

describe('a search on one tag\'s links', () => {
  it('knows whether an upload without votes can pass its count tests', () => {
    const cases: [string, boolean][] = [
      ['red -blue', true], ['votes:>=10 red', false], ['votes:<=4 red', true], ['votes:0 red', true], ['votes:1..3 red', false],
      ['votes:0..3 red', true], ['score:<0 red', false], ['score:<=0 red', true], ['fucks:>0 red', false], ['nope:<1 red', true],
      ['ratio:>=0 red', false], ['votes:<=4 fucks:>=1 red', false],
    ]
    for (const [q, unvoted] of cases) expect(onOneTag(parseSearch(q)!)?.unvoted, q).toBe(unvoted)
  })
})
