import type { RatingChoice } from '../../shared/utils/content-rating'
import type { Database, Executor } from '../database/port'
import { FOR_UPDATE, inList, sql, type Query } from '../database/sql'
import { apiError, unlessGone } from './errors'
import { cachedList, type DataVersion } from './list-cache'
import type { Actor } from './sessions'
import { visibleTo } from './upload-queries'
import { filtering, NO_FILTER, pageWindow, totalAndPage, type CallerFilter, type Paging } from './lists'

/**
 * PUT (`on`) and DELETE /api/upload/{id}/favourite: adds or removes the
 * caller's favourite, and answers whether they have it now and how many
 * accounts do. The same call again changes nothing. The upload must be
 * visible to the caller (else 404), except that a favourite they have on an
 * upload made private since can still be removed (docs/behaviour.md,
 * Community: favourites). Its row is locked first (its place in the lock order, as a
 * vote's), so the favourite's row and the count the trigger moves
 * (favourites_count) change one after another per upload, and an upload
 * deleted meanwhile is a 404 rather than a broken foreign key.
 */
export async function setFavourite(db: Executor, actor: Pick<Actor, 'id' | 'isAdmin'>, uploadId: string, on: boolean): Promise<{ favourited: boolean, favourites: number }> {
  if (db.dialect === 'postgres') return setFavouriteInOne(db, actor, uploadId, on)
  return db.transaction(async (tx) => {
    const upload = await tx.get<{ visible: number }>(sql`SELECT ${VISIBLE(actor)} AS visible FROM uploads u WHERE u.id = ${uploadId}${FOR_UPDATE}`)
    if (!upload || (on && upload.visible !== 1)) throw apiError(404, 'Upload not found')
    if (on) {
      await tx.run(sql`INSERT INTO favourites (user_id, upload_id) VALUES (${actor.id}, ${uploadId}) ON CONFLICT DO NOTHING`)
    }
    else {
      const removed = await tx.get(sql`DELETE FROM favourites WHERE user_id = ${actor.id} AND upload_id = ${uploadId} RETURNING 1 AS removed`)
      if (upload.visible !== 1 && !removed) throw apiError(404, 'Upload not found')
    }
    const row = await tx.get<{ favourites: number }>(sql`SELECT favourites FROM uploads WHERE id = ${uploadId}`)
    return { favourited: on, favourites: row!.favourites }
  })
}

/** 1 when the upload `u` is visible to the actor, else 0. */
const VISIBLE = (actor: Pick<Actor, 'id' | 'isAdmin'>) => sql`CASE WHEN ${visibleTo(actor)} THEN 1 ELSE 0 END`

/**
 * setFavourite on PostgreSQL as one statement, its own transaction: the
 * upload's row locked by the first part (before the favourite's foreign key
 * and the count's trigger, which run at the statement's end, touch it), the
 * favourite written from it, and the count as the lock found it plus the
 * change. It was five round trips (BEGIN, the lock, the write, the count,
 * COMMIT) with the row locked over four. The lock waits for a favourite in
 * flight on the upload and then reads its committed count, so the answer is
 * exact under concurrency. A removal locks the upload whether or not the
 * caller may see it; one the caller cannot see must remove a favourite.
 */
async function setFavouriteInOne(db: Executor, actor: Pick<Actor, 'id' | 'isAdmin'>, uploadId: string, on: boolean): Promise<{ favourited: boolean, favourites: number }> {
  const change = on
    ? sql`INSERT INTO favourites (user_id, upload_id) SELECT ${actor.id}, id FROM target ON CONFLICT DO NOTHING RETURNING 1`
    : sql`DELETE FROM favourites WHERE user_id = ${actor.id} AND upload_id IN (SELECT id FROM target) RETURNING 1`
  const row = await unlessGone(db.get<{ found: number, visible: number | null, changed: number, favourites: number | null }>(sql`WITH target AS (
      SELECT u.id, u.favourites, ${VISIBLE(actor)} AS visible FROM uploads u WHERE u.id = ${uploadId}${on ? sql` AND ${visibleTo(actor)}` : sql.raw('')}${FOR_UPDATE}
    ), changed AS (${change})
    SELECT (SELECT count(*) FROM target)::int AS found, (SELECT visible FROM target) AS visible, (SELECT count(*) FROM changed)::int AS changed,
      ((SELECT favourites FROM target) ${on ? sql.raw('+') : sql.raw('-')} (SELECT count(*) FROM changed))::int AS favourites`), () => apiError(404, 'Upload not found'))
  if (!row || row.found === 0) throw apiError(404, 'Upload not found')
  if (Number(row.visible) !== 1 && row.changed === 0) throw apiError(404, 'Upload not found')
  return { favourited: on, favourites: row.favourites! }
}

/** The ids among `uploadIds` the account has as favourites. */
export async function favouritedAmong(db: Executor, userId: string, uploadIds: readonly string[]): Promise<Set<string>> {
  if (uploadIds.length === 0) return new Set()
  const rows = await db.all<{ upload_id: string }>(sql`SELECT upload_id FROM favourites WHERE user_id = ${userId} AND upload_id ${inList(uploadIds)}`)
  return new Set(rows.map(row => row.upload_id))
}

/**
 * Copies of list entries, each with `favourited` for the account: a list
 * answer is shared by every caller (list-cache.ts), so the caller's own
 * field is added to a copy after the cache, never to the kept answer.
 */
export async function withFavourited<T extends { id: string }>(db: Executor, userId: string, entries: readonly T[]): Promise<(T & { favourited: boolean })[]> {
  const favourited = await favouritedAmong(db, userId, entries.map(entry => entry.id))
  return entries.map(entry => ({ ...entry, favourited: favourited.has(entry.id) }))
}

/** The newest favourite first; favourites made in the same millisecond by upload id. */
const NEWEST_FAVOURITE = sql`p.favourited_at DESC, p.upload_id DESC`

/**
 * A page of an account's favourites among the uploads `visible` allows (a
 * condition on `uploads u`), newest favourite first, with the total. The
 * page is read on favourites_user_newest_idx.
 */
async function favouritesPage(db: Executor, userId: string, visible: Query, paging: Paging) {
  const matched = sql`favourites f JOIN uploads u ON u.id = f.upload_id WHERE f.user_id = ${userId} AND ${visible}`
  const { uploads, total } = await totalAndPage(db, sql`SELECT count(*) AS total FROM ${matched}`,
    sql`SELECT f.upload_id, f.created_at AS favourited_at FROM ${matched} ORDER BY f.created_at DESC, f.upload_id DESC ${pageWindow(paging)}`,
    NEWEST_FAVOURITE, { username: true, join: sql`u.id = p.upload_id` })
  return { uploads, total: Number(total), page: paging.page, limit: paging.limit }
}

/** GET /api/profile/favourites: the caller's favourites they can still see (their own private uploads included), as their filter leaves them. */
export function listMyFavourites(db: Executor, actor: Pick<Actor, 'id' | 'isAdmin'>, paging: Paging, filter: CallerFilter = NO_FILTER) {
  return favouritesPage(db, actor.id, sql`${visibleTo(actor)}${filtering(filter)}`, paging)
}

/** Every account's name is made of these (the registration rule). */
const POSSIBLE_USERNAME = /^[\w-]{1,100}$/

/**
 * GET /api/user/{username}/favourites: the user's favourites among public
 * uploads, unless they turned the list off (publicFavourites: then 404, as
 * for a user who does not exist, but with its own message).
 */
export function listUserFavourites(db: Database, username: string, paging: Paging, filter: CallerFilter = NO_FILTER, at?: DataVersion) {
  return cachedList(db, `favourites ${username.toLowerCase()} ${paging.page} ${paging.limit} ${filter.ratings?.join(',') ?? '*'} ${filter.hiddenTags.join(',')}`, async () => {
    const user = await publicFavouritesOwner(db, username)
    return favouritesPage(db, user.id, sql`u.is_private = 0${filtering(filter)}`, paging)
  }, at)
}

/** The account whose favourites may be listed to anyone: 404 when there is none, or it keeps them private. */
export async function publicFavouritesOwner(db: Executor, username: string): Promise<{ id: string, username: string }> {
  const user = POSSIBLE_USERNAME.test(username)
    ? await db.get<{ id: string, username: string, public_favourites: number }>(sql`SELECT id, username, public_favourites
      FROM users WHERE lower(username) = lower(${username})`)
    : undefined
  if (!user) throw apiError(404, 'User not found')
  if (user.public_favourites !== 1) throw apiError(404, 'Favourites are private')
  return { id: user.id, username: user.username }
}

/** The preferences as GET /api/profile/preferences answers them. */
interface PreferencesRow { public_favourites: number, rating_explicit: RatingChoice, rating_suggestive: RatingChoice }

const PREFERENCE_COLUMNS = sql.raw('public_favourites, rating_explicit, rating_suggestive')

/** GET /api/profile/preferences: every preference of the account. */
export async function preferencesOf(db: Executor, userId: string) {
  return preferencesFrom(await db.get<PreferencesRow>(sql`SELECT ${PREFERENCE_COLUMNS} FROM users WHERE id = ${userId}`))
}

/** PUT /api/profile/preferences: sets what was given (in one statement), answers every preference. */
export async function setPreferences(db: Executor, userId: string, input: { publicFavourites?: boolean, explicit?: RatingChoice, suggestive?: RatingChoice }) {
  const sets = [
    ...(input.publicFavourites === undefined ? [] : [sql`public_favourites = ${input.publicFavourites ? 1 : 0}`]),
    ...(input.explicit === undefined ? [] : [sql`rating_explicit = ${input.explicit}`]),
    ...(input.suggestive === undefined ? [] : [sql`rating_suggestive = ${input.suggestive}`]),
  ]
  if (sets.length === 0) return preferencesOf(db, userId)
  return preferencesFrom(await db.get<PreferencesRow>(sql`UPDATE users SET ${sql.join(sets)} WHERE id = ${userId} RETURNING ${PREFERENCE_COLUMNS}`))
}

function preferencesFrom(row: PreferencesRow | undefined) {
  if (!row) throw apiError(401, 'Invalid or expired token')
  return { publicFavourites: row.public_favourites === 1, explicit: row.rating_explicit, suggestive: row.rating_suggestive }
}
