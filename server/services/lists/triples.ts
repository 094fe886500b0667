/**
 * Kept counts of three tags together (tag_triples), for the total of
 * `(a OR b) c`: public uploads carrying c and a or b are the pairs (c, a)
 * and (c, b) less those carrying all three. No triple is kept until a search
 * asks for it; the first search counts the three tags' uploads once and
 * adds the row, and triggers keep it from then on (docs/database.md,
 * "Kept counts"), so every later search reads it by key.
 */
import type { Executor } from '../../database/port'
import { inList, sql, type Query } from '../../database/sql'
import { withinBudget, type BudgetOf } from '../search-budget'
import { KeptCounts } from './kept-sizes'

/**
 * At most this many kept triples hold one tag: each link of that tag
 * written, moved or deleted looks up those triples on its upload. Past it,
 * or past KEPT_TRIPLES in all, a triple is matched at each search instead.
 */
export const TRIPLES_PER_TAG = 32
export const KEPT_TRIPLES = 10_000

/**
 * How long a triple being kept waits for the writes in flight on
 * PostgreSQL (lock_timeout, ms): the count holds every link write back
 * until it is taken, so it waits little and otherwise is matched this time.
 */
const WRITES_WAIT_MS = 50

/**
 * Triples found past the caps (by their sorted slugs), kept for a minute:
 * a search of one matches it without asking for room each time.
 */
const withoutRoom = new KeptCounts()

/**
 * The three tags' ids, as statement pieces for `IN`: a parameter per slug,
 * so PostgreSQL knows there are three and keeps one plan for the page
 * statements that read the triple (anyOfPage in tags.ts).
 */
const idsOf = (slugs: readonly string[]) => sql`(SELECT id FROM tags WHERE slug IN (${sql.join(slugs.map(slug => sql`${slug}`))}))`

/**
 * The kept triple of three distinct slugs, as a statement yielding its
 * count (no row when the triple is not kept). Its key is the ids in order;
 * each column tested against all three finds it without ordering them here.
 */
export function keptTriple(slugs: readonly [string, string, string]): Query {
  const ids = idsOf(slugs)
  return sql`SELECT public_uploads FROM tag_triples
    WHERE first_tag_id IN ${ids} AND second_tag_id IN ${ids} AND third_tag_id IN ${ids}`
}

/** The statement counting the three tags' public uploads (`count`), given the executor and the budget's test of a table's rows. */
export type TripleMatch = (db: Executor, budgetOf: BudgetOf) => Promise<Query>

/**
 * Whether the triple of three distinct slugs (each a tag's) is kept, adding
 * it when it is not and the caps allow: its first count is `match`, run
 * within the search budget (past it, `Query too complex`, as matching at
 * each search would be). On PostgreSQL the count is taken holding
 * upload_tags in SHARE mode, so no link write is in flight while it counts
 * and every later one finds the row (the triggers hold the opposite lock:
 * the tag_triples migration). False when the caps are reached or the
 * writes in flight did not finish in WRITES_WAIT_MS.
 */
export async function keepTriple(db: Executor, slugs: readonly [string, string, string], match: TripleMatch, budgetMs: number): Promise<boolean> {
  if (await db.get(keptTriple(slugs))) return true
  const key = roomKey(slugs)
  const now = Date.now()
  if (withoutRoom.get(db, key, now) !== undefined) return false
  const ids = (await db.all<{ id: string }>(sql`SELECT id FROM tags WHERE slug ${inList([...slugs])}`)).map(row => row.id).sort()
  if (ids.length !== 3 || !await roomFor(db, ids)) {
    withoutRoom.set(db, key, 0, now)
    return false
  }
  try {
    return await withinBudget(db, budgetMs, async (executor, _budget, budgetOf) => {
      const count = await match(executor, budgetOf)
      await executor.transaction(async (tx) => {
        if (tx.dialect === 'postgres') {
          await tx.get(sql`SELECT set_config('lock_timeout', ${String(WRITES_WAIT_MS)}, true) AS timeout`)
          await tx.run(sql`LOCK TABLE upload_tags IN SHARE MODE`)
        }
        await tx.run(sql`INSERT INTO tag_triples (first_tag_id, second_tag_id, third_tag_id, public_uploads)
          SELECT ${ids[0]}, ${ids[1]}, ${ids[2]}, (${count}) ON CONFLICT DO NOTHING`)
      })
      return true
    })
  }
  catch (error) {
    // 55P03: the lock was not granted in WRITES_WAIT_MS.
    if ((error as { code?: string } | null)?.code === '55P03') return false
    throw error
  }
}

/** Whether the triple was found past the caps within the last minute: then it is matched, not looked for among the kept. */
export function foundWithoutRoom(db: Executor, slugs: readonly string[]): boolean {
  return withoutRoom.get(db, roomKey(slugs), Date.now()) !== undefined
}

const roomKey = (slugs: readonly string[]) => [...slugs].sort().join(' ')

/** Whether another triple may be kept for these tags (TRIPLES_PER_TAG, KEPT_TRIPLES). */
async function roomFor(db: Executor, ids: string[]): Promise<boolean> {
  const holding = (id: string) => sql`(SELECT count(*) FROM tag_triples WHERE first_tag_id = ${id} OR second_tag_id = ${id} OR third_tag_id = ${id})`
  const row = await db.get<{ kept: number, a: number, b: number, c: number }>(sql`SELECT (SELECT count(*) FROM tag_triples) AS kept,
    ${holding(ids[0]!)} AS a, ${holding(ids[1]!)} AS b, ${holding(ids[2]!)} AS c`)
  return Number(row!.kept) < KEPT_TRIPLES && Math.max(Number(row!.a), Number(row!.b), Number(row!.c)) < TRIPLES_PER_TAG
}
