import type Database from 'better-sqlite3'
import { uploadStats } from '../../shared/utils/rating'
import { slugify } from '../../shared/utils/tags'
import { prepared } from '../database/statements'
import { apiError } from '../utils/errors'
import { cachedList } from './list-cache'
import type { TagRow } from './tags'

/** The columns every list selects from `uploads u` (and `username` from `users us`). */
const ENTRY_COLUMNS = `u.id, u.user_id, u.filename, u.description, u.upload_type, u.external_url,
  u.upvotes, u.downvote_count, u.is_private, u.created_at`

export interface ListRow {
  id: string
  user_id: string
  filename: string | null
  description: string
  upload_type: 'image' | 'link'
  external_url: string | null
  upvotes: number
  downvote_count: number
  is_private: number
  created_at: string
  username?: string
}

/** The one mapping of an upload row to a list entry (decisions.md "Lists"). */
export function toListEntry(row: ListRow, tags: TagRow[]) {
  return {
    id: row.id,
    user_id: row.user_id,
    filename: row.filename,
    description: row.description,
    upload_type: row.upload_type,
    external_url: row.external_url,
    upvotes: row.upvotes,
    downvote_count: row.downvote_count,
    is_private: row.is_private,
    created_at: row.created_at,
    tags,
    ...(row.username === undefined ? {} : { username: row.username }),
    stats: uploadStats(row.upvotes, row.downvote_count),
  }
}

export type ListEntry = ReturnType<typeof toListEntry>

/** The tags of a page of uploads in one query (never one per upload). */
function withTags(sqlite: Database.Database, rows: ListRow[]): ListEntry[] {
  if (rows.length === 0) return []
  const tags = prepared(sqlite, `SELECT ut.upload_id, t.id, t.name, t.slug
    FROM upload_tags ut JOIN tags t ON t.id = ut.tag_id
    WHERE ut.upload_id IN (SELECT value FROM json_each(?)) ORDER BY ut.rowid`)
    .all(JSON.stringify(rows.map(row => row.id))) as (TagRow & { upload_id: string })[]
  const byUpload = new Map<string, TagRow[]>()
  for (const { upload_id, ...tag } of tags) {
    const list = byUpload.get(upload_id)
    if (list) list.push(tag)
    else byUpload.set(upload_id, [tag])
  }
  return rows.map(row => toListEntry(row, byUpload.get(row.id) ?? []))
}

/** Distinct slugs of a comma-separated `tags` parameter (names or slugs). */
export function tagSlugs(param: string | undefined): string[] {
  return [...new Set((param ?? '').split(',').map(slugify).filter(Boolean))]
}

/**
 * Ids of uploads carrying at least `?2` of the slugs in the JSON array `?1`:
 * all of them (min = their number) or any (min = 1). An unknown slug never
 * matches, so with `all` one unknown tag empties the list.
 */
const TAGGED_UPLOADS = `SELECT ut.upload_id FROM upload_tags ut
    WHERE ut.tag_id IN (SELECT id FROM tags WHERE slug IN (SELECT value FROM json_each(?)))
    GROUP BY ut.upload_id HAVING count(*) >= ?`

const taggedParams = (slugs: string[], match: 'all' | 'any') => [JSON.stringify(slugs), match === 'all' ? slugs.length : 1]

interface Paging { page: number, limit: number }
const offset = ({ page, limit }: Paging) => (page - 1) * limit

/** GET /api/uploads: public uploads, newest first (no total). */
export function listUploads(sqlite: Database.Database, paging: Paging) {
  return cachedList(sqlite, `uploads ${paging.page} ${paging.limit}`, () => {
    const rows = prepared(sqlite, `SELECT ${ENTRY_COLUMNS}, us.username
    FROM (SELECT rowid AS rid FROM uploads WHERE is_private = 0 ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?) p
    CROSS JOIN uploads u ON u.rowid = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY u.created_at DESC, u.id DESC`).all(paging.limit, offset(paging)) as ListRow[]
    return { uploads: withTags(sqlite, rows), page: paging.page, limit: paging.limit }
  })
}

/**
 * One statement for a page and its total: the count over `source` and the
 * page's rows, LEFT JOINed so an empty page still yields the total. `source`
 * yields the uploads as `u` from its own bound parameters. A tag-filtered
 * source is matched once (materialised) and then counted and paged.
 */
function pageWithTotal(sqlite: Database.Database, source: string, order: string, params: unknown[], paging: Paging, options: { username: boolean, materialise: boolean }) {
  const sql = options.materialise
    ? `WITH matched AS MATERIALIZED (SELECT u.rowid AS rid, u.id, u.created_at, u.upvotes, u.original_name FROM ${source})
      SELECT c.total, ${ENTRY_COLUMNS}${options.username ? ', us.username' : ''}
      FROM (SELECT count(*) AS total FROM matched) c
      LEFT JOIN (SELECT u.rid FROM matched u ORDER BY ${order} LIMIT ? OFFSET ?) p`
    : `SELECT c.total, ${ENTRY_COLUMNS}${options.username ? ', us.username' : ''}
      FROM (SELECT count(*) AS total FROM ${source}) c
      LEFT JOIN (SELECT u.rowid AS rid FROM ${source} ORDER BY ${order} LIMIT ? OFFSET ?) p`
  const rows = prepared(sqlite, `${sql}
    LEFT JOIN uploads u ON u.rowid = p.rid
    ${options.username ? 'LEFT JOIN users us ON us.id = u.user_id' : ''}
    ORDER BY ${order}`).all(...params, ...(options.materialise ? [] : params), paging.limit, offset(paging)) as (ListRow & { total: number })[]
  const total = rows[0]?.total ?? 0
  const found = rows.filter(row => row.id !== null).map(({ total: _, ...row }) => row)
  return { uploads: withTags(sqlite, found), total }
}

/** GET /api/uploads/filtered: public uploads with all (or any) of the tags, newest first. */
export function listFilteredUploads(sqlite: Database.Database, query: Paging & { tags?: string, match: 'all' | 'any' }) {
  const slugs = tagSlugs(query.tags)
  return cachedList(sqlite, `filtered ${query.match} ${query.page} ${query.limit} ${slugs.join(',')}`, () => listFiltered(sqlite, slugs, query))
}

function listFiltered(sqlite: Database.Database, slugs: string[], query: Paging & { match: 'all' | 'any' }) {
  const { uploads, total } = slugs.length === 0
    ? pageWithTotal(sqlite, 'uploads u WHERE u.is_private = 0', 'u.created_at DESC, u.id DESC', [], query, { username: true, materialise: false })
    : pageWithTotal(sqlite, `(${TAGGED_UPLOADS}) m CROSS JOIN uploads u ON u.id = m.upload_id WHERE u.is_private = 0`,
        'u.created_at DESC, u.id DESC', taggedParams(slugs, query.match), query, { username: true, materialise: true })
  return { uploads, total, page: query.page, limit: query.limit }
}

const USER_SORTS = {
  date: 'u.created_at DESC, u.id DESC',
  votes: 'u.upvotes DESC, u.created_at DESC, u.id DESC',
  name: 'u.original_name COLLATE NOCASE ASC, u.created_at DESC, u.id DESC',
} as const

/** GET /api/user/{username}/uploads: the user's public uploads only, even for the owner. */
export function listUserUploads(sqlite: Database.Database, username: string, query: Paging & { sort: keyof typeof USER_SORTS, tags?: string }) {
  const slugs = tagSlugs(query.tags)
  const key = `user ${username.toLowerCase()} ${query.sort} ${query.page} ${query.limit} ${slugs.join(',')}`
  return cachedList(sqlite, key, () => listOfUser(sqlite, username, slugs, query))
}

function listOfUser(sqlite: Database.Database, username: string, slugs: string[], query: Paging & { sort: keyof typeof USER_SORTS }) {
  const user = prepared(sqlite, 'SELECT id, username, created_at FROM users WHERE username = ? COLLATE NOCASE')
    .get(username) as { id: string, username: string, created_at: string } | undefined
  if (!user) throw apiError(404, 'User not found')
  const { uploads, total } = slugs.length === 0
    ? pageWithTotal(sqlite, 'uploads u WHERE u.user_id = ? AND u.is_private = 0', USER_SORTS[query.sort], [user.id], query, { username: false, materialise: false })
    : pageWithTotal(sqlite, `(${TAGGED_UPLOADS}) m CROSS JOIN uploads u ON u.id = m.upload_id WHERE u.user_id = ? AND u.is_private = 0`,
        USER_SORTS[query.sort], [...taggedParams(slugs, 'all'), user.id], query, { username: false, materialise: true })
  return {
    user: { username: user.username, created_at: user.created_at },
    uploads,
    total,
    page: query.page,
    totalPages: Math.ceil(total / query.limit),
    limit: query.limit,
  }
}

const FEATURE_ORDERS = {
  'recent': 'u.created_at DESC, u.id DESC',
  // Top-voted: upvotes, then total votes (= downvotes once upvotes tie), then newest.
  'top-voted': 'u.upvotes DESC, u.downvote_count DESC, u.created_at DESC',
} as const

/** GET /api/items-recent and /api/items-top-voted: exactly the first 6 public uploads. */
export function featureList(sqlite: Database.Database, type: keyof typeof FEATURE_ORDERS) {
  return cachedList(sqlite, type, () => {
    const rows = prepared(sqlite, `SELECT ${ENTRY_COLUMNS}, us.username
    FROM (SELECT u.rowid AS rid FROM uploads u WHERE u.is_private = 0 ORDER BY ${FEATURE_ORDERS[type]} LIMIT 6) p
    CROSS JOIN uploads u ON u.rowid = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY ${FEATURE_ORDERS[type]}`).all() as ListRow[]
    return { items: withTags(sqlite, rows), type }
  })
}
