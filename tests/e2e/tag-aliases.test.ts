import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { findDrift } from '../../server/database/kept-counts'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { expectMatchesOpenApi } from '../support/openapi'
import { makeAdmin, serverDatabase } from '../support/seed'
import { postUpload } from '../support/uploads'

// Tag aliases and implications on the shared server (docs/behaviour.md, Search).
let owner: TestUser
let admin: TestUser

beforeAll(async () => {
  [owner, admin] = await Promise.all([registerUser(), registerUser()])
  await makeAdmin(admin)
})

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`
const error = (statusCode: number, statusMessage: string, message: string) => ({ statusCode, statusMessage, message })

async function link(tags: string[], isPrivate = false, user = owner): Promise<string> {
  const response = await postUpload(user, {
    upload_type: 'link', description: `Alias ${randomUUID().slice(0, 8)}`, external_url: `https://example.com/${randomUUID()}`,
    tags: tags.join(', '), is_private: String(isPrivate),
  })
  expect(response.status).toBe(201)
  return response.body.upload.id as string
}

const tagsOf = async (id: string) => (await api(`/api/uploads/${id}/tags`, { token: owner.token })).body.tags.map((tag: { slug: string }) => tag.slug)
const ids = (body: { uploads: { id: string }[] }) => body.uploads.map(upload => upload.id).sort()
const addAlias = (body: unknown, user: TestUser | null = admin) => api('/api/admin/tags/aliases', { method: 'POST', body, token: user?.token })
const addImplication = (body: unknown, user: TestUser | null = admin) => api('/api/admin/tags/implications', { method: 'POST', body, token: user?.token })
const publicUploadsOf = async (slug: string) => (await serverDatabase().db.get<{ n: number }>(sql`SELECT public_uploads AS n FROM tags WHERE slug = ${slug}`))?.n
/**
 * The counts a tag rule moves. Other files on this shared server seed uploads with vote
 * counts of their own making (tests/support/seed.ts), which the vote recount would report.
 */
const TAG_COUNTS = new Set(['users.public_uploads', 'tags.public_uploads', 'tag_pairs.public_uploads', 'tag_triples.public_uploads', 'uploads.tag_ids', 'upload_tags.upload_*'])
const expectNoDrift = async () => expect((await findDrift(serverDatabase().db)).filter(drift => TAG_COUNTS.has(drift.name))).toEqual([])

describe('tag aliases', () => {
  it('move every link of `from` to `to` (once where both were), keep every count exact, and resolve `from` everywhere at once', async () => {
    const [from, to, other] = [unique('al-from'), unique('al-to'), unique('al-other')]
    const both = await link([from, to])
    const first = await link([from, other])
    const onlyTo = await link([to])
    const hidden = await link([from], true)
    // Cached answers the alias must not leave behind.
    expect(ids((await api(`/api/uploads/filtered?tags=${from}`)).body)).toEqual([both, first].sort())
    expect((await api(`/api/search?q=${from}`)).body.total).toBe(2)

    const created = await addAlias({ from, to })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({ alias: { from, to }, moved: 3 })
    await expectMatchesOpenApi('post', '/api/admin/tags/aliases', created)
    expect(await tagsOf(both)).toEqual([to])
    expect(await tagsOf(first)).toEqual([to, other]) // in `from`'s place
    expect(await tagsOf(hidden)).toEqual([to])
    await expectNoDrift()
    expect(await publicUploadsOf(from)).toBe(0)
    expect(await publicUploadsOf(to)).toBe(3)

    const everyone = [both, first, onlyTo].sort()
    expect(ids((await api(`/api/uploads/filtered?tags=${from}`)).body)).toEqual(everyone)
    // A tag's page looks the alias up in its own statement: its total is `to`'s, not the emptied `from`'s.
    const ranked = await api(`/api/uploads/filtered?tags=${from}&sort=top`)
    expect({ ids: ids(ranked.body), total: ranked.body.total }).toEqual({ ids: everyone, total: 3 })
    // Every way to a page of tags resolves the alias: two tags' pages, their match whole, a period.
    const listed = async (query: string) => {
      const { body } = await api(`/api/uploads/filtered?${query}`)
      return { ids: ids(body), total: body.total }
    }
    const onlyFirst = { ids: [first], total: 1 }
    const all3 = { ids: everyone, total: 3 }
    expect(await listed(`tags=${from},${other}`)).toEqual(onlyFirst)
    expect(await listed(`tags=${from},${other}&sort=favourites`)).toEqual(onlyFirst)
    expect(await listed(`tags=${from},${to}`)).toEqual(all3) // two names of one tag
    expect(await listed(`tags=${from},${to}&match=any`)).toEqual(all3)
    expect(await listed(`tags=${from},${other}&match=any`)).toEqual(all3)
    expect(await listed(`tags=${from},${other}&match=any&sort=favourites`)).toEqual(all3)
    expect(await listed(`tags=${from}&sort=favourites`)).toEqual(all3)
    expect(await listed(`tags=${from}&sort=top&period=week`)).toEqual(all3)
    expect(ids((await api(`/api/user/${owner.username}/uploads?tags=${from},${other}`)).body)).toEqual([first])
    expect(ids((await api(`/api/search?q=${from} -${other}`)).body)).toEqual([both, onlyTo].sort())
    expect((await api(`/feeds/tag/${from}.json`)).body.items.map((item: { id: string }) => item.id).sort()).toEqual(everyone)
    const tag = await api(`/api/tags/${from}`)
    expect(tag.status).toBe(200)
    expect(tag.body).toEqual({ tag: { id: expect.any(String), name: to, slug: to, count: 3, aliases: [from], implies: [], impliedBy: [] } })
    await expectMatchesOpenApi('get', '/api/tags/{slug}', tag)
    expect((await api(`/api/tags/${to}`)).body).toEqual(tag.body)
    const suggested = await api(`/api/search/suggest?q=${from.slice(0, 12)}`)
    expect(suggested.body.tags).toContainEqual({ name: from, slug: from, count: 3, aliasOf: to })
    await expectMatchesOpenApi('get', '/api/search/suggest', suggested)

    // Tagging with the alias writes its tag: at upload, on edit, and in hidden tags.
    const later = await link([from, 'Alias Later'])
    expect(await tagsOf(later)).toEqual([to, 'alias-later'])
    const edited = await api(`/api/upload/${onlyTo}`, { method: 'PATCH', body: { tags: [other, from, to] }, token: owner.token })
    expect(edited.status).toBe(200)
    expect(edited.body.upload.tags.map((t: { slug: string }) => t.slug)).toEqual([to, other])
    const viewer = await registerUser()
    expect((await api('/api/profile/filters', { method: 'PUT', body: { hiddenTags: [from] }, token: viewer.token })).status).toBe(200)
    expect(ids((await api(`/api/uploads/filtered?tags=${other}`, { token: viewer.token })).body)).toEqual([])
    await expectNoDrift()

    const log = await serverDatabase().db.all<{ action: string, target_type: string, target_label: string, note: string }>(sql`SELECT action, target_type, target_label, note
      FROM moderation_log WHERE target_id = ${tag.body.tag.id} ORDER BY created_at`)
    expect(log).toEqual([{ action: 'tag_alias_added', target_type: 'tag', target_label: to, note: `${from} → ${to}` }])
    const modlog = await api('/api/admin/modlog?limit=100', { token: admin.token })
    expect(modlog.body.entries).toContainEqual(expect.objectContaining({ action: 'tag_alias_added', targetType: 'tag', targetId: tag.body.tag.id, targetLabel: to, targetExists: true }))

    // Removed: `from` is its own tag again; the links moved stay.
    const removed = await api(`/api/admin/tags/aliases/${from}`, { method: 'DELETE', token: admin.token })
    expect(removed.status).toBe(200)
    expect(removed.body).toEqual({ success: true })
    await expectMatchesOpenApi('delete', '/api/admin/tags/aliases/{from}', removed)
    expect((await api(`/api/admin/tags/aliases/${from}`, { method: 'DELETE', token: admin.token })).body).toEqual(error(404, 'Not Found', 'Alias not found'))
    const own = await link([from])
    expect(await tagsOf(own)).toEqual([from])
    // The tags' sizes kept to choose a pair's way still hold `to`'s for `from`: the page reads `from` itself.
    expect(await listed(`tags=${from},${to}`)).toEqual({ ids: [], total: 0 })
    expect(await listed(`tags=${from},${to}&match=any`)).toEqual({ ids: [...everyone, later, own].sort(), total: 5 })
    expect((await api(`/api/tags/${to}`)).body.tag.aliases).toEqual([])
    expect((await serverDatabase().db.get<{ n: number }>(sql`SELECT count(*) AS n FROM moderation_log WHERE target_id = ${tag.body.tag.id} AND action = 'tag_alias_removed'`))!.n).toBe(1)
  })

  it('refuse chains, repeats, unknown targets, bad slugs and callers who are not admins', async () => {
    const [a, b, c] = [unique('ch-a'), unique('ch-b'), unique('ch-c')]
    await link([b, c])
    expect((await addAlias({ from: a, to: b })).status).toBe(201) // `a` need not be a tag yet
    expect((await addAlias({ from: c, to: a })).body).toEqual(error(400, 'Bad Request', 'An alias cannot point to an alias'))
    expect((await addAlias({ from: b, to: c })).body).toEqual(error(400, 'Bad Request', 'A tag with aliases cannot become an alias'))
    expect((await addAlias({ from: a, to: c })).body).toEqual(error(409, 'Conflict', 'Alias already exists'))
    expect((await addAlias({ from: c, to: c })).body).toEqual(error(400, 'Bad Request', 'A tag cannot be an alias of itself'))
    expect((await addAlias({ from: c, to: unique('nothing') })).body).toEqual(error(404, 'Not Found', 'Tag not found'))
    expect((await addAlias({ from: 'Not A Slug', to: c })).body).toMatchObject(error(400, 'Bad Request', 'Invalid tag'))
    expect((await addAlias({ from: c })).body).toMatchObject(error(400, 'Bad Request', 'Invalid tag'))
    expect((await addAlias({ from: c, to: b }, owner)).status).toBe(403)
    expect((await addAlias({ from: c, to: b }, null)).status).toBe(401)
    expect((await api(`/api/admin/tags/aliases/${a}`, { method: 'DELETE', token: owner.token })).status).toBe(403)
    expect((await api('/api/tags/NOT%20A%20SLUG')).body).toMatchObject(error(400, 'Bad Request', 'Invalid tag'))
    expect((await api(`/api/tags/${unique('nothing')}`)).body).toEqual(error(404, 'Not Found', 'Tag not found'))
  })

  it('added while 10 uploads carry `from` leave every one on `to`, with exact counts', async () => {
    const [from, to] = [unique('par-from'), unique('par-to')]
    await link([to])
    const [alias, ...uploads] = await Promise.all([
      addAlias({ from, to }),
      ...Array.from({ length: 10 }, () => link([from])),
    ])
    expect(alias!.status).toBe(201)
    for (const id of uploads as string[]) expect(await tagsOf(id)).toEqual([to])
    expect(await publicUploadsOf(to)).toBe(11)
    expect((await publicUploadsOf(from)) ?? 0).toBe(0)
    await expectNoDrift()
  })
})

describe('tag implications', () => {
  it('add the implied tags (transitively) to uploads now and later, within the cap of 10', async () => {
    const [a, b, c] = [unique('im-a'), unique('im-b'), unique('im-c')]
    const plain = await link([a])
    const full = await link([a, ...Array.from({ length: 9 }, (_, i) => `${a}-f${i}`)])
    await link([b, c])
    const created = await addImplication({ tag: a, implies: b })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({ implication: { tag: a, implies: b }, added: 1 })
    await expectMatchesOpenApi('post', '/api/admin/tags/implications', created)
    expect(await tagsOf(plain)).toEqual([a, b])
    expect((await tagsOf(full))).toHaveLength(10)
    expect(await tagsOf(full)).not.toContain(b)

    expect((await addImplication({ tag: b, implies: c })).body).toEqual({ implication: { tag: b, implies: c }, added: 1 })
    expect(await tagsOf(plain)).toEqual([a, b, c])
    expect(await tagsOf(await link([a]))).toEqual([a, b, c])
    const edited = await link([c])
    expect((await api(`/api/upload/${edited}`, { method: 'PATCH', body: { tags: [a] }, token: owner.token })).body.upload.tags.map((t: { slug: string }) => t.slug)).toEqual([c, a, b])
    // Nine given and two implied: the given nine, then one implied while there is room.
    const crowded = await link([a, ...Array.from({ length: 8 }, (_, i) => `${a}-g${i}`)])
    expect(await tagsOf(crowded)).toEqual([a, ...Array.from({ length: 8 }, (_, i) => `${a}-g${i}`), b])
    await expectNoDrift()

    const tag = await api(`/api/tags/${b}`)
    expect(tag.body.tag).toMatchObject({ slug: b, aliases: [], implies: [c], impliedBy: [a] })
    const rules = await api('/api/admin/tags/rules', { token: admin.token })
    expect(rules.body.implications).toEqual(expect.arrayContaining([{ tag: a, implies: b }, { tag: b, implies: c }]))
    await expectMatchesOpenApi('get', '/api/admin/tags/rules', rules)

    expect((await addImplication({ tag: c, implies: a })).body).toEqual({ ...error(400, 'Bad Request', 'Invalid implication'), data: { reason: 'cycle' } })
    expect((await addImplication({ tag: a, implies: a })).body).toEqual({ ...error(400, 'Bad Request', 'Invalid implication'), data: { reason: 'cycle' } })
    expect((await addImplication({ tag: a, implies: b })).body).toEqual(error(409, 'Conflict', 'Implication already exists'))
    const nothing = unique('nothing')
    expect((await addImplication({ tag: a, implies: nothing })).body).toEqual({ ...error(404, 'Not Found', 'Tag not found'), data: { slugs: [nothing] } })
    expect((await addImplication({ tag: a, implies: c }, owner)).status).toBe(403)

    const removed = await api(`/api/admin/tags/implications/${b}/${c}`, { method: 'DELETE', token: admin.token })
    expect(removed.body).toEqual({ success: true })
    await expectMatchesOpenApi('delete', '/api/admin/tags/implications/{tag}/{implies}', removed)
    expect((await api(`/api/admin/tags/implications/${b}/${c}`, { method: 'DELETE', token: admin.token })).body).toEqual(error(404, 'Not Found', 'Implication not found'))
    expect(await tagsOf(await link([a]))).toEqual([a, b])
    expect(await tagsOf(plain)).toEqual([a, b, c]) // added ones stay
    const actions = await serverDatabase().db.all<{ action: string }>(sql`SELECT action FROM moderation_log WHERE note IN (${`${a} → ${b}`}, ${`${b} → ${c}`}) ORDER BY created_at`)
    expect(actions.map(row => row.action)).toEqual(['tag_implication_added', 'tag_implication_added', 'tag_implication_removed'])
  })

  it('refuse a chain of more than 5 implications', async () => {
    const chain = Array.from({ length: 7 }, (_, i) => unique(`len${i}`))
    await link(chain)
    for (let i = 0; i < 4; i++) expect((await addImplication({ tag: chain[i], implies: chain[i + 1] })).status).toBe(201)
    // Joined in the middle: 0→…→4 and 5→6 would make 6 implications.
    expect((await addImplication({ tag: chain[5], implies: chain[6] })).status).toBe(201)
    expect((await addImplication({ tag: chain[4], implies: chain[5] })).body).toEqual({ ...error(400, 'Bad Request', 'Invalid implication'), data: { reason: 'chain' } })
    expect((await api(`/api/admin/tags/implications/${chain[5]}/${chain[6]}`, { method: 'DELETE', token: admin.token })).status).toBe(200)
    expect((await addImplication({ tag: chain[4], implies: chain[5] })).status).toBe(201) // exactly 5
  })
})
