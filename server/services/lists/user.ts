/** GET /api/user/{username}/uploads: one account's public uploads. */
import type { Database, Executor } from '../../database/port'
import { sql } from '../../database/sql'
import { apiError } from '../errors'
import { cachedList, type DataVersion } from '../list-cache'
import { resolveSlugsIn } from '../tag-rules'
import { ENTRY_COLUMNS, withTags, type ListEntry, type ListRow } from './entry'
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
  return cachedList(db, key, async () => listOfUser(db, username, await resolveSlugsIn(db, slugs), query, filter), at)
}

/** Every account's name is made of these (the registration rule and OAuth's usernameBase). */
const POSSIBLE_USERNAME = /^[\w-]{1,100}$/

async function listOfUser(db: Executor, username: string, slugs: string[], query: Paging & { sort: keyof typeof USER_SORTS }, filter: CallerFilter) {
  if (!POSSIBLE_USERNAME.test(username)) throw apiError(404, 'User not found')
  const user = await db.get<{ id: string, username: string, created_at: string, public_uploads: number }>(sql`SELECT id, username, created_at, public_uploads
    FROM users WHERE lower(username) = lower(${username})`)
  if (!user) throw apiError(404, 'User not found')
  const tagged = slugs.length === 0 ? undefined : await taggedSource(db, slugs, 'all')
  const order = USER_SORTS[query.sort]
  let found: { uploads: ListEntry[], total: number }
  if (tagged === null) found = { uploads: [], total: 0 }
  else if (tagged === undefined && !isFiltering(filter)) {
    // Everything public of the user: the total is the count kept on the account.
    found = { uploads: await withTags(db, await db.all<ListRow>(sql`SELECT ${ENTRY_COLUMNS}
        FROM (SELECT u.${ROW_KEY} AS rid FROM uploads u WHERE u.user_id = ${user.id} AND u.is_private = 0
          ORDER BY ${order} ${pageWindow(query)}) p
        ${THEN_JOIN} uploads u ON u.${ROW_KEY} = p.rid ORDER BY ${order}`)),
    total: user.public_uploads }
  }
  else if (tagged === undefined) {
    found = await pageWithTotal(db, sql`uploads u WHERE u.user_id = ${user.id} AND u.is_private = 0${filtering(filter)}`, order, query, { username: false })
  }
  else {
    found = await pageWithTotal(db, sql`${tagged} AND u.user_id = ${user.id}${filtering(filter)}`, order, query, { username: false, materialise: USER_SORT_COLUMNS[query.sort] })
  }
  const { uploads, total } = found
  return {
    user: { username: user.username, created_at: user.created_at },
    uploads,
    total,
    page: query.page,
    totalPages: Math.ceil(total / query.limit),
    limit: query.limit,
  }
}
