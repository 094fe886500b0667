/** The orders of the lists, as ORDER BY pieces and the columns each reads. */
import type { Sort } from '../../../shared/utils/ranking'
import { dialects, sql, type Query } from '../../database/sql'

export const NEWEST = sql`u.created_at DESC, u.id DESC`

/**
 * The orders of the public lists (docs/behaviour.md, "Voting flow and
 * feeds"), ties newest first, as the columns each sorts by (all descending).
 * hot, best and divisive read the kept score columns (generated from the
 * counts, see server/database/ranking-columns.ts), each with its own partial
 * index; top reads uploads_public_top_idx. A period's page merges day heads
 * that carry these columns (periodPage).
 */
export const ORDER_COLUMNS: Record<Sort, readonly string[]> = {
  new: ['created_at', 'id'],
  top: ['upvotes', 'downvote_count', 'created_at', 'id'],
  hot: ['hot_score', 'created_at', 'id'],
  best: ['best_score', 'created_at', 'id'],
  divisive: ['divisive_score', 'created_at', 'id'],
  favourites: ['favourites', 'created_at', 'id'],
}

/**
 * The sorts whose columns every tag link copies (upload_tags.upload_*), so a
 * tag's page and a pair's are ranges of link indexes (tagPage, pairPage).
 * Favourites are not copied: a favourite would rewrite each of its upload's
 * links; a tag's page by favourites matches the tag's uploads and sorts them
 * on uploads_public_favourites_idx's column, as a filter of several tags does.
 */
export const LINK_SORTS: readonly Sort[] = ['new', 'top', 'hot', 'best', 'divisive']

/** Each public list's ORDER BY, from ORDER_COLUMNS. */
export const LIST_SORTS = Object.fromEntries(Object.entries(ORDER_COLUMNS)
  .map(([sort, columns]) => [sort, sql`${sql.raw(columns.map(column => `u.${column} DESC`).join(', '))}`])) as Record<Sort, Query>

export const USER_SORTS = {
  date: NEWEST,
  votes: sql`u.upvotes DESC, u.created_at DESC, u.id DESC`,
  // Byte order of the lowered name on both engines (PostgreSQL would otherwise use the database's collation).
  name: sql`lower(u.original_name)${dialects({ sqlite: '', postgres: ' COLLATE "C"' })} ASC, u.created_at DESC, u.id DESC`,
  favourites: sql`u.favourites DESC, u.created_at DESC, u.id DESC`,
} as const

/** The columns of `uploads` each of USER_SORTS reads. */
export const USER_SORT_COLUMNS: Record<keyof typeof USER_SORTS, readonly string[]> = {
  date: ['created_at', 'id'],
  votes: ['upvotes', 'created_at', 'id'],
  name: ['original_name', 'created_at', 'id'],
  favourites: ['favourites', 'created_at', 'id'],
}

export const FEATURE_ORDERS = {
  'recent': NEWEST,
  // Top-voted: upvotes, then total votes (= downvotes once upvotes tie), then newest.
  'top-voted': sql`u.upvotes DESC, u.downvote_count DESC, u.created_at DESC`,
} as const
