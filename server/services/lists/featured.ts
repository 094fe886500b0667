/** The front page's short lists (recent, top-voted) and the next upload to vote on. */
import type { Database, Executor } from '../../database/port'
import { sql } from '../../database/sql'
import { cachedList, type DataVersion } from '../list-cache'
import { ENTRY_COLUMNS, withTags, type ListRow } from './entry'
import { filterKey, filtering, NO_FILTER, UPLOAD_ID, type CallerFilter } from './filters'
import { ROW_KEY, THEN_JOIN } from './pieces'
import { FEATURE_ORDERS, NEWEST } from './sorts'

/** GET /api/items-recent and /api/items-top-voted: exactly the first 6 public uploads (as the caller's filter leaves them). */
export function featureList(db: Database, type: keyof typeof FEATURE_ORDERS, filter: CallerFilter = NO_FILTER, at?: DataVersion) {
  return cachedList(db, `${type} ${filterKey(filter)}`, async () => {
    const rows = await db.all<ListRow>(sql`SELECT ${ENTRY_COLUMNS}, us.username
    FROM (SELECT u.${ROW_KEY} AS rid FROM uploads u WHERE u.is_private = 0${filtering(filter, UPLOAD_ID, type === 'recent')} ORDER BY ${FEATURE_ORDERS[type]} LIMIT 6) p
    ${THEN_JOIN} uploads u ON u.${ROW_KEY} = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY ${FEATURE_ORDERS[type]}`)
    return { items: await withTags(db, rows), type }
  }, at)
}

/** A visitor without an account: the keyed hash of their IP and their fingerprint, as anonymous votes store them. */
export interface AnonymousVisitor { ipHash: string, fingerprint: string }

/**
 * GET /api/vote/next: the newest public upload the caller has not voted on
 * (an account: by its votes; a visitor: neither the IP hash nor the
 * fingerprint has voted on it), narrowed as the caller's lists are (`filter`:
 * the ratings shown and the hidden tags, docs/behaviour.md, Curation), or
 * null. Never cached.
 */
export async function nextToVote(db: Executor, caller: { userId: string } | AnonymousVisitor, filter: CallerFilter) {
  const notVoted = 'userId' in caller
    ? sql`NOT EXISTS (SELECT 1 FROM votes v WHERE v.user_id = ${caller.userId} AND v.upload_id = u.id)`
    : sql`NOT EXISTS (SELECT 1 FROM anonymous_votes a WHERE a.upload_id = u.id AND a.ip_hash = ${caller.ipHash})
      AND NOT EXISTS (SELECT 1 FROM anonymous_votes a WHERE a.upload_id = u.id AND a.fingerprint = ${caller.fingerprint})`
  const row = await db.get<ListRow>(sql`SELECT ${ENTRY_COLUMNS}, us.username
    FROM uploads u JOIN users us ON us.id = u.user_id
    WHERE u.is_private = 0 AND ${notVoted}${filtering(filter, undefined, true)}
    ORDER BY ${NEWEST} LIMIT 1`)
  return { upload: row ? (await withTags(db, [row]))[0]! : null }
}
