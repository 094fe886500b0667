/** GET /api/search for one word of the descriptions (`text:word`): its kept count, and a page read in the list's order. */
import { DeadlinePassedError, type Executor } from '../../database/port'
import { dialects, sql, type Query } from '../../database/sql'
import { withinBudget } from '../search-budget'
import { KeptCounts } from './kept-sizes'
import { totalAndPage } from './page'
import { offset, pageWindow, type Paging } from './paging'
import { ROW_KEY } from './pieces'
import { LIST_SORTS } from './sorts'
import type { Sort } from '../../../shared/utils/ranking'

/**
 * The word as search_words keys it (split and folded by the full-text
 * index's own tokenizer on SQLite, search_vector's lexeme on PostgreSQL),
 * which means something only when the index makes one word of it; and how
 * many words the index makes of it.
 */
const keyOf = (word: string) => dialects({
  sqlite: sql`(SELECT max(token) FROM search_word_tokens WHERE input = ${word})`,
  postgres: sql`(tsvector_to_array(to_tsvector('simple', search_text(${word}))))[1]`,
})
const wordsIn = (word: string) => dialects({
  sqlite: sql`(SELECT count(*) FROM search_word_tokens WHERE input = ${word})`,
  postgres: sql`cardinality(tsvector_to_array(to_tsvector('simple', search_text(${word}))))`,
})

/**
 * Whether the upload `u` has the word, asked of that one upload: on SQLite
 * its description split by the index's tokenizer (a MATCH of uploads_fts at
 * the upload's rowid cost many times more), on PostgreSQL its own
 * search_vector. The same match as `text:word` (server/services/search.ts,
 * textCondition).
 */
const hasWord = (word: string) => dialects({
  sqlite: sql`EXISTS (SELECT 1 FROM search_word_tokens WHERE input = u.description AND token = ${keyOf(word)})`,
  postgres: sql`u.search_vector @@ phraseto_tsquery('simple', search_text(${word}))`,
})

/**
 * How many public uploads have each word (-1: the index makes more or fewer
 * than one word of it) and have anything (under ALL), as wordPage reads them
 * to choose its way, kept for a minute: a count a minute old can only choose
 * the slower way, never other uploads or another total (the page's statement
 * reads the total).
 */
const wordSizesKept = new KeptCounts()
const ALL = ' all'

async function wordSizes(db: Executor, word: string): Promise<{ found: number, all: number }> {
  const now = Date.now()
  const [found, all] = [wordSizesKept.get(db, word, now), wordSizesKept.get(db, ALL, now)]
  if (found !== undefined && all !== undefined) return { found, all }
  const kept = (await db.get<{ words: number | string, found: number | string | null, all: number | string }>(sql`SELECT ${wordsIn(word)} AS words,
    (SELECT w.public_uploads FROM search_words w WHERE w.word = ${keyOf(word)}) AS found,
    (SELECT coalesce(sum(m.public_uploads), 0) FROM upload_months m) AS "all"`))!
  const sizes = { found: Number(kept.words) === 1 ? Number(kept.found ?? 0) : -1, all: Number(kept.all) }
  wordSizesKept.set(db, word, sizes.found, now)
  wordSizesKept.set(db, ALL, sizes.all, now)
  return sizes
}

/**
 * A page of the public uploads whose description has `word` (letters and
 * digits, one word as the parser gives it), with the total, when the word's
 * kept count (search_words, docs/database.md "Kept counts") makes that the
 * cheaper way; null otherwise, and the search matches and counts as any
 * other. Counting a common word's uploads one by one grows with the site;
 * its count is kept, and its page is the list's own index walked from the
 * top, each upload asked whether it has the word, until the page is full.
 * With `found` of the `all` public uploads having it, the walk reads about
 * reach × all / found uploads and matching reads `found`: the walk is taken
 * when it reads fewer. So neither way reads more than √(reach × all)
 * uploads, whatever the word: 1,549 at 100,000 uploads and a page of 24,
 * 4,899 at 1,000,000. The walk runs within the search budget, as a word
 * common only among old uploads walks far; past it, the search takes the
 * other way. Nothing of the caller's narrows the list here: the kept count
 * is every public upload's.
 */
export async function wordPage(db: Executor, word: string, paging: Paging, sort: Sort, budgetMs: number) {
  const walked = await walkedWord(db, word, offset(paging) + paging.limit)
  if (!walked) return null
  try {
    return await withinBudget(db, budgetMs, (executor, budget) => totalAndPage(executor,
      sql`SELECT coalesce(max(w.public_uploads), 0) AS total FROM search_words w WHERE w.word = ${keyOf(word)}`,
      sql`SELECT u.${ROW_KEY} AS rid FROM uploads u WHERE ${budget}u.is_private = 0 AND ${walked}
        ORDER BY ${LIST_SORTS[sort]} ${pageWindow(paging)}`,
      LIST_SORTS[sort], { username: true }))
  }
  catch (error) {
    if (error instanceof DeadlinePassedError) return null
    throw error
  }
}

/**
 * The word asked of each upload as a list is walked (`u` its upload), when
 * the first `reach` uploads with it are cheaper found so than by matching
 * every upload that has it (wordPage); null otherwise. The search feed walks
 * the newest uploads with it for its 50.
 */
export async function walkedWord(db: Executor, word: string, reach: number): Promise<Query | null> {
  const { found, all } = await wordSizes(db, word)
  return found > 0 && found * found >= reach * all ? sql`${hasWord(word)}` : null
}
