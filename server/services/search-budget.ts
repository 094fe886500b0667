/**
 * The time a search may spend weighing uploads one by one (docs/behaviour.md,
 * Search): past it the query is refused, 400 `Query too complex`, instead of
 * holding the database. Only queries that no kept list answers are weighed so
 * (lists/filtered.ts, listMatchingUploads, and the search feed): a common
 * word, an OR of common tags, a negation alone.
 */
import { NARROWER_QUERY } from '../../shared/utils/search-query'
import { DeadlinePassedError, type Executor } from '../database/port'
import { dialects, sql, type Query } from '../database/sql'
import { apiError } from './errors'
import { countSearchRefused } from './metrics'

/**
 * The first test of the WHERE of a statement that weighs `uploads u` one by
 * one, with its AND. On SQLite it ends the statement once it has run
 * `budgetMs` (within_budget, server/database/sqlite.ts), asked of one upload
 * in 64, as a call into JavaScript costs more than weighing an upload. On
 * PostgreSQL the transaction's statement timeout ends it (withinBudget), and
 * it is nothing.
 */
function budgetTest(budgetMs: number, alias = 'u'): Query {
  return sql`${dialects({ sqlite: sql`(${sql.raw(alias)}.rowid % 64 <> 0 OR within_budget(${budgetMs})) AND `, postgres: '' })}`
}

/** budgetTest's piece for another table's rows than `uploads u`, by its alias (SQLite: any table with a rowid). */
export type BudgetOf = (alias: string) => Query

/** 400 `Query too complex`: the query would take longer than the budget. */
export const overBudget = () => apiError(400, 'Query too complex', { position: 0, expected: NARROWER_QUERY })

/**
 * `work`, or DeadlinePassedError when one of its statements runs longer than
 * `budgetMs` (NUXT_SEARCH_BUDGET_MS): on PostgreSQL in a transaction whose
 * statement_timeout is the budget. `work` is given the executor and
 * `budget`, budgetTest's piece, to put first in the WHERE of each statement
 * that weighs uploads one by one, and `budgetOf(alias)`, the same for another
 * table's rows (a tag's links, merged before any upload is weighed: lists/tags.ts,
 * tagTermsIds). Each statement's time counts from its
 * start, on either engine: waiting for a connection or for a group of writes
 * spends none of it. A budget of 0 refuses every such search without running
 * it (an operator's switch for a site under load); Infinity sets none.
 */
export async function withinBudget<T>(db: Executor, budgetMs: number, work: (db: Executor, budget: Query, budgetOf: BudgetOf) => Promise<T>): Promise<T> {
  try {
    if (budgetMs <= 0) throw new DeadlinePassedError()
    const budget = budgetTest(budgetMs)
    const budgetOf = (alias: string) => budgetTest(budgetMs, alias)
    // No budget (Infinity): what the benchmarks measure.
    if (db.dialect === 'sqlite' || !Number.isFinite(budgetMs)) return await work(db, budget, budgetOf)
    return await db.transaction(async (tx) => {
      await tx.get(sql`SELECT set_config('statement_timeout', ${String(Math.ceil(budgetMs))}, true) AS timeout`)
      return work(tx, budget, budgetOf)
    })
  }
  catch (error) {
    if (error instanceof DeadlinePassedError) countSearchRefused()
    throw error
  }
}
