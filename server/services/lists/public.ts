/** GET /api/uploads: the public uploads, newest or ranked, over all time or a period. */
import type { Database } from '../../database/port'
import { sql, type Query } from '../../database/sql'
import { cachedList, type DataVersion } from '../list-cache'
import { ENTRY_COLUMNS, withTags, type ListRow } from './entry'
import { narrowed, periodSince, PUBLIC_VIEW, viewConditions, viewKey, type ListView } from './filters'
import { newestPage } from './newest'
import { offset, pageWindow, type Paging } from './paging'
import { PERIOD_MERGE_MAX, periodPage, periodWalk } from './periods'
import { ROW_KEY, THEN_JOIN } from './pieces'
import { LIST_SORTS } from './sorts'

/** GET /api/uploads: public uploads in the view's order (no total). */
export function listUploads(db: Database, paging: Paging, view: ListView = PUBLIC_VIEW, at?: DataVersion) {
  return cachedList(db, `uploads ${paging.page} ${paging.limit} ${viewKey(view)}`, async () => {
    const order = LIST_SORTS[view.sort]
    const since = periodSince(view)
    const entries = (page: Query) => db.all<ListRow>(sql`SELECT ${ENTRY_COLUMNS}, us.username
    FROM (${page}) p
    ${THEN_JOIN} uploads u ON u.${ROW_KEY} = p.rid JOIN users us ON us.id = u.user_id
    ORDER BY ${order}`)
    let rows: ListRow[]
    if (since !== null && offset(paging) + paging.limit <= PERIOD_MERGE_MAX) {
      // A long period's page is first looked for among the ranking's first rows, in the
      // statement that reads its entries: a full page is the page (periodWalk).
      const walk = periodWalk(since, view, paging)
      const walked = walk && await entries(walk)
      rows = walked?.length === paging.limit ? walked : await entries(await periodPage(db, since, view, paging))
    }
    else {
      rows = await entries(db.dialect === 'postgres' && view.sort === 'new' && paging.page > 1 && !narrowed(view)
        ? await newestPage(db, paging)
        : sql`SELECT u.${ROW_KEY} AS rid FROM uploads u WHERE u.is_private = 0${viewConditions(view)} ORDER BY ${order} ${pageWindow(paging)}`)
    }
    return { uploads: await withTags(db, rows), page: paging.page, limit: paging.limit }
  }, at)
}
