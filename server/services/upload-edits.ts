import type { EditUploadInput, RevisionChanges } from '../../shared/schemas/upload-edits'
import type { ModerationAction } from '../../shared/schemas/modlog'
import type { ContentRating } from '../../shared/utils/content-rating'
import { parseTagName, slugify } from '../../shared/utils/tags'
import type { Executor, Row } from '../database/port'
import type { uploads } from '../database/schema-postgres'
import { FOR_UPDATE, inList, sql, type Query } from '../database/sql'
import { apiError } from './errors'
import { etagOf, ifMatchHolds } from './etags'
import { logModeration } from './modlog'
import { callerIn, type Actor, type Caller } from './sessions'
import { completeTagList, holdTagRules, resolveSlugsIn, TAG_RULES_HOLD } from './tag-rules'
import { appendingTags, linkTags, tagIdsOf, tagRows, tagsFrom, tagsToAdd, upsertTags, wantedTags } from './upload-tags'
import type { UploadRow } from './lists'
import { fullUploadOf, getUploadForViewer, selectFullUpload, type FullUpload } from './uploads'
import { visibleTo } from './upload-queries'

type EditRow = Pick<Row<typeof uploads>, 'id' | 'user_id' | 'description' | 'upload_type' | 'external_url' | 'tag_ids' | 'revision' | 'locked' | 'rating'>

/** What an upload's editable part is: its description, its link, its rating and its tags (in order). */
interface EditableState {
  description: string
  externalUrl: string | null
  rating: ContentRating
  tags: { name: string, slug: string }[]
}

/** A change to apply as one new revision. */
interface Change {
  description?: string
  externalUrl?: string
  rating?: ContentRating
  /** The complete new tag list. */
  tags?: { name: string, slug: string }[]
}

interface Editor {
  actor: Pick<Actor, 'id' | 'isAdmin'>
  reason: string | null
  /** The moderation log action when an admin changes someone else's upload (none for the owner). */
  logAs: ModerationAction
  /** The log entry's note, when not the reason. */
  note?: string
}

/**
 * The upload's row, locked for the change (the upload row first, as every
 * write to its links: docs/database.md, "Locks and their order"), when the
 * actor may see it; 404 otherwise.
 */
async function lockVisibleUpload(tx: Executor, actor: Pick<Actor, 'id' | 'isAdmin'>, uploadId: string): Promise<EditRow> {
  const row = await tx.get<EditRow>(sql`SELECT u.id, u.user_id, u.description, u.upload_type, u.external_url, u.tag_ids, u.revision, u.locked, u.rating
    FROM uploads u WHERE u.id = ${uploadId} AND ${visibleTo(actor)}${FOR_UPDATE}`)
  if (!row) throw apiError(404, 'Upload not found')
  return row
}

/** 403 unless the actor may edit this upload: its owner while it is not locked, or an admin. */
function assertMayEdit(row: EditRow, actor: Pick<Actor, 'id' | 'isAdmin'>): void {
  if (actor.isAdmin) return
  if (row.user_id !== actor.id) throw apiError(403, 'Not your upload')
  if (row.locked === 1) throw apiError(403, 'Upload is locked')
}

async function stateOf(tx: Executor, row: EditRow): Promise<EditableState> {
  const tags = await tagsFrom(tx, row.tag_ids)
  return { description: row.description, externalUrl: row.external_url, rating: row.rating, tags: tags.map(tag => ({ name: tag.name, slug: tag.slug })) }
}

/** What going from `before` to `after` changes; null when nothing does. */
function diff(before: EditableState, after: Change): RevisionChanges | null {
  const changes: RevisionChanges = { tagsAdded: [], tagsRemoved: [] }
  if (after.description !== undefined && after.description !== before.description) changes.description = { from: before.description, to: after.description }
  if (after.externalUrl !== undefined && after.externalUrl !== before.externalUrl) changes.externalUrl = { from: before.externalUrl, to: after.externalUrl }
  if (after.rating !== undefined && after.rating !== before.rating) changes.rating = { from: before.rating, to: after.rating }
  if (after.tags) {
    const was = new Set(before.tags.map(tag => tag.slug))
    const will = new Set(after.tags.map(tag => tag.slug))
    changes.tagsAdded = after.tags.filter(tag => !was.has(tag.slug)).map(tag => tag.slug)
    changes.tagsRemoved = before.tags.filter(tag => !will.has(tag.slug)).map(tag => tag.slug)
  }
  const changed = changes.description || changes.externalUrl || changes.rating || changes.tagsAdded.length > 0 || changes.tagsRemoved.length > 0
  return changed ? changes : null
}

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))

/**
 * Writes one change as the upload's next revision, inside the caller's
 * transaction that locked the upload row: the tag rows it touches in slug
 * order (made, or locked), then the links removed and added (the kept counts
 * follow by their triggers), the upload's own columns, the revision and, for
 * an admin's change of someone else's upload, the moderation log entry.
 * Returns the upload as `viewer` now sees it and the revision, in the order
 * an edit that changes nothing answers them.
 */
async function applyChange(tx: Executor, row: EditRow, change: Change, changes: RevisionChanges, editor: Editor): Promise<{ upload: FullUpload, revision: number }> {
  // Logged first, so the entry names the upload as the admin found it.
  if (row.user_id !== editor.actor.id) {
    await logModeration(tx, { actorId: editor.actor.id, action: editor.logAs, targetType: 'upload', targetId: row.id, note: editor.note ?? editor.reason })
  }
  const added = (change.tags ?? []).filter(tag => changes.tagsAdded.includes(tag.slug))
  const removed = new Set(changes.tagsRemoved)
  const gone = [...(await tagRows(tx, tagIdsOf(row.tag_ids))).values()].filter(tag => removed.has(tag.slug))
  const goneIds = gone.map(tag => tag.id)
  const now = new Date().toISOString()
  // Only the columns that change: SQLite rewrites an index entry whenever its column is set, even to the same value.
  const set = [
    ...(changes.description ? [sql`description = ${changes.description.to}`] : []),
    ...(changes.externalUrl ? [sql`external_url = ${changes.externalUrl.to}`] : []),
    ...(changes.rating ? [sql`rating = ${changes.rating.to}`] : []),
    sql`edited_at = ${now}`,
    sql`revision = revision + 1`,
  ]
  const record = (revision: Query) => sql`INSERT INTO upload_revisions (upload_id, revision, actor_id, changes, reason, created_at)
    SELECT ${row.id}, ${revision}, ${editor.actor.id}, ${JSON.stringify(changes)}, ${editor.reason}, ${now}`
  // A removed tag's link moves to an added tag (its counts follow by their triggers, migration 0045):
  // one link row written instead of one deleted and one inserted. The moved link goes last, as a new
  // one would. Links left over are deleted, or added after the last.
  const ids = await upsertTags(tx, (tx.dialect === 'postgres' ? [...added, ...gone] : added).sort((a, b) => byteOrder(a.slug, b.slug)))
  const addedIds = changes.tagsAdded.map(slug => ids.get(slug)!)
  const moves = addedIds.slice(0, goneIds.length).map((to, i) => ({ from: goneIds[i]!, to }))
  const unlinked = goneIds.slice(moves.length)
  const linked = addedIds.slice(moves.length)
  const unlink = sql`DELETE FROM upload_tags WHERE upload_id = ${row.id} AND tag_id ${inList(unlinked)}`
  if (tx.dialect === 'sqlite') {
    // One transaction at a time: no row locks to order, and no round trips to save.
    if (addedIds.length > 0) {
      const last = (await tx.get<{ position: number | null }>(sql`SELECT max(position) AS position FROM upload_tags WHERE upload_id = ${row.id}`))?.position ?? -1
      for (const [i, move] of moves.entries()) {
        await tx.run(sql`UPDATE upload_tags SET tag_id = ${move.to}, position = ${last + 1 + i} WHERE upload_id = ${row.id} AND tag_id = ${move.from}`)
      }
      await linkTags(tx, row.id, linked, last + 1 + moves.length)
    }
    if (unlinked.length > 0) await tx.run(unlink)
    const { revision } = (await tx.get<{ revision: number }>(sql`UPDATE uploads SET ${sql.join(set)} WHERE id = ${row.id} RETURNING revision`))!
    await tx.run(record(sql`${revision}`))
    return { upload: (await getUploadForViewer(tx, row.id, editor.actor))!, revision }
  }
  // PostgreSQL, in as few round trips as the kept counts allow. The tag rows the change touches were
  // made or locked above in one upsert in byte order (as the triggers lock them), so two edits of
  // uploads sharing tags never wait on each other in a circle (docs/database.md, "Locks and their
  // order"). Each link change is a statement of its own, as the tag pair counts' statement triggers
  // read the links a statement leaves; the last goes into the statement that writes the upload's
  // row with the tag_ids its links then give (the kept ones in order, then the new ones: the links'
  // triggers leave the row alone), its revision, and answers the upload as the editor now sees it.
  const changesOfLinks = [
    ...moves.map(move => sql`UPDATE upload_tags SET tag_id = ${move.to},
      position = (SELECT max(position) + 1 FROM upload_tags WHERE upload_id = ${row.id}) WHERE upload_id = ${row.id} AND tag_id = ${move.from}`),
    ...(unlinked.length > 0 ? [unlink] : []),
    ...(linked.length > 0 ? [appendingTags(row.id, linked)] : []),
  ]
  for (const statement of changesOfLinks.slice(0, -1)) await tx.run(statement)
  const last = changesOfLinks.at(-1)
  const tagIds = [...tagIdsOf(row.tag_ids).filter(id => !goneIds.includes(id)), ...addedIds].join(',')
  if (tagIds !== row.tag_ids) set.push(sql`tag_ids = ${tagIds}`)
  const upload = (await tx.get<UploadRow>(sql`WITH ${sql.join([
    ...(last ? [sql`links AS (${last})`] : []),
    sql`changed AS (UPDATE uploads SET ${sql.join(set)} WHERE id = ${row.id} RETURNING *)`,
    sql`revised AS (${record(sql`changed.revision`)} FROM changed)`,
  ])} ${selectFullUpload(editor.actor, sql`changed`)}`))!
  return { upload: await fullUploadOf(tx, upload), revision: upload.revision }
}

/** The names and slugs of a tag list as given (already per the tag rule and one per slug). */
const parsedTags = (names: string[]) => names.map(name => parseTagName(name)!)

/** A complete tag list as the upload is to carry it: aliases resolved, implied tags added within the cap (server/services/tag-rules.ts). */
async function withTagRules(tx: Executor, tags: { name: string, slug: string }[]) {
  const { given, implied } = await completeTagList(tx, [], tags)
  return [...given, ...implied]
}

/**
 * PATCH /api/upload/{id}: the owner (unless locked) or an admin changes the
 * description, the rating, the complete tag list or a link's URL as one revision
 * (docs/behaviour.md, Curation). `ifMatch` is the request's If-Match: stale
 * (the upload's GET answer has another ETag now) → 412. A change to nothing
 * new answers the current revision. The caller's session, when looked up here,
 * is read by the statement that holds the tag rules.
 */
export async function editUpload(db: Executor, caller: Caller, uploadId: string, input: EditUploadInput, ifMatch?: string) {
  return db.transaction(async (tx) => {
    const actor = await callerIn(tx, caller, TAG_RULES_HOLD)
    const row = await lockVisibleUpload(tx, actor, uploadId)
    assertMayEdit(row, actor)
    if (ifMatch !== undefined) {
      const current = await getUploadForViewer(tx, uploadId, actor)
      if (!ifMatchHolds(ifMatch, etagOf(JSON.stringify(current)))) throw apiError(412, 'Upload changed')
    }
    if (input.externalUrl !== undefined && row.upload_type !== 'link') throw apiError(400, 'Not a link')
    const change: Change = { description: input.description, externalUrl: input.externalUrl, rating: input.rating, tags: input.tags && await withTagRules(tx, parsedTags(input.tags)) }
    const changes = diff(await stateOf(tx, row), change)
    if (!changes) return { upload: (await getUploadForViewer(tx, uploadId, actor))!, revision: row.revision }
    return applyChange(tx, row, change, changes, { actor, reason: input.reason ?? null, logAs: 'upload_edited' })
  })
}

/** DELETE /api/uploads/{id}/tags/{slug}: the owner (unless locked) or an admin removes one tag; a revision when it was there. */
export async function removeUploadTag(db: Executor, actor: Actor, uploadId: string, slug: string) {
  return db.transaction(async (tx) => {
    await holdTagRules(tx)
    const row = await lockVisibleUpload(tx, actor, uploadId)
    assertMayEdit(row, actor)
    const state = await stateOf(tx, row)
    const [wanted] = await resolveSlugsIn(tx, [slugify(slug)])
    const change: Change = { tags: state.tags.filter(tag => tag.slug !== wanted) }
    const changes = diff(state, change)
    if (!changes) return { success: true as const, tags: await tagsFrom(tx, row.tag_ids), removed: 0 as const }
    const { upload } = await applyChange(tx, row, change, changes, { actor, reason: null, logAs: 'upload_edited' })
    return { success: true as const, tags: upload.tags, removed: 1 as const }
  })
}

/**
 * POST /api/uploads/{id}/tags: the owner (unless locked) or an admin adds tags
 * after the upload's own, aliases resolved and implied tags added within the
 * cap; one revision when any is new. 400 on an invalid name, or when the tags
 * given would take the upload past 10. An admin's tags on someone else's
 * upload are logged (`tag_added`, the names given as the note).
 */
export async function addUploadTags(db: Executor, actor: Actor, uploadId: string, names: string[]) {
  const wanted = wantedTags(names)
  return db.transaction(async (tx) => {
    await holdTagRules(tx)
    const row = await lockVisibleUpload(tx, actor, uploadId)
    if (row.user_id !== actor.id && !actor.isAdmin) throw apiError(403, 'Only the owner or an admin can add tags')
    assertMayEdit(row, actor)
    const state = await stateOf(tx, row)
    const change: Change = { tags: [...state.tags, ...await tagsToAdd(tx, state.tags, wanted)] }
    const changes = diff(state, change)
    if (!changes) return { success: true as const, tags: await tagsFrom(tx, row.tag_ids), added: 0 }
    const { upload } = await applyChange(tx, row, change, changes, { actor, reason: null, logAs: 'tag_added', note: names.join(', ') })
    return { success: true as const, tags: upload.tags, added: changes.tagsAdded.length }
  })
}

type RevisionRow = { revision: number, actor_id: string | null, username: string | null, changes: string, reason: string | null, created_at: string }

/** GET /api/upload/{id}/history: newest first, for whoever may see the upload. */
export async function uploadHistory(db: Executor, actor: Pick<Actor, 'id' | 'isAdmin'> | null, uploadId: string, query: { page: number, limit: number }) {
  const upload = await db.get<{ id: string }>(sql`SELECT u.id FROM uploads u WHERE u.id = ${uploadId} AND ${visibleTo(actor)}`)
  if (!upload) throw apiError(404, 'Upload not found')
  const { total } = (await db.get<{ total: number }>(sql`SELECT count(*) AS total FROM upload_revisions WHERE upload_id = ${uploadId}`))!
  const rows = await db.all<RevisionRow>(sql`SELECT r.revision, r.actor_id, us.username, r.changes, r.reason, r.created_at
    FROM upload_revisions r LEFT JOIN users us ON us.id = r.actor_id
    WHERE r.upload_id = ${uploadId} ORDER BY r.revision DESC LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}`)
  return {
    revisions: rows.map(row => ({
      revision: row.revision,
      actor: row.actor_id !== null && row.username !== null ? { id: row.actor_id, username: row.username } : null,
      changes: JSON.parse(row.changes) as RevisionChanges,
      reason: row.reason,
      createdAt: row.created_at,
    })),
    total: Number(total),
    page: query.page,
    limit: query.limit,
  }
}

/**
 * The editable state as it was at `revision`: the current one with every
 * later revision's changes undone, newest first.
 */
async function stateAt(tx: Executor, row: EditRow, revision: number): Promise<EditableState> {
  const state = await stateOf(tx, row)
  const later = await tx.all<{ changes: string }>(sql`SELECT changes FROM upload_revisions
    WHERE upload_id = ${row.id} AND revision > ${revision} ORDER BY revision DESC`)
  let description = state.description
  let externalUrl = state.externalUrl
  let rating = state.rating
  let slugs = state.tags.map(tag => tag.slug)
  for (const { changes } of later) {
    const change = JSON.parse(changes) as RevisionChanges
    if (change.description?.from != null) description = change.description.from
    if (change.externalUrl) externalUrl = change.externalUrl.from
    if (change.rating?.from != null) rating = change.rating.from as ContentRating
    slugs = [...slugs.filter(slug => !change.tagsAdded.includes(slug)), ...change.tagsRemoved.filter(slug => !slugs.includes(slug))]
  }
  const names = slugs.length === 0
    ? new Map<string, string>()
    : new Map((await tx.all<{ slug: string, name: string }>(sql`SELECT slug, name FROM tags WHERE slug ${inList(slugs)}`)).map(tag => [tag.slug, tag.name]))
  return { description, externalUrl, rating, tags: slugs.filter(slug => names.has(slug)).map(slug => ({ name: names.get(slug)!, slug })) }
}

/** POST /api/admin/uploads/{id}/revert: an admin restores a revision's description, link, rating and tags as a new revision. */
export async function revertUpload(db: Executor, actor: Actor, uploadId: string, input: { revision: number, note?: string }) {
  return db.transaction(async (tx) => {
    await holdTagRules(tx)
    const row = await lockVisibleUpload(tx, actor, uploadId)
    if (input.revision > row.revision) throw apiError(404, 'Revision not found')
    const target = await stateAt(tx, row, input.revision)
    const change: Change = { description: target.description, rating: target.rating, tags: await withTagRules(tx, target.tags), ...(target.externalUrl === null ? {} : { externalUrl: target.externalUrl }) }
    const changes = diff(await stateOf(tx, row), change)
    const editor: Editor = { actor, reason: input.note ?? `Reverted to revision ${input.revision}`, logAs: 'upload_reverted' }
    // An admin's revert of their own upload is logged too: reverting is a moderation act.
    if (changes && row.user_id === actor.id) {
      await logModeration(tx, { actorId: actor.id, action: 'upload_reverted', targetType: 'upload', targetId: uploadId, note: editor.reason })
    }
    if (!changes) return { upload: (await getUploadForViewer(tx, uploadId, actor))!, revision: row.revision }
    return applyChange(tx, row, change, changes, editor)
  })
}

/** POST /api/admin/uploads/{id}/lock: an admin locks (only admins may edit) or unlocks an upload; logged either way. */
export async function lockUpload(db: Executor, actor: Actor, uploadId: string, input: { locked: boolean, note?: string }) {
  return db.transaction(async (tx) => {
    const row = await lockVisibleUpload(tx, actor, uploadId)
    const locked = input.locked ? 1 : 0
    if (row.locked !== locked) {
      await tx.run(sql`UPDATE uploads SET locked = ${locked} WHERE id = ${uploadId}`)
      await logModeration(tx, { actorId: actor.id, action: input.locked ? 'upload_locked' : 'upload_unlocked', targetType: 'upload', targetId: uploadId, note: input.note })
    }
    return { upload: (await getUploadForViewer(tx, uploadId, actor))! }
  })
}
