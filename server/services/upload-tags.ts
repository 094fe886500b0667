import { randomUUID } from 'node:crypto'
import { MAX_TAGS_PER_UPLOAD, parseTagName, TAG_NAME_MESSAGE } from '../../shared/utils/tags'
import type { Database, Executor, Row } from '../database/port'
import type { tags } from '../database/schema-postgres'
import { dialects, inList, sql } from '../database/sql'
import { apiError } from './errors'
import { cachedList, type DataVersion } from './list-cache'
import type { Actor } from './sessions'
import { completeTagList, holdTagRules, type NamedTag } from './tag-rules'
import { visibleTo } from './upload-queries'

export type TagRow = Pick<Row<typeof tags>, 'id' | 'name' | 'slug'>

/** The ids in an upload row's `tag_ids` (kept by the database from upload_tags), in order. */
export const tagIdsOf = (tagIds: string): string[] => (tagIds ? tagIds.split(',') : [])

/** The tags of an upload row's `tag_ids`, in the order they were added. */
export async function tagsFrom(db: Executor, tagIds: string): Promise<TagRow[]> {
  const ids = tagIdsOf(tagIds)
  const tags = await tagRows(db, ids)
  return ids.map(id => tags.get(id)!)
}

/** The tags of one upload, in the order they were added. */
export async function tagsOf(db: Executor, uploadId: string): Promise<TagRow[]> {
  const row = await db.get<{ tag_ids: string }>(sql`SELECT tag_ids FROM uploads WHERE id = ${uploadId}`)
  return tagsFrom(db, row?.tag_ids ?? '')
}

/**
 * Tag rows by id, kept by every instance. A tag row never changes once written
 * (the one upsert below keeps the first name, and no route renames or deletes
 * a tag), so what an instance keeps is never stale, on any engine or number
 * of instances. At most TAG_ROWS_KEPT; the oldest go first.
 */
const tagRowsKept = new Map<string, TagRow>()
const TAG_ROWS_KEPT = 50_000

/** The rows of tag ids: kept ones from memory, the others in one query. */
export async function tagRows(db: Executor, ids: readonly string[]): Promise<Map<string, TagRow>> {
  const rows = new Map<string, TagRow>()
  const missing = new Set<string>()
  for (const id of ids) {
    const kept = tagRowsKept.get(id)
    if (kept) rows.set(id, kept)
    else missing.add(id)
  }
  if (missing.size === 0) return rows
  for (const row of await db.all<TagRow>(sql`SELECT id, name, slug FROM tags WHERE id ${inList([...missing])}`)) {
    const tag = Object.freeze({ id: row.id, name: row.name, slug: row.slug })
    rows.set(tag.id, tag)
    if (tagRowsKept.size >= TAG_ROWS_KEPT) tagRowsKept.delete(tagRowsKept.keys().next().value!)
    tagRowsKept.set(tag.id, tag)
  }
  return rows
}

/**
 * Tag lists by the `tag_ids` they were read from, kept by every instance for
 * the reason tag rows are. A page's rows bring new strings, so finding each
 * tag by its id hashed every id again: a page of ten uploads with ten tags
 * each spent about 50 µs on its tags, about 7 µs by the whole value.
 * TAG_LISTS_KEPT at most (a ten-tag value is under 400 bytes); the oldest go
 * first.
 */
const tagListsKept = new Map<string, readonly TagRow[]>()
const TAG_LISTS_KEPT = 10_000

/**
 * The tags of each `tag_ids` value, in order: kept lists from memory, the
 * rest built from tagRows. Frozen, as pages share them. A list missing a tag
 * row is not kept (no tag row is ever deleted, so none should be missing).
 */
export async function tagLists(db: Executor, values: readonly string[]): Promise<(readonly TagRow[])[]> {
  const lists: (readonly TagRow[] | undefined)[] = values.map(value => tagListsKept.get(value))
  if (!lists.includes(undefined)) return lists as (readonly TagRow[])[]
  const tags = await tagRows(db, values.filter((_, i) => !lists[i]).flatMap(tagIdsOf))
  return values.map((value, i) => {
    const kept = lists[i]
    if (kept) return kept
    const ids = tagIdsOf(value)
    const list = Object.freeze(ids.map(id => tags.get(id)!))
    if (!ids.every(id => tags.has(id))) return list
    if (tagListsKept.size >= TAG_LISTS_KEPT) tagListsKept.delete(tagListsKept.keys().next().value!)
    tagListsKept.set(value, list)
    return list
  })
}

/**
 * The id of the one tag row of a slug, created with this name when there is
 * none yet. On SQLite, which writes one transaction at a time, a tag that
 * exists is only read: the upsert's no-op update rewrote the row and its slug
 * index entry, two more pages for the commit to write.
 */
export async function upsertTag(db: Executor, tag: { name: string, slug: string }, id: string = randomUUID()): Promise<string> {
  if (db.dialect === 'sqlite') {
    const existing = await db.get<{ id: string }>(sql`SELECT id FROM tags WHERE slug = ${tag.slug}`)
    if (existing) return existing.id
  }
  return (await db.get<{ id: string }>(sql`INSERT INTO tags (id, name, slug) VALUES (${id}, ${tag.name}, ${tag.slug})
    ON CONFLICT (slug) DO UPDATE SET slug = excluded.slug RETURNING id`))!.id
}

/**
 * The ids of tag rows by slug, each made with its name when there is none
 * yet, taken in the order given (the caller's lock order). On PostgreSQL one
 * statement for all of them: a tag row stays locked from its upsert to the
 * commit, and every round trip in between kept the uploads sharing a common
 * tag waiting on each other (a link upload made 15 more with 5 to 10 tags).
 * On SQLite, where a statement is a call in this process, one each. A row
 * made here gets its id from `made` when it has one for the slug (only slugs
 * that had no row: see NewTags).
 */
export async function upsertTags(tx: Executor, tags: readonly { name: string, slug: string }[], made?: ReadonlyMap<string, string>): Promise<Map<string, string>> {
  const ids = new Map<string, string>()
  const newId = (slug: string) => made?.get(slug) ?? randomUUID()
  if (tx.dialect === 'sqlite') {
    for (const tag of tags) ids.set(tag.slug, await upsertTag(tx, tag, newId(tag.slug)))
    return ids
  }
  if (tags.length === 0) return ids
  const rows = await tx.all<{ id: string, slug: string }>(upsertingTags(tags, newId))
  for (const row of rows) ids.set(row.slug, row.id)
  return ids
}

/** PostgreSQL: the upsert of upsertTags, answering each row's id and slug. */
const upsertingTags = (tags: readonly { name: string, slug: string }[], newId: (slug: string) => string) => sql`INSERT INTO tags (id, name, slug)
  SELECT t.id, t.name, t.slug FROM unnest(CAST(${tags.map(tag => newId(tag.slug))} AS text[]), CAST(${tags.map(tag => tag.name)} AS text[]),
    CAST(${tags.map(tag => tag.slug)} AS text[])) WITH ORDINALITY AS t(id, name, slug, n) ORDER BY t.n
  ON CONFLICT (slug) DO UPDATE SET slug = excluded.slug RETURNING id, slug`

/**
 * A link's copies of its upload's ranking columns (kept by triggers from then
 * on, docs/database.md "Kept counts"), and the upload's columns they copy.
 */
const LINK_COPIES = sql.raw('upload_created_at, upload_is_private, upload_upvotes, upload_downvote_count, upload_hot_score, upload_best_score, upload_divisive_score')
const UPLOAD_COPIED = sql.raw('created_at, is_private, upvotes, downvote_count, hot_score, best_score, divisive_score')

/** Links tag ids to an upload at positions from `first` on, in the order given; on PostgreSQL in one statement (see upsertTags). */
export async function linkTags(tx: Executor, uploadId: string, tagIds: readonly string[], first: number): Promise<void> {
  if (tx.dialect === 'sqlite') {
    // With the upload's rank copies, so the link goes into its ranking indexes once (migration 0044).
    let position = first
    for (const tagId of tagIds) {
      await tx.run(sql`INSERT INTO upload_tags (upload_id, tag_id, position, ${LINK_COPIES})
        SELECT ${uploadId}, ${tagId}, ${position++}, ${UPLOAD_COPIED} FROM uploads WHERE id = ${uploadId}`)
    }
    return
  }
  if (tagIds.length === 0) return
  await tx.run(sql`INSERT INTO upload_tags (upload_id, tag_id, position)
    SELECT ${uploadId}, t.tag_id, ${first} + t.n - 1 FROM unnest(CAST(${tagIds} AS text[])) WITH ORDINALITY AS t(tag_id, n)`)
}

/** PostgreSQL: the INSERT that links tag ids after the upload's last link (as its statement began), in the order given. */
export const appendingTags = (uploadId: string, tagIds: readonly string[]) => sql`INSERT INTO upload_tags (upload_id, tag_id, position)
  SELECT ${uploadId}, t.tag_id, (SELECT coalesce(max(position), -1) FROM upload_tags WHERE upload_id = ${uploadId}) + t.n
  FROM unnest(CAST(${tagIds} AS text[])) WITH ORDINALITY AS t(tag_id, n)`

/** The tags `names` name, by slug, first spelling kept; 400 on an invalid name. */
export function wantedTags(names: string[]): NamedTag[] {
  const wanted = new Map<string, string>()
  for (const raw of names) {
    const tag = parseTagName(raw)
    if (!tag) throw apiError(400, TAG_NAME_MESSAGE)
    if (!wanted.has(tag.slug)) wanted.set(tag.slug, tag.name)
  }
  return [...wanted].map(([slug, name]) => ({ name, slug }))
}

/**
 * The tags to add to an upload that has `existing`, in link order: `wanted`
 * resolved through the aliases, then the tags these imply while there is room
 * under the cap (server/services/tag-rules.ts). 400 when the upload would carry
 * more than 10 tags given. The caller holds the tag rules.
 */
export async function tagsToAdd(tx: Executor, existing: readonly NamedTag[], wanted: readonly NamedTag[]): Promise<NamedTag[]> {
  const { given, implied } = await completeTagList(tx, existing, wanted)
  if (existing.length + given.length > MAX_TAGS_PER_UPLOAD) throw apiError(400, `An upload can have at most ${MAX_TAGS_PER_UPLOAD} tags`)
  return [...given, ...implied]
}

/**
 * Takes the tag rows of `fresh` (made, or locked by the upsert) and links them
 * to the upload after its `first` links, in the order given. The rows are taken
 * in slug order before any link, so uploads tagged at once with the same tags
 * in other orders never wait on each other in turn: on PostgreSQL, 18 such
 * uploads made at once had deadlocked 5 times. Byte order, as the triggers that
 * hide and delete uploads lock tags (COLLATE "C").
 */
async function takeAndLinkTags(tx: Executor, uploadId: string, fresh: readonly NamedTag[], first: number, made?: ReadonlyMap<string, string>): Promise<void> {
  const inLockOrder = [...fresh].sort((a, b) => Buffer.compare(Buffer.from(a.slug), Buffer.from(b.slug)))
  if (tx.dialect === 'postgres' && fresh.length > 0) {
    // One statement: the rows taken in slug order, then linked in the order given. The links'
    // triggers run after it, on rows the statement already holds (docs/database.md, "Few round trips under a lock").
    await tx.run(sql`WITH taken AS (${upsertingTags(inLockOrder, slug => made?.get(slug) ?? randomUUID())})
      INSERT INTO upload_tags (upload_id, tag_id, position)
      SELECT ${uploadId}, taken.id, ${first} + l.n - 1 FROM unnest(CAST(${fresh.map(tag => tag.slug)} AS text[])) WITH ORDINALITY AS l(slug, n)
        JOIN taken ON taken.slug = l.slug ORDER BY l.n`)
    return
  }
  const ids = await upsertTags(tx, inLockOrder, made)
  await linkTags(tx, uploadId, fresh.map(({ slug }) => ids.get(slug)!), first)
}

/**
 * A new upload's tags, resolved; the id of each one's row (found, or to be
 * made with); and `made`, the ids of those that had no row, the only ones the
 * upsert is given. A found row's own id is never inserted again. PostgreSQL
 * checks ON CONFLICT (slug) before the insert and without a lock; with other
 * transactions taking the same tag, that check can pass, and the insert then
 * meets the row's id in tags_pkey, which the clause does not cover: 23505. A
 * fresh id meets no row there, and the insert into the slug's index catches
 * the conflict the check missed.
 */
export interface NewTags { tags: NamedTag[], ids: Map<string, string>, made: Map<string, string> }

/**
 * A new upload's tags, in two steps inside the transaction that inserts it
 * (no one else can see the row, so there is no savepoint, row lock or look-up
 * of tags it has). `resolveNewTags` checks the names, resolves them holding
 * the tag rules and finds their rows' ids, without locking them; the upload
 * row is then inserted with its `tag_ids` (`newTagIds`), so the links'
 * trigger finds them in place and does not write the row a second time.
 * `linkNewTags` takes the tag rows and links them, last, so on PostgreSQL
 * the tag rows, which every upload with a common tag waits for, are held only
 * through the links and the commit (docs/database.md, "Few round trips under
 * a lock"). A tag made meanwhile by another upload keeps that upload's id, and
 * the trigger then corrects `tag_ids`.
 */
export async function resolveNewTags(tx: Executor, names: string[]): Promise<NewTags> {
  const wanted = wantedTags(names)
  if (wanted.length === 0) return { tags: [], ids: new Map(), made: new Map() }
  await holdTagRules(tx)
  const tags = await tagsToAdd(tx, [], wanted)
  const found = await tx.all<{ id: string, slug: string }>(sql`SELECT id, slug FROM tags WHERE slug ${inList(tags.map(tag => tag.slug))}`)
  const ids = new Map(found.map(row => [row.slug, row.id]))
  const made = new Map(tags.filter(tag => !ids.has(tag.slug)).map(tag => [tag.slug, randomUUID()]))
  for (const [slug, id] of made) ids.set(slug, id)
  return { tags, ids, made }
}

/** The `tag_ids` of an upload row with these tags (as uploads.tag_ids keeps them: ids in link order). */
export const newTagIds = (tags: NewTags): string => tags.tags.map(tag => tags.ids.get(tag.slug)!).join(',')

/** The second step of tagging a new upload (resolveNewTags). */
export async function linkNewTags(tx: Executor, uploadId: string, tags: NewTags): Promise<void> {
  if (tags.tags.length > 0) await takeAndLinkTags(tx, uploadId, tags.tags, 0, tags.made)
}

/** An upload the actor may see: public, their own, or any when admin. 404 otherwise. */
async function visibleUpload(db: Executor, actor: Actor | null, uploadId: string): Promise<{ user_id: string, tag_ids: string }> {
  const upload = await db.get<{ user_id: string, tag_ids: string }>(sql`SELECT u.user_id, u.tag_ids FROM uploads u WHERE u.id = ${uploadId} AND ${visibleTo(actor)}`)
  if (!upload) throw apiError(404, 'Upload not found')
  return upload
}

/** GET /api/uploads/{id}/tags */
export async function listUploadTags(db: Executor, actor: Actor | null, uploadId: string) {
  return { tags: await tagsFrom(db, (await visibleUpload(db, actor, uploadId)).tag_ids) }
}

/**
 * GET /api/tags: tags on public uploads whose slug starts with `q`, most used
 * first. Kept like the lists (until the next write): every home page asks for
 * the 16 most used.
 */
export function searchTags(db: Database, query: { q: string, limit: number }, at?: DataVersion) {
  const prefix = query.q.toLowerCase().replace(/ +/g, '-').replace(/[\\%_]/g, '\\$&')
  return cachedList(db, `tags ${query.limit} ${prefix}`, async () => {
    const tags = await db.all<TagRow & { count: number }>(sql`SELECT id, name, slug, public_uploads AS count FROM tags
      WHERE public_uploads > 0 AND slug LIKE ${`${prefix}%`} ESCAPE '\\'
      ORDER BY public_uploads DESC, ${dialects({ sqlite: 'slug', postgres: 'slug COLLATE "C"' })} LIMIT ${query.limit}`)
    return { tags }
  }, at)
}
