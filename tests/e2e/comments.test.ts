import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, errorBody, registerUser, type TestUser } from '../support/api'
import { makeAdmin, seedUpload, serverDatabase } from '../support/seed'
import { sharedServer } from '../support/shared-server'

// Comments on the shared server: the thread, replies, the 24-hour edit window, deletion,
// votes, shadow-banned authors, hostile Markdown, and uploads.comments (a kept count).

const post = (user: TestUser | null, uploadId: string, body: unknown) =>
  api(`/api/upload/${uploadId}/comments`, { method: 'POST', token: user?.token, body })
const list = (uploadId: string, query = '', user?: TestUser) => api(`/api/upload/${uploadId}/comments${query}`, { token: user?.token })
const edit = (user: TestUser, id: string, body: unknown) => api(`/api/comments/${id}`, { method: 'PATCH', token: user.token, body })
const remove = (user: TestUser, id: string) => api(`/api/comments/${id}`, { method: 'DELETE', token: user.token })
const reportComment = (user: TestUser | null, id: string, body: unknown) => api(`/api/comments/${id}/report`, { method: 'POST', token: user?.token, body })
const resolve = (admin: TestUser, reportId: string, body: unknown) => api(`/api/admin/reports/${reportId}/resolve`, { method: 'POST', token: admin.token, body })
/** A comment's group in the queue, by its report ids (any limit-100 page holds this file's few groups). */
const commentGroup = async (admin: TestUser, commentId: string, status = 'open') =>
  (await api(`/api/admin/reports?status=${status}&limit=100`, { token: admin.token })).body.reports
    .find((entry: { items: { id: string }[] }) => entry.items.some(item => entryComment.get(commentId)?.has(item.id)))
/** Report ids filed on each comment, so a resolved group (its comment gone) is still found. */
const entryComment = new Map<string, Set<string>>()
async function filed(user: TestUser, commentId: string, body: unknown) {
  const response = await reportComment(user, commentId, body)
  expect(response.status).toBe(201)
  entryComment.set(commentId, (entryComment.get(commentId) ?? new Set()).add(response.body.report.id))
  return response.body.report as { id: string }
}
const modlogOf = async (admin: TestUser, targetId: string) =>
  (await api('/api/admin/modlog?limit=20', { token: admin.token })).body.entries.filter((entry: { targetId: string }) => entry.targetId === targetId)
const vote = (user: TestUser, id: string, value: unknown) => api(`/api/comments/${id}/vote`, { method: 'PUT', token: user.token, body: { vote: value } })

/** The kept count, and a count from scratch. */
async function counts(uploadId: string) {
  const row = await serverDatabase().db.get<{ kept: number, counted: number }>(sql`SELECT comments AS kept,
    (SELECT count(*) FROM comments c WHERE c.upload_id = ${uploadId} AND c.deleted = 0
      AND NOT EXISTS (SELECT 1 FROM users us WHERE us.id = c.author_id AND us.shadow_banned = 1)) AS counted
    FROM uploads WHERE id = ${uploadId}`)
  return { kept: Number(row!.kept), counted: Number(row!.counted) }
}

async function posted(user: TestUser, uploadId: string, body: string, parentId?: string) {
  const response = await post(user, uploadId, { body, ...(parentId ? { parentId } : {}) })
  expect(response.status).toBe(201)
  return response.body.comment as { id: string, parentId: string | null, html: string }
}

describe('comments', () => {
  it('are posted, answered with the rendering, listed with paging, sorts and replies one level deep', async () => {
    const [owner, alice, bob] = await Promise.all([registerUser(), registerUser(), registerUser()])
    const uploadId = await seedUpload(owner)
    const first = await post(alice, uploadId, { body: '  Hello *there*  ' })
    expect(first.status).toBe(201)
    expect(first.body).toEqual({ comment: {
      id: expect.any(String), author: { id: alice.id, username: alice.username }, body: 'Hello *there*', html: '<p>Hello <em>there</em></p>',
      parentId: null, createdAt: expect.any(String), editedAt: null, score: 0, myVote: null, deleted: false,
    } })
    const a = first.body.comment.id as string
    const b = (await posted(bob, uploadId, 'second')).id
    const c = (await posted(alice, uploadId, 'third')).id
    const reply = await posted(bob, uploadId, 'a reply', a)
    expect(reply.parentId).toBe(a)
    // A reply to a reply attaches to its top-level comment.
    const nested = await posted(alice, uploadId, 'a reply to the reply', reply.id)
    expect(nested.parentId).toBe(a)
    expect((await vote(bob, b, 'up')).body).toEqual({ score: 1, myVote: 'up' })

    const newest = await list(uploadId, '?limit=2')
    expect(newest.status).toBe(200)
    // `total` pages the three top-level comments; `count` is all five shown, replies included.
    expect(newest.body).toMatchObject({ total: 3, count: 5, page: 1, limit: 2 })
    expect(newest.body.comments.map((x: { id: string }) => x.id)).toEqual([c, b])
    const page2 = await list(uploadId, '?limit=2&page=2')
    expect(page2.body.comments.map((x: { id: string }) => x.id)).toEqual([a])
    expect(page2.body.comments[0].replies.map((x: { id: string, parentId: string }) => [x.id, x.parentId])).toEqual([[reply.id, a], [nested.id, a]])
    expect(page2.body.comments[0].replies[0]).not.toHaveProperty('replies')
    expect((await list(uploadId, '?sort=old')).body.comments.map((x: { id: string }) => x.id)).toEqual([a, b, c])
    expect((await list(uploadId, '?sort=top')).body.comments.map((x: { id: string }) => x.id)).toEqual([b, c, a])
    expect((await list(uploadId, '?sort=top', bob)).body.comments[0]).toMatchObject({ id: b, score: 1, myVote: 'up' })
    expect((await list(uploadId, '?page=9')).body.comments).toEqual([])
    for (const [query, message] of [['?sort=best', 'Invalid sort'], ['?page=0', 'Invalid page'], ['?limit=x', 'Invalid limit']]) {
      const refused = await list(uploadId, query)
      expect(refused.status).toBe(400)
      expect(errorBody(refused)).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message })
    }
    // The count on the full object and list entries.
    expect((await api(`/api/upload/${uploadId}`)).body.comments).toBe(5)
    expect(await counts(uploadId)).toEqual({ kept: 5, counted: 5 })
  })

  it('refuse visitors, bad bodies, unknown uploads, others\' private ones and bad parents', async () => {
    const [owner, other] = await Promise.all([registerUser(), registerUser()])
    const uploadId = await seedUpload(owner)
    const elsewhere = await seedUpload(owner)
    const hidden = await seedUpload(owner, { isPrivate: true })
    expect(errorBody(await post(null, uploadId, { body: 'x' }))).toEqual({ statusCode: 401, statusMessage: 'Unauthorized', message: 'Authentication required' })
    for (const [body, message] of [
      [{ body: '' }, 'Comment must not be empty'], [{ body: '   ' }, 'Comment must not be empty'],
      [{ body: 'x'.repeat(2001) }, 'Comment must be at most 2000 characters'], [{ body: '😀'.repeat(2001) }, 'Comment must be at most 2000 characters'],
      [{ body: 5 }, 'Invalid body'],
      [{ body: 'a\u0000b' }, 'Text must not contain NUL characters'],
    ] as const) {
      const refused = await post(other, uploadId, body)
      expect(refused.status).toBe(400)
      expect(errorBody(refused)).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message })
    }
    expect((await posted(other, uploadId, 'y'.repeat(2000))).html).toBe(`<p>${'y'.repeat(2000)}</p>`)
    // Characters are code points: 2000 emoji (4000 UTF-16 units) are 2000 characters.
    expect((await posted(other, uploadId, '😀'.repeat(2000))).html).toBe(`<p>${'😀'.repeat(2000)}</p>`)
    for (const target of [hidden, randomUUID(), 'not-a-uuid']) {
      expect(errorBody(await post(other, target, { body: 'x' }))).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Upload not found' })
      expect(errorBody(await list(target, '', other))).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Upload not found' })
    }
    // Comments on a private upload: whoever can see it (the owner, an admin).
    const mine = await posted(owner, hidden, 'private note')
    expect((await list(hidden, '', owner)).body.comments.map((x: { id: string }) => x.id)).toEqual([mine.id])
    expect(errorBody(await post(other, uploadId, { body: 'x', parentId: randomUUID() }))).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Comment not found' })
    expect(errorBody(await post(other, uploadId, { body: 'x', parentId: mine.id }))).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Comment not found' })
    const foreign = await posted(other, elsewhere, 'on another upload')
    expect(errorBody(await post(other, uploadId, { body: 'x', parentId: foreign.id })))
      .toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'The parent comment belongs to another upload' })
    const parent = await posted(other, uploadId, 'parent')
    await posted(owner, uploadId, 'child', parent.id)
    expect((await remove(other, parent.id)).status).toBe(200)
    expect(errorBody(await post(owner, uploadId, { body: 'x', parentId: parent.id })))
      .toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Cannot reply to a deleted comment' })
  })

  it('store Markdown and only sanitised HTML: no script, no raw HTML, no images, only http(s) and mailto links', async () => {
    const [owner, author] = await Promise.all([registerUser(), registerUser()])
    const uploadId = await seedUpload(owner)
    const cases: [string, string][] = [
      ['<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
      ['[x](javascript:alert(1))', '<p>[x](javascript:alert(1))</p>'],
      ['![i](http://example.com/a.png)', '<p>!<a href="http://example.com/a.png" rel="nofollow ugc noopener">i</a></p>'],
      ['<img src=x onerror=alert(1)> <b>raw</b>', '<p>&lt;img src=x onerror=alert(1)&gt; &lt;b&gt;raw&lt;/b&gt;</p>'],
      ['[ok](https://example.com/?a=1&b=2) and [m](mailto:a@example.com)',
        '<p><a href="https://example.com/?a=1&amp;b=2" rel="nofollow ugc noopener">ok</a> and <a href="mailto:a@example.com" rel="nofollow ugc noopener">m</a></p>'],
      ['> quote\n\n- **a**\n- `b`', '<blockquote>\n<p>quote</p>\n</blockquote>\n<ul>\n<li><strong>a</strong></li>\n<li><code>b</code></li>\n</ul>'],
    ]
    for (const [body, html] of cases) {
      const comment = await posted(author, uploadId, body)
      expect(comment.html).toBe(html)
      const stored = await serverDatabase().db.get<{ body: string, html: string }>(sql`SELECT body, html FROM comments WHERE id = ${comment.id}`)
      expect(stored).toEqual({ body, html })
    }
    const preview = await api('/api/comments/preview', { method: 'POST', token: author.token, body: { body: '<script>x</script> *hi*' } })
    expect(preview).toMatchObject({ status: 200, body: { html: '<p>&lt;script&gt;x&lt;/script&gt; <em>hi</em></p>' } })
  })

  it('are edited by their author within 24 hours only', async () => {
    const [owner, author] = await Promise.all([registerUser(), registerUser()])
    const uploadId = await seedUpload(owner)
    const comment = await posted(author, uploadId, 'before')
    const edited = await edit(author, comment.id, { body: 'after **now**' })
    expect(edited.status).toBe(200)
    expect(edited.body.comment).toMatchObject({ id: comment.id, body: 'after **now**', html: '<p>after <strong>now</strong></p>', editedAt: expect.any(String) })
    expect(errorBody(await edit(owner, comment.id, { body: 'hijack' }))).toEqual({ statusCode: 403, statusMessage: 'Forbidden', message: 'Only the author may edit a comment' })
    expect(errorBody(await edit(author, randomUUID(), { body: 'x' }))).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Comment not found' })
    expect((await edit(author, comment.id, { body: '' })).status).toBe(400)
    // Posted 24 hours and a minute ago: too late.
    const old = randomUUID()
    await serverDatabase().db.run(sql`INSERT INTO comments (id, upload_id, author_id, body, html, created_at)
      VALUES (${old}, ${uploadId}, ${author.id}, 'old', '<p>old</p>', ${new Date(Date.now() - 24 * 3600_000 - 60_000).toISOString()})`)
    expect(errorBody(await edit(author, old, { body: 'late' })))
      .toEqual({ statusCode: 403, statusMessage: 'Forbidden', message: 'A comment can only be edited within 24 hours of posting' })
  })

  it('are deleted by their author or an admin: with replies they stay as deleted, without they go', async () => {
    const [owner, author, replier, admin] = await Promise.all([registerUser(), registerUser(), registerUser(), registerUser()])
    await makeAdmin(admin)
    const uploadId = await seedUpload(owner)
    const lone = await posted(author, uploadId, 'lone')
    const parent = await posted(author, uploadId, 'parent')
    const child = await posted(replier, uploadId, 'child', parent.id)
    expect(errorBody(await remove(owner, lone.id))).toEqual({ statusCode: 403, statusMessage: 'Forbidden', message: 'Only the author or an admin may delete a comment' })
    expect(await remove(author, lone.id)).toMatchObject({ status: 200, body: { success: true } })
    expect(errorBody(await remove(author, lone.id))).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Comment not found' })
    expect((await remove(author, parent.id)).status).toBe(200)
    const thread = (await list(uploadId)).body
    // The deleted parent still holds its reply's place; only the reply is counted.
    expect([thread.total, thread.count]).toEqual([1, 1])
    expect(thread.comments[0]).toMatchObject({ id: parent.id, deleted: true, body: '', html: '', replies: [{ id: child.id, body: 'child' }] })
    expect(await counts(uploadId)).toEqual({ kept: 1, counted: 1 })
    expect(errorBody(await vote(author, parent.id, 'up'))).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Comment not found' })
    // An admin removes the reply (logged); the deleted parent goes with its last reply.
    expect((await remove(admin, child.id)).status).toBe(200)
    expect((await list(uploadId)).body).toMatchObject({ comments: [], total: 0 })
    expect(await counts(uploadId)).toEqual({ kept: 0, counted: 0 })
    const log = await api('/api/admin/modlog?limit=5', { token: admin.token })
    expect(log.body.entries.find((entry: { targetId: string }) => entry.targetId === child.id))
      .toMatchObject({ action: 'comment_removed', targetType: 'comment', targetLabel: 'child', actor: { id: admin.id, username: admin.username } })
  })

  it('stay their author\'s to edit and delete once the upload is made private; no one else may', async () => {
    const [owner, author, other] = await Promise.all([registerUser(), registerUser(), registerUser()])
    const uploadId = await seedUpload(owner, { description: 'Soon private' })
    const edited = await posted(author, uploadId, 'to edit')
    const deleted = await posted(author, uploadId, 'to delete')
    const privacy = await api(`/api/upload/${uploadId}/privacy`, { method: 'PATCH', token: owner.token, body: { is_private: true } })
    expect(privacy.status).toBe(200)
    // The author no longer sees the upload or its thread.
    expect((await list(uploadId, '', author)).status).toBe(404)
    const notFound = { statusCode: 404, statusMessage: 'Not Found', message: 'Comment not found' }
    expect(errorBody(await edit(other, edited.id, { body: 'hijack' }))).toEqual(notFound)
    expect(errorBody(await remove(other, deleted.id))).toEqual(notFound)
    // Their own comment, still: the answer is the comment alone, nothing of the upload.
    const answer = await edit(author, edited.id, { body: 'edited *later*' })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ comment: expect.objectContaining({ id: edited.id, body: 'edited *later*', html: '<p>edited <em>later</em></p>' }) })
    expect(JSON.stringify(answer.body)).not.toContain(uploadId)
    expect(JSON.stringify(answer.body)).not.toContain('Soon private')
    expect(await remove(author, deleted.id)).toMatchObject({ status: 200, body: { success: true } })
    expect(errorBody(await remove(author, deleted.id))).toEqual(notFound)
    // The owner's thread shows what the author left.
    const thread = (await list(uploadId, '', owner)).body
    expect(thread.comments.map((comment: { id: string, body: string }) => [comment.id, comment.body])).toEqual([[edited.id, 'edited *later*']])
    expect(await counts(uploadId)).toEqual({ kept: 1, counted: 1 })
  })

  it('keep a vote its voter\'s to withdraw once the upload is made private; nothing else', async () => {
    const [owner, voter, other] = await Promise.all([registerUser(), registerUser(), registerUser()])
    const uploadId = await seedUpload(owner, { description: 'Voted, then private' })
    const comment = await posted(owner, uploadId, 'vote, then hide')
    expect((await vote(voter, comment.id, 'up')).body).toEqual({ score: 1, myVote: 'up' })
    expect((await api(`/api/upload/${uploadId}/privacy`, { method: 'PATCH', token: owner.token, body: { is_private: true } })).status).toBe(200)
    const notFound = { statusCode: 404, statusMessage: 'Not Found', message: 'Comment not found' }
    // Voting again is refused; someone without a vote there learns nothing.
    expect(errorBody(await vote(voter, comment.id, 'down'))).toEqual(notFound)
    expect(errorBody(await vote(other, comment.id, null))).toEqual(notFound)
    // The voter's withdrawal: the comment's score, nothing of the upload.
    const withdrawn = await vote(voter, comment.id, null)
    expect(withdrawn.status).toBe(200)
    expect(withdrawn.body).toEqual({ score: 0, myVote: null })
    // With the vote gone, so is the way in.
    expect(errorBody(await vote(voter, comment.id, null))).toEqual(notFound)
    expect((await list(uploadId, '', owner)).body.comments.map((c: { id: string, score: number }) => [c.id, c.score])).toEqual([[comment.id, 0]])
  })

  it('count votes exactly under 20 parallel votes, and change or withdraw one', async () => {
    const owner = await registerUser()
    const voters = await Promise.all(Array.from({ length: 20 }, () => registerUser()))
    const uploadId = await seedUpload(owner)
    const comment = await posted(owner, uploadId, 'vote on me')
    const answers = await Promise.all(voters.map((voter, i) => vote(voter, comment.id, i < 15 ? 'up' : 'down')))
    expect(answers.map(a => a.status)).toEqual(Array(20).fill(200))
    expect((await list(uploadId)).body.comments[0].score).toBe(10)
    expect((await vote(voters[0]!, comment.id, 'down')).body).toEqual({ score: 8, myVote: 'down' })
    expect((await vote(voters[0]!, comment.id, null)).body).toEqual({ score: 9, myVote: null })
    expect((await vote(voters[0]!, comment.id, null)).body).toEqual({ score: 9, myVote: null })
    expect(errorBody(await vote(voters[0]!, comment.id, 'sideways'))).toMatchObject({ statusCode: 400, message: 'Invalid vote' })
    expect(errorBody(await vote(voters[0]!, randomUUID(), 'up'))).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Comment not found' })
    expect((await api(`/api/comments/${comment.id}/vote`, { method: 'PUT', body: { vote: 'up' } })).status).toBe(401)
  })

  it('of a shadow-banned author are seen only by that author and admins, and leave the count', async () => {
    const [owner, banned, admin, reader] = await Promise.all([registerUser(), registerUser(), registerUser(), registerUser()])
    await makeAdmin(admin)
    const uploadId = await seedUpload(owner)
    await posted(owner, uploadId, 'visible')
    const hiddenComment = await posted(banned, uploadId, 'soon hidden')
    expect(await counts(uploadId)).toEqual({ kept: 2, counted: 2 })
    expect((await api(`/api/admin/users/${banned.id}/shadow-ban`, { method: 'POST', token: admin.token, body: { shadowBanned: true } })).status).toBe(200)
    expect(await counts(uploadId)).toEqual({ kept: 1, counted: 1 })
    const ids = async (user?: TestUser) => (await list(uploadId, '?sort=old', user)).body.comments.map((x: { id: string }) => x.id)
    expect(await ids()).toHaveLength(1)
    expect(await ids(reader)).toHaveLength(1)
    expect(await ids(banned)).toContain(hiddenComment.id)
    expect(await ids(admin)).toContain(hiddenComment.id)
    expect(errorBody(await vote(reader, hiddenComment.id, 'up'))).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Comment not found' })
    const later = await posted(banned, uploadId, 'posted while banned')
    expect(await ids(reader)).not.toContain(later.id)
    // The thread's count is what each sees: the author sees their hidden comments counted.
    expect((await list(uploadId, '', reader)).body.count).toBe(1)
    expect((await list(uploadId, '', banned)).body.count).toBe(3)
    expect((await api(`/api/upload/${uploadId}`)).body.comments).toBe(1)
    expect((await api(`/api/admin/users/${banned.id}/shadow-ban`, { method: 'POST', token: admin.token, body: { shadowBanned: false } })).status).toBe(200)
    expect(await counts(uploadId)).toEqual({ kept: 3, counted: 3 })
  })

  it('keep the count exact under parallel posts, and keep a deleted account\'s comments without an author', async () => {
    const [owner, leaving] = await Promise.all([registerUser(), registerUser()])
    const uploadId = await seedUpload(owner)
    const writers = await Promise.all(Array.from({ length: 6 }, () => registerUser()))
    const answers = await Promise.all([...writers, leaving].map(writer => post(writer, uploadId, { body: 'at once' })))
    expect(answers.map(a => a.status)).toEqual(Array(7).fill(201))
    expect(await counts(uploadId)).toEqual({ kept: 7, counted: 7 })
    const theirs = answers.at(-1)!.body.comment.id as string
    expect((await api('/api/profile', { method: 'DELETE', token: leaving.token, body: { password: leaving.password } })).status).toBe(200)
    expect(await counts(uploadId)).toEqual({ kept: 7, counted: 7 })
    const thread = (await list(uploadId, '?limit=10')).body.comments
    expect(thread.find((x: { id: string }) => x.id === theirs)).toMatchObject({ author: null, body: 'at once' })
  })

  it('of a public upload are a feed of what anyone may see, as Atom and JSON Feed', async () => {
    const site = sharedServer().baseURL
    const [owner, banned, admin] = await Promise.all([registerUser(), registerUser(), registerUser()])
    await makeAdmin(admin)
    const uploadId = await seedUpload(owner, { description: 'Feed me' })
    const hidden = await seedUpload(owner, { isPrivate: true })
    const first = await posted(owner, uploadId, 'first <b>&</b>')
    const second = await posted(banned, uploadId, 'hidden once banned')
    await api(`/api/admin/users/${banned.id}/shadow-ban`, { method: 'POST', token: admin.token, body: { shadowBanned: true } })
    const reply = await posted(owner, uploadId, 'a *reply*', first.id)
    const json = await fetch(`${site}/feeds/upload/${uploadId}/comments.json`)
    expect(json.status).toBe(200)
    expect(json.headers.get('content-type')).toBe('application/feed+json; charset=utf-8')
    const feed = await json.json()
    expect(feed).toMatchObject({ title: 'Does It Fuck?: comments on Feed me', home_page_url: `${site}/upload/${uploadId}`, feed_url: `${site}/feeds/upload/${uploadId}/comments.json` })
    expect(feed.items.map((item: { id: string }) => item.id)).toEqual([reply.id, first.id])
    expect(feed.items[1]).toEqual({ id: first.id, url: `${site}/upload/${uploadId}#comment-${first.id}`, title: `Comment by ${owner.username}`,
      content_html: '<p>first &lt;b&gt;&amp;&lt;/b&gt;</p>', date_published: expect.any(String), date_modified: expect.any(String), authors: [{ name: owner.username }] })
    expect(JSON.stringify(feed)).not.toContain(second.id)
    const atom = await fetch(`${site}/feeds/upload/${uploadId}/comments.atom`)
    expect(atom.status).toBe(200)
    expect(atom.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8')
    const text = await atom.text()
    expect(text).toContain(`<content type="html">&lt;p&gt;first &amp;lt;b&amp;gt;&amp;amp;&amp;lt;/b&amp;gt;&lt;/p&gt;</content>`)
    expect(text).toContain(`<id>urn:uuid:${reply.id}</id>`)
    expect(text).not.toContain(second.id)
    for (const missing of [hidden, randomUUID()]) {
      const refused = await fetch(`${site}/feeds/upload/${missing}/comments.json`)
      expect(refused.status).toBe(404)
      expect(await refused.json()).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Upload not found' })
    }
  })

  it('are reported into the admin queue as their own group, and removed from it', async () => {
    const [owner, author, alice, bob, admin] = await Promise.all([registerUser(), registerUser(), registerUser(), registerUser(), registerUser()])
    await makeAdmin(admin)
    const uploadId = await seedUpload(owner)
    const hidden = await seedUpload(owner, { isPrivate: true })
    const comment = await posted(author, uploadId, 'buy *cheap* stuff')
    const onHidden = await posted(owner, hidden, 'private talk')
    const first = await reportComment(alice, comment.id, { reason: 'spam', details: '  an ad  ' })
    expect(first.status).toBe(201)
    expect(first.body).toEqual({ report: { id: expect.any(String), commentId: comment.id, uploadId, reason: 'spam', status: 'open', createdAt: expect.any(String) } })
    entryComment.set(comment.id, new Set([first.body.report.id]))
    expect(errorBody(await reportComment(alice, comment.id, { reason: 'other' }))).toEqual({ statusCode: 409, statusMessage: 'Conflict', message: 'Already reported' })
    await filed(bob, comment.id, { reason: 'harassment' })
    // A report on the upload by the same reporter is another target: no conflict, another group.
    expect((await api(`/api/upload/${uploadId}/report`, { method: 'POST', token: alice.token, body: { reason: 'spam' } })).status).toBe(201)
    for (const [user, id, body, status, message] of [
      [alice, randomUUID(), { reason: 'spam' }, 404, 'Comment not found'],
      [alice, onHidden.id, { reason: 'spam' }, 404, 'Comment not found'],
      [alice, comment.id, { reason: 'rude' }, 400, 'Invalid reason'],
      [null, comment.id, { reason: 'spam' }, 400, 'Invalid client fingerprint'],
    ] as const) {
      expect(errorBody(await reportComment(user, id, body))).toMatchObject({ statusCode: status, message })
    }
    const group = await commentGroup(admin, comment.id)
    expect(group).toMatchObject({
      targetType: 'comment', reason: 'harassment', details: null, status: 'open', reportCount: 2,
      reasons: [{ reason: 'harassment', count: 1 }, { reason: 'spam', count: 1 }],
      comment: { id: comment.id, body: 'buy *cheap* stuff', html: '<p>buy <em>cheap</em> stuff</p>', author: { id: author.id, username: author.username }, uploadId, createdAt: expect.any(String) },
      upload: { id: uploadId },
    })
    expect(group.items.map((item: { reporter: { id: string } }) => item.reporter.id)).toEqual([alice.id, bob.id])

    const refused = await resolve(admin, group.id, { action: 'remove_upload' })
    expect(errorBody(refused)).toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Action remove_upload does not apply to a report on a comment' })
    expect((await api(`/api/upload/${uploadId}`)).body.comments).toBe(1)
    const removed = await resolve(admin, group.id, { action: 'remove_comment', note: 'ad' })
    expect(removed.body).toEqual({ success: true, uploadId, action: 'remove_comment', reportCount: 2 })
    expect((await list(uploadId)).body).toMatchObject({ comments: [], total: 0 })
    expect((await api(`/api/upload/${uploadId}`)).body.comments).toBe(0)
    expect(await commentGroup(admin, comment.id)).toBeUndefined()
    expect(await commentGroup(admin, comment.id, 'resolved')).toMatchObject({ targetType: 'comment', comment: null, reportCount: 2, claimedBy: { id: admin.id } })
    expect(await modlogOf(admin, comment.id)).toMatchObject([{ action: 'comment_removed', targetType: 'comment', targetLabel: 'buy *cheap* stuff', actor: { id: admin.id } }])
    expect(await modlogOf(admin, group.id)).toMatchObject([{ action: 'report_resolved', targetType: 'report', note: 'remove_comment: ad', targetLabel: 'harassment' }])
    // The upload's own group is untouched, and refuses a comment's action.
    const uploadGroup = (await api('/api/admin/reports?limit=100', { token: admin.token })).body.reports
      .find((entry: { targetType: string, upload: { id: string } | null }) => entry.targetType === 'upload' && entry.upload?.id === uploadId)
    expect(uploadGroup).toMatchObject({ comment: null, reportCount: 1 })
    expect(errorBody(await resolve(admin, uploadGroup.id, { action: 'shadow_ban_author' })))
      .toEqual({ statusCode: 400, statusMessage: 'Bad Request', message: 'Action shadow_ban_author does not apply to a report on an upload' })
    expect(errorBody(await reportComment(bob, comment.id, { reason: 'spam' }))).toMatchObject({ statusCode: 404, message: 'Comment not found' })
  })

  it('reported, shadow-ban their author from the queue: hidden from others, out of the count', async () => {
    const [owner, author, reader, admin] = await Promise.all([registerUser(), registerUser(), registerUser(), registerUser()])
    await makeAdmin(admin)
    const uploadId = await seedUpload(owner)
    const comment = await posted(author, uploadId, 'troll')
    await posted(owner, uploadId, 'fine')
    const report = await filed(reader, comment.id, { reason: 'harassment' })
    expect((await api(`/api/upload/${uploadId}`)).body.comments).toBe(2)
    const banned = await resolve(admin, report.id, { action: 'shadow_ban_author' })
    expect(banned.body).toEqual({ success: true, uploadId, action: 'shadow_ban_author', reportCount: 1 })
    expect((await api(`/api/upload/${uploadId}`)).body.comments).toBe(1)
    expect(await counts(uploadId)).toEqual({ kept: 1, counted: 1 })
    expect((await list(uploadId, '', reader)).body.comments.map((x: { id: string }) => x.id)).not.toContain(comment.id)
    expect((await list(uploadId, '', author)).body.comments.map((x: { id: string }) => x.id)).toContain(comment.id)
    expect(await modlogOf(admin, author.id)).toMatchObject([{ action: 'shadow_ban_on', targetType: 'user', targetLabel: author.username }])
    expect(await commentGroup(admin, comment.id, 'resolved')).toMatchObject({ targetType: 'comment', comment: { id: comment.id }, status: 'resolved' })
    // Now hidden from the reader, the comment cannot be reported by them again.
    expect(errorBody(await reportComment(reader, comment.id, { reason: 'spam' }))).toMatchObject({ statusCode: 404, message: 'Comment not found' })
  })
})
