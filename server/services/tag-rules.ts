import { MAX_TAGS_PER_UPLOAD } from '../../shared/utils/tags'
import type { Database, Executor } from '../database/port'
import { dialects, FOR_UPDATE, inList, sharedHold, sql, type Query } from '../database/sql'
import { apiError } from './errors'
import { cachedList, type DataVersion } from './list-cache'
import { logModeration } from './modlog'
import type { Actor } from './sessions'

/**
 * Tag aliases and implications (docs/behaviour.md, "Search"): an alias slug
 * resolves to its tag wherever a tag is read or written, and a tag brings the
 * tags it implies (transitively) onto every upload carrying it, within the tag
 * cap. Every write of an upload's tags holds the rules shared
 * (`holdTagRules`) before anything else, and a change of the rules holds them
 * alone, so a tag written while an alias or implication is added is either
 * resolved by it or moved and completed by it, on every instance.
 */
const RULES_LOCK = 'tag-rules'

/** Longest chain of implications (tag → implied → … counted in implications). */
export const MAX_IMPLICATION_CHAIN = 5

/** Slugs sorted by their bytes on both engines (PostgreSQL would use the database's collation). */
const BYTE_ORDER = dialects({ sqlite: '', postgres: ' COLLATE "C"' })

export const holdTagRules = (tx: Executor) => tx.lock(RULES_LOCK, 'shared')

/** `holdTagRules` for a write whose first statement looks its caller up (server/services/sessions.ts `callerIn`). */
export const TAG_RULES_HOLD = sharedHold(RULES_LOCK)

export interface NamedTag { name: string, slug: string }

/** The tags of aliased slugs among `slugs`, by alias slug. */
async function aliasTargets(db: Executor, slugs: readonly string[]): Promise<Map<string, NamedTag>> {
  if (slugs.length === 0) return new Map()
  const rows = await db.all<{ alias: string, name: string, slug: string }>(sql`SELECT a.slug AS alias, t.name, t.slug
    FROM tag_aliases a JOIN tags t ON t.id = a.tag_id WHERE a.slug ${inList([...slugs])}`)
  return new Map(rows.map(row => [row.alias, { name: row.name, slug: row.slug }]))
}

/** `slugs` with every alias replaced by its tag's slug, each once, in order. */
export async function resolveSlugsIn(db: Executor, slugs: readonly string[]): Promise<string[]> {
  const targets = await aliasTargets(db, slugs)
  return [...new Set(slugs.map(slug => targets.get(slug)?.slug ?? slug))]
}

/**
 * The tag slug of each alias among `slugs`, for a read outside a transaction:
 * kept like the lists (until the next write anywhere), so a kept answer's
 * request costs no query.
 */
export function aliasesAmong(db: Database, slugs: readonly string[], at?: DataVersion): Promise<ReadonlyMap<string, string>> {
  if (slugs.length === 0) return Promise.resolve(new Map())
  return cachedList(db, `tag-aliases ${slugs.join(',')}`, () => aliasSlugsIn(db, slugs), at)
}

/** The tag slug of each alias among `slugs`, read now (inside a transaction, or a kept answer's computation). */
export async function aliasSlugsIn(db: Executor, slugs: readonly string[]): Promise<ReadonlyMap<string, string>> {
  return new Map([...await aliasTargets(db, slugs)].map(([alias, tag]) => [alias, tag.slug]))
}

/** Every implication, by slug. */
async function implicationEdges(db: Executor): Promise<{ tag: NamedTag & { id: string }, implied: NamedTag & { id: string } }[]> {
  const rows = await db.all<{ tag_id: string, tag_name: string, tag_slug: string, implied_id: string, implied_name: string, implied_slug: string }>(sql`
    SELECT s.id AS tag_id, s.name AS tag_name, s.slug AS tag_slug, d.id AS implied_id, d.name AS implied_name, d.slug AS implied_slug
    FROM tag_implications i JOIN tags s ON s.id = i.tag_id JOIN tags d ON d.id = i.implied_tag_id
    ORDER BY s.slug${BYTE_ORDER}, d.slug${BYTE_ORDER}`)
  return rows.map(row => ({
    tag: { id: row.tag_id, name: row.tag_name, slug: row.tag_slug },
    implied: { id: row.implied_id, name: row.implied_name, slug: row.implied_slug },
  }))
}

type Edges = Awaited<ReturnType<typeof implicationEdges>>

/**
 * What a tag write needs of the rules, in one query (one round trip on
 * PostgreSQL instead of two): the tags of aliased slugs among `slugs`, as
 * aliasTargets gives them, and every implication, as implicationEdges does.
 */
async function rulesFor(tx: Executor, slugs: readonly string[]): Promise<{ targets: Map<string, NamedTag>, edges: Edges }> {
  const rows = await tx.all<{ kind: number, alias: string, tag_id: string, tag_name: string, tag_slug: string, implied_id: string, implied_name: string, implied_slug: string }>(sql`
    SELECT r.* FROM (
      SELECT 0 AS kind, a.slug AS alias, t.id AS tag_id, t.name AS tag_name, t.slug AS tag_slug, '' AS implied_id, '' AS implied_name, '' AS implied_slug
        FROM tag_aliases a JOIN tags t ON t.id = a.tag_id WHERE a.slug ${inList([...slugs])}
      UNION ALL
      SELECT 1, '', s.id, s.name, s.slug, d.id, d.name, d.slug
        FROM tag_implications i JOIN tags s ON s.id = i.tag_id JOIN tags d ON d.id = i.implied_tag_id
    ) r ORDER BY r.kind, r.tag_slug${BYTE_ORDER}, r.implied_slug${BYTE_ORDER}`)
  const targets = new Map<string, NamedTag>()
  const edges: Edges = []
  for (const row of rows) {
    if (row.kind === 0) targets.set(row.alias, { name: row.tag_name, slug: row.tag_slug })
    else edges.push({ tag: { id: row.tag_id, name: row.tag_name, slug: row.tag_slug }, implied: { id: row.implied_id, name: row.implied_name, slug: row.implied_slug } })
  }
  return { targets, edges }
}

/** The tags `slugs` imply, transitively, that are not among them: nearest first. */
function impliedBy(edges: Edges, slugs: readonly string[]): (NamedTag & { id: string })[] {
  const seen = new Set(slugs)
  const found: (NamedTag & { id: string })[] = []
  let frontier = [...slugs]
  while (frontier.length > 0) {
    const next: string[] = []
    for (const slug of frontier) {
      for (const edge of edges) {
        if (edge.tag.slug !== slug || seen.has(edge.implied.slug)) continue
        seen.add(edge.implied.slug)
        found.push(edge.implied)
        next.push(edge.implied.slug)
      }
    }
    frontier = next
  }
  return found
}

/**
 * The tag list an upload is to carry, from the one given (`kept` already on
 * it first, then `given`): aliases resolved, each slug once, then the implied
 * tags while there is room under the cap. Inside the caller's transaction,
 * which holds the rules (`holdTagRules`). `given` alone may break the cap: the
 * caller checks it as before.
 */
export async function completeTagList(tx: Executor, kept: readonly NamedTag[], given: readonly NamedTag[]): Promise<{ given: NamedTag[], implied: NamedTag[] }> {
  const { targets, edges } = await rulesFor(tx, given.map(tag => tag.slug))
  const keptSlugs = new Set(kept.map(tag => tag.slug))
  const resolved = new Map<string, NamedTag>()
  for (const tag of given) {
    const target = targets.get(tag.slug) ?? tag
    if (!keptSlugs.has(target.slug) && !resolved.has(target.slug)) resolved.set(target.slug, target)
  }
  const all = [...keptSlugs, ...resolved.keys()]
  const room = Math.max(0, MAX_TAGS_PER_UPLOAD - all.length)
  const implied = room === 0 ? [] : impliedBy(edges, all).slice(0, room).map(({ name, slug }) => ({ name, slug }))
  return { given: [...resolved.values()], implied }
}

/** Locks tag rows in byte order of their slugs (the order every tag write takes them in). */
async function lockTags(tx: Executor, ids: readonly string[]) {
  if (ids.length === 0) return
  await tx.all(sql`SELECT id FROM tags WHERE id ${inList([...ids])}
    ORDER BY ${dialects({ sqlite: 'slug', postgres: 'slug COLLATE "C"' })}${FOR_UPDATE}`)
}

/** Locks the uploads (`ids`: a list, or a statement giving them) in id order; returns their ids and kept tag ids. */
async function lockUploads(tx: Executor, ids: Query | readonly string[]): Promise<{ id: string, tag_ids: string }[]> {
  const where = Array.isArray(ids) ? inList(ids) : sql`IN (${ids as Query})`
  return tx.all<{ id: string, tag_ids: string }>(sql`SELECT id, tag_ids FROM uploads WHERE id ${where} ORDER BY id${FOR_UPDATE}`)
}

/**
 * Adds to each upload (locked by the caller) the tags its tags imply and it
 * lacks, nearest first, while it has room under the cap: an upload at 10
 * keeps its tags. Returns how many links were added.
 */
async function completeUploads(tx: Executor, uploads: readonly { id: string, tag_ids: string }[]): Promise<number> {
  const edges = await implicationEdges(tx)
  if (edges.length === 0 || uploads.length === 0) return 0
  const idToSlug = new Map<string, string>()
  for (const edge of edges) {
    idToSlug.set(edge.tag.id, edge.tag.slug)
    idToSlug.set(edge.implied.id, edge.implied.slug)
  }
  const links: { uploadId: string, tagId: string }[] = []
  for (const upload of uploads) {
    const ids = upload.tag_ids ? upload.tag_ids.split(',') : []
    const room = MAX_TAGS_PER_UPLOAD - ids.length
    if (room <= 0) continue
    const slugs = ids.map(id => idToSlug.get(id)).filter((slug): slug is string => slug !== undefined)
    const have = new Set(ids)
    for (const tag of impliedBy(edges, slugs).filter(tag => !have.has(tag.id)).slice(0, room)) links.push({ uploadId: upload.id, tagId: tag.id })
  }
  if (links.length === 0) return 0
  await lockTags(tx, [...new Set(links.map(link => link.tagId))])
  const last = new Map((await tx.all<{ upload_id: string, position: number }>(sql`SELECT upload_id, max(position) AS position FROM upload_tags
    WHERE upload_id ${inList([...new Set(links.map(link => link.uploadId))])} GROUP BY upload_id`)).map(row => [row.upload_id, Number(row.position)]))
  for (const link of links) {
    const position = (last.get(link.uploadId) ?? -1) + 1
    last.set(link.uploadId, position)
    await tx.run(sql`INSERT INTO upload_tags (upload_id, tag_id, position) VALUES (${link.uploadId}, ${link.tagId}, ${position})`)
  }
  return links.length
}

async function tagBySlug(tx: Executor, slug: string) {
  return tx.get<{ id: string, name: string, slug: string }>(sql`SELECT id, name, slug FROM tags WHERE slug = ${slug}`)
}

/**
 * POST /api/admin/tags/aliases: `from` resolves to the existing tag `to`
 * from now on; uploads carrying `from` carry `to` instead (once, where they
 * had both), completed by `to`'s implications; the kept counts follow by
 * their triggers. Logged.
 */
export async function addTagAlias(db: Executor, actor: Actor, input: { from: string, to: string }) {
  if (input.from === input.to) throw apiError(400, 'A tag cannot be an alias of itself')
  return db.transaction(async (tx) => {
    await tx.lock(RULES_LOCK)
    if (await tx.get(sql`SELECT 1 AS found FROM tag_aliases WHERE slug = ${input.to}`)) throw apiError(400, 'An alias cannot point to an alias')
    const target = await tagBySlug(tx, input.to)
    if (!target) throw apiError(404, 'Tag not found')
    if (await tx.get(sql`SELECT 1 AS found FROM tag_aliases WHERE slug = ${input.from}`)) throw apiError(409, 'Alias already exists')
    const source = await tagBySlug(tx, input.from)
    if (source) {
      if (await tx.get(sql`SELECT 1 AS found FROM tag_aliases WHERE tag_id = ${source.id}`)) throw apiError(400, 'A tag with aliases cannot become an alias')
      if (await tx.get(sql`SELECT 1 AS found FROM tag_implications WHERE tag_id = ${source.id} OR implied_tag_id = ${source.id}`)) {
        throw apiError(400, 'A tag with implications cannot become an alias')
      }
    }
    await tx.run(sql`INSERT INTO tag_aliases (slug, tag_id) VALUES (${input.from}, ${target.id})`)
    let moved = 0
    if (source) {
      // Upload rows first (id order), then the two tag rows in slug order: the lock order of every tag write.
      const uploads = await lockUploads(tx, sql`SELECT upload_id FROM upload_tags WHERE tag_id = ${source.id}`)
      moved = uploads.length
      if (moved > 0) {
        await lockTags(tx, [source.id, target.id])
        await tx.run(sql`INSERT INTO upload_tags (upload_id, tag_id, position)
          SELECT f.upload_id, ${target.id}, f.position FROM upload_tags f
          WHERE f.tag_id = ${source.id} AND NOT EXISTS (SELECT 1 FROM upload_tags b WHERE b.upload_id = f.upload_id AND b.tag_id = ${target.id})`)
        await tx.run(sql`DELETE FROM upload_tags WHERE tag_id = ${source.id}`)
        await completeUploads(tx, await lockUploads(tx, uploads.map(upload => upload.id)))
      }
    }
    await logModeration(tx, { actorId: actor.id, action: 'tag_alias_added', targetType: 'tag', targetId: target.id, note: `${input.from} → ${input.to}` })
    return { alias: { from: input.from, to: target.slug }, moved }
  })
}

/** DELETE /api/admin/tags/aliases/{from}: `from` is its own slug again (links already moved stay). Logged. */
export async function removeTagAlias(db: Executor, actor: Actor, from: string) {
  return db.transaction(async (tx) => {
    await tx.lock(RULES_LOCK)
    const alias = await tx.get<{ tag_id: string, slug: string }>(sql`SELECT a.tag_id, t.slug FROM tag_aliases a JOIN tags t ON t.id = a.tag_id WHERE a.slug = ${from}`)
    if (!alias) throw apiError(404, 'Alias not found')
    await tx.run(sql`DELETE FROM tag_aliases WHERE slug = ${from}`)
    await logModeration(tx, { actorId: actor.id, action: 'tag_alias_removed', targetType: 'tag', targetId: alias.tag_id, note: `${from} → ${alias.slug}` })
    return { success: true as const }
  })
}

/** The two tags of an implication, aliases resolved; 404 when either is no tag. */
async function implicationTags(tx: Executor, input: { tag: string, implies: string }) {
  const [tagSlug, impliesSlug] = [...(await resolveSlugsIn(tx, [input.tag])), ...(await resolveSlugsIn(tx, [input.implies]))] as [string, string]
  const tag = await tagBySlug(tx, tagSlug)
  const implied = await tagBySlug(tx, impliesSlug)
  if (!tag || !implied) throw apiError(404, 'Tag not found', { slugs: [...(tag ? [] : [tagSlug]), ...(implied ? [] : [impliesSlug])] })
  return { tag, implied }
}

/** The longest chain of implications that starts (`down`) or ends (`up`) at `id`. */
function longestChain(edges: Edges, id: string, direction: 'down' | 'up', depth = 0): number {
  if (depth > MAX_IMPLICATION_CHAIN) return depth
  let longest = 0
  for (const edge of edges) {
    const [from, to] = direction === 'down' ? [edge.tag.id, edge.implied.id] : [edge.implied.id, edge.tag.id]
    if (from === id) longest = Math.max(longest, 1 + longestChain(edges, to, direction, depth + 1))
  }
  return longest
}

/**
 * POST /api/admin/tags/implications: uploads carrying `tag` (or a tag that
 * implies it) get `implies` and what it implies, now and when tagged later,
 * within the cap. A cycle, or a chain of more than MAX_IMPLICATION_CHAIN
 * implications: 400 `Invalid implication`. Logged.
 */
export async function addTagImplication(db: Executor, actor: Actor, input: { tag: string, implies: string }) {
  return db.transaction(async (tx) => {
    await tx.lock(RULES_LOCK)
    const { tag, implied } = await implicationTags(tx, input)
    const edges = await implicationEdges(tx)
    if (edges.some(edge => edge.tag.id === tag.id && edge.implied.id === implied.id)) throw apiError(409, 'Implication already exists')
    const cycle = tag.id === implied.id || impliedBy(edges, [implied.slug]).some(found => found.id === tag.id)
    // `data.reason` tells which rule it breaks, for the admin screen to say.
    if (cycle) throw apiError(400, 'Invalid implication', { reason: 'cycle' })
    if (longestChain(edges, tag.id, 'up') + 1 + longestChain(edges, implied.id, 'down') > MAX_IMPLICATION_CHAIN) {
      throw apiError(400, 'Invalid implication', { reason: 'chain' })
    }
    await tx.run(sql`INSERT INTO tag_implications (tag_id, implied_tag_id) VALUES (${tag.id}, ${implied.id})`)
    // Uploads carrying the tag or any tag that implies it, transitively.
    const sources = [tag.id, ...edges.filter(edge => impliedBy(edges, [edge.tag.slug]).some(found => found.id === tag.id)).map(edge => edge.tag.id)]
    const uploads = await lockUploads(tx, sql`SELECT upload_id FROM upload_tags WHERE tag_id ${inList([...new Set(sources)])}`)
    const added = await completeUploads(tx, uploads)
    await logModeration(tx, { actorId: actor.id, action: 'tag_implication_added', targetType: 'tag', targetId: tag.id, note: `${tag.slug} → ${implied.slug}` })
    return { implication: { tag: tag.slug, implies: implied.slug }, added }
  })
}

/** DELETE /api/admin/tags/implications/{tag}/{implies}: later tagging no longer adds it (tags already added stay). Logged. */
export async function removeTagImplication(db: Executor, actor: Actor, input: { tag: string, implies: string }) {
  return db.transaction(async (tx) => {
    await tx.lock(RULES_LOCK)
    const { tag, implied } = await implicationTags(tx, input)
    const { changes } = await tx.run(sql`DELETE FROM tag_implications WHERE tag_id = ${tag.id} AND implied_tag_id = ${implied.id}`)
    if (changes === 0) throw apiError(404, 'Implication not found')
    await logModeration(tx, { actorId: actor.id, action: 'tag_implication_removed', targetType: 'tag', targetId: tag.id, note: `${tag.slug} → ${implied.slug}` })
    return { success: true as const }
  })
}

/** GET /api/admin/tags/rules: every alias and implication, by slug. */
export async function listTagRules(db: Executor) {
  const aliases = await db.all<{ from: string, to: string }>(sql`SELECT a.slug AS "from", t.slug AS "to" FROM tag_aliases a JOIN tags t ON t.id = a.tag_id ORDER BY a.slug${BYTE_ORDER}`)
  const edges = await implicationEdges(db)
  return { aliases, implications: edges.map(edge => ({ tag: edge.tag.slug, implies: edge.implied.slug })) }
}

/**
 * GET /api/tags/{slug}: a tag (an alias slug: its tag) with its public
 * uploads count, its aliases and its direct implications both ways. A tag
 * only private uploads carry, and no rule names, is not found (its name would
 * tell of them).
 */
export function tagDetail(db: Database, slug: string, at?: DataVersion) {
  return cachedList(db, `tag ${slug}`, async () => {
    const [resolved] = await resolveSlugsIn(db, [slug])
    const tag = await db.get<{ id: string, name: string, slug: string, count: number }>(sql`SELECT id, name, slug, public_uploads AS count FROM tags t
      WHERE slug = ${resolved!} AND (public_uploads > 0 OR EXISTS (SELECT 1 FROM tag_aliases a WHERE a.tag_id = t.id)
        OR EXISTS (SELECT 1 FROM tag_implications i WHERE i.tag_id = t.id OR i.implied_tag_id = t.id))`)
    if (!tag) throw apiError(404, 'Tag not found')
    const slugs = async (query: Query) => (await db.all<{ slug: string }>(query)).map(row => row.slug)
    return {
      tag: {
        ...tag,
        count: Number(tag.count),
        aliases: await slugs(sql`SELECT slug FROM tag_aliases WHERE tag_id = ${tag.id} ORDER BY slug${BYTE_ORDER}`),
        implies: await slugs(sql`SELECT t.slug FROM tag_implications i JOIN tags t ON t.id = i.implied_tag_id WHERE i.tag_id = ${tag.id} ORDER BY t.slug${BYTE_ORDER}`),
        impliedBy: await slugs(sql`SELECT t.slug FROM tag_implications i JOIN tags t ON t.id = i.tag_id WHERE i.implied_tag_id = ${tag.id} ORDER BY t.slug${BYTE_ORDER}`),
      },
    }
  }, at)
}

/** Suggest's `aliasOf`: the aliases among slugs starting with `prefix`, with their tag's name, slug and count (at most `limit`). */
export async function aliasesStartingWith(db: Executor, prefix: string, limit: number) {
  return db.all<{ alias: string, name: string, slug: string, count: number }>(sql`SELECT a.slug AS alias, t.name, t.slug, t.public_uploads AS count
    FROM tag_aliases a JOIN tags t ON t.id = a.tag_id
    WHERE a.slug LIKE ${`${prefix}%`} ESCAPE '\\' AND t.public_uploads > 0
    ORDER BY t.public_uploads DESC, a.slug${BYTE_ORDER} LIMIT ${limit}`)
}
