/** GET /api/user/{username}/uploads: one account's public uploads. */
import type { Database, Executor } from '../../database/port'
import { sql, type Query } from '../../database/sql'
import { apiError } from '../errors'
import { cachedList, type DataVersion } from '../list-cache'
import { ENTRY_COLUMNS, withTags, type ListRow } from './entry'
import { filterKey, filtering, isFiltering, NO_FILTER, tagSlugs, type CallerFilter } from './filters'
import { pageWithTotal } from './page'
import { pageWindow, type Paging } from './paging'
import { ROW_KEY, THEN_JOIN } from './pieces'
import { USER_SORT_COLUMNS, USER_SORTS } from './sorts'
import { taggedSource } from './tags'

/** GET /api/user/{username}/uploads: the user's public uploads only, even for the owner. */
export function listUserUploads(db: Database, username: string, query: Paging & { sort: keyof typeof USER_SORTS, tags?: string }, filter: CallerFilter = NO_FILTER, at?: DataVersion) {
  const slugs = tagSlugs(query.tags)
  const key = `user ${username.toLowerCase()} ${query.sort} ${query.page} ${query.limit} ${slugs.join(',')} ${filterKey(filter)}`
  return cachedList(db, key, async () => listOfUser(db, username, slugs, query, filter), at)
}

/** Every account's name is made of these (the registration rule and OAuth's usernameBase). */
const POSSIBLE_USERNAME = /^[\w-]{1,100}$/

/** The account's own columns in a row of everythingPublic, named apart from the upload's. */
type OwnerColumns = { owner_id: string, owner_username: string, owner_created_at: string, owner_public_uploads: number }

/**
 * Everything public of the user: the account (the total is the count kept on
 * it) and the page. On PostgreSQL in one statement, the page joined to the
 * account, so that a name no account has gives no row and an account without
 * public uploads one row of NULL entry columns: the account read on its own
 * was a round trip of its own, about a quarter of an uncached page. On SQLite,
 * where a statement is a call in this process, the account first: there the
 * join materialised the page and sorted it again, and cost more than the call.
 */
async function everythingPublic(db: Executor, username: string, query: Paging & { sort: keyof typeof USER_SORTS }) {
  const order = USER_SORTS[query.sort]
  const page = (owner: Query) => sql`SELECT u.${ROW_KEY} AS rid FROM uploads u WHERE u.user_id = ${owner} AND u.is_private = 0
          ORDER BY ${order} ${pageWindow(query)}`
  if (db.dialect === 'sqlite') {
    const user = await accountNamed(db, username)
    const rows = await db.all<ListRow>(sql`SELECT ${ENTRY_COLUMNS}
        FROM (${page(sql`${user.id}`)}) p
        ${THEN_JOIN} uploads u ON u.${ROW_KEY} = p.rid ORDER BY ${order}`)
    return { user, uploads: await withTags(db, rows), total: Number(user.public_uploads) }
  }
  const rows = await db.all<Partial<ListRow> & OwnerColumns>(sql`SELECT us.id AS owner_id, us.username AS owner_username, us.created_at AS owner_created_at, us.public_uploads AS owner_public_uploads, ${ENTRY_COLUMNS}
    FROM users us
    LEFT JOIN (${page(sql`(SELECT id FROM users WHERE lower(username) = lower(${username}))`)}) p ON true
    LEFT JOIN uploads u ON u.${ROW_KEY} = p.rid
    WHERE lower(us.username) = lower(${username}) ORDER BY ${order}`)
  const owner = rows[0] ?? notFound()
  return {
    user: { id: owner.owner_id, username: owner.owner_username, created_at: owner.owner_created_at },
    uploads: await withTags(db, rows.filter(row => row.id != null) as ListRow[]),
    total: Number(owner.owner_public_uploads),
  }
}

/** The account of a name (any case), or a 404. */
async function accountNamed(db: Executor, username: string) {
  return await db.get<{ id: string, username: string, created_at: string, public_uploads: number }>(sql`SELECT id, username, created_at, public_uploads
    FROM users WHERE lower(username) = lower(${username})`) ?? notFound()
}

async function listOfUser(db: Executor, username: string, slugs: string[], query: Paging & { sort: keyof typeof USER_SORTS }, filter: CallerFilter) {
  if (!POSSIBLE_USERNAME.test(username)) notFound()
  const { user, uploads, total } = (slugs.length === 0 && !isFiltering(filter))
    ? await everythingPublic(db, username, query)
    : await narrowed(db, username, slugs, query, filter)
  return {
    user: { username: user.username, created_at: user.created_at },
    uploads,
    total,
    page: query.page,
    totalPages: Math.ceil(total / query.limit),
    limit: query.limit,
  }
}

function notFound(): never {
  throw apiError(404, 'User not found')
}

/** The user's public uploads narrowed by tags or the caller's filter: the account first, then the page and its counted total. */
async function narrowed(db: Executor, username: string, slugs: string[], query: Paging & { sort: keyof typeof USER_SORTS }, filter: CallerFilter) {
  const user = await accountNamed(db, username)
  const tagged = slugs.length === 0 ? undefined : await taggedSource(db, slugs, 'all')
  const order = USER_SORTS[query.sort]
  if (tagged === null) return { user, uploads: [], total: 0 }
  const found = tagged === undefined
    ? await pageWithTotal(db, sql`uploads u WHERE u.user_id = ${user.id} AND u.is_private = 0${filtering(filter)}`, order, query, { username: false })
    : await pageWithTotal(db, sql`${tagged} AND u.user_id = ${user.id}${filtering(filter)}`, order, query, { username: false, materialise: USER_SORT_COLUMNS[query.sort] })
  return { user, ...found }
}
