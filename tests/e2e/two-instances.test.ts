import { randomBytes } from 'node:crypto'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { randomImage, uploadForm } from '../support/images'
import { createTestDatabase, dropTestDatabase } from '../support/postgres'
import { startS3, type TestS3 } from '../support/s3'
import { countedVotes, databaseOf, makeAdmin, storedCounts } from '../support/seed'
import { startServer, testEngine, type RunningServer } from '../support/server'
import { postUpload } from '../support/uploads'

/**
 * docs/behaviour.md, Scaling out, all switches on: instances A and B share one
 * PostgreSQL database, one Redis and one bucket, each with a data dir of its
 * own, and answer as one site. Only the PostgreSQL pass can run it: SQLite is
 * a file inside one data dir, which two instances with their own data dirs
 * cannot share (tests/e2e/redis.test.ts covers two processes on one SQLite
 * file).
 */
const postgres = testEngine() === 'postgres'
const SHARED_REDIS = process.env.TEST_REDIS_URL
if (postgres && !SHARED_REDIS) {
  throw new Error('tests/e2e/two-instances.test.ts needs TEST_REDIS_URL (a throwaway redis-server): run it through '
    + 'scripts/engines.sh, e.g. `scripts/engines.sh npx vitest run --project e2e-pg tests/e2e/two-instances.test.ts`')
}

const image = (data: Buffer) => ({ data, name: 'picture.png', type: 'image/png' })

async function fetchBytes(url: string) {
  const response = await fetch(url)
  return { status: response.status, etag: response.headers.get('etag'), type: response.headers.get('content-type'), data: Buffer.from(await response.arrayBuffer()) }
}

/** `stats` of `uploadId` in the newest-first list as `baseURL` answers it. */
async function statsIn(baseURL: string, uploadId: string) {
  const response = await api('/api/uploads?limit=50', { baseURL })
  expect(response.status).toBe(200)
  return response.body.uploads.find((entry: { id: string }) => entry.id === uploadId)?.stats
}

async function linkUpload(user: TestUser, baseURL: string): Promise<string> {
  const response = await postUpload(user, { upload_type: 'link', external_url: `https://example.com/${randomBytes(6).toString('hex')}`, description: 'shared by two instances' }, undefined, baseURL)
  expect(response.status).toBe(201)
  return response.body.upload.id
}

const login = (baseURL: string, email = 'nobody@e2e.test', password = 'whatever1') =>
  api('/api/auth', { method: 'POST', body: { action: 'login', email, password }, baseURL })

describe.skipIf(!postgres)('two instances on one PostgreSQL database, one Redis and one bucket', () => {
  let databaseUrl: string
  let s3: TestS3
  let bucket: string
  let a: RunningServer
  let b: RunningServer
  let alice: TestUser
  let bob: TestUser
  let moderator: TestUser
  /** POST /api/auth requests counted so far (the AUTH limit is 10 per IP, for both instances). */
  let authRequests = 0

  beforeAll(async () => {
    databaseUrl = await createTestDatabase()
    s3 = await startS3()
    bucket = await s3.createBucket()
    const env = {
      ...s3.env(bucket),
      NUXT_REDIS_URL: SHARED_REDIS!,
      NUXT_REDIS_PREFIX: `dif-test-${randomBytes(6).toString('hex')}:`,
      NUXT_RATE_LIMIT_ENABLED: 'true',
      NUXT_RATE_LIMIT_AUTH_MAX: '10',
      NUXT_RATE_LIMIT_GENERAL_MAX: '10000',
      NUXT_RATE_LIMIT_UPLOAD_MAX: '10000',
      NUXT_RATE_LIMIT_VOTE_MAX: '10000',
      NUXT_RATE_LIMIT_ANON_VOTE_MAX: '10000',
    }
    // A first, so that B finds the schema migrated; each gets a data dir of its own.
    a = await startServer(env, { databaseUrl })
    b = await startServer(env, { databaseUrl })
    alice = await registerUser({}, a.url)
    bob = await registerUser({}, b.url)
    moderator = await registerUser({}, a.url)
    authRequests = 3
  })

  afterAll(async () => {
    // A killed by the last test is already gone; its data dir still goes.
    if (a?.process.signalCode === 'SIGKILL') rmSync(a.dataDir, { recursive: true, force: true })
    else await a?.stop()
    await b?.stop()
    await s3?.stop()
    if (databaseUrl) await dropTestDatabase(databaseUrl)
  })

  it('answer /api/health with every part "ok"', async () => {
    for (const server of [a, b]) {
      const health = await api('/api/health', { baseURL: server.url })
      expect(health.status).toBe(200)
      expect(health.body).toEqual({ status: 'ok', database: 'ok', redis: 'ok', storage: 'ok' })
    }
  })

  it('say "first start" on A alone (B finds the database A made), and both name their Redis', async () => {
    expect(a.output()).toContain('Does It Fuck? · first start')
    expect(b.output()).not.toContain('first start')
    for (const server of [a, b]) expect(server.output()).toMatch(/; Redis: 127\.0\.0\.1:\d+ \(NUXT_REDIS_URL\)/)
  })

  it('keep a visitor signed in on A signed in on B, and the other way round', async () => {
    const onB = await api('/api/profile', { token: alice.token, baseURL: b.url })
    expect(onB.status).toBe(200)
    expect(onB.body.user).toMatchObject({ id: alice.id, username: alice.username })
    const signedInOnB = await login(b.url, bob.email, bob.password)
    authRequests++
    expect(signedInOnB.status).toBe(200)
    const onA = await api('/api/profile', { token: signedInOnB.body.token, baseURL: a.url })
    expect(onA.status).toBe(200)
    expect(onA.body.user.id).toBe(bob.id)
  })

  it('count an AUTH limit of 10 once: spent after 10 requests split across A and B', async () => {
    for (let n = authRequests + 1; n <= 10; n++) {
      const response = await login(n % 2 ? a.url : b.url)
      expect(response.status, `request ${n}`).toBe(401)
      expect(response.headers.get('ratelimit-limit')).toBe('10')
      expect(response.headers.get('ratelimit-remaining'), `request ${n}`).toBe(String(10 - n))
    }
    for (const server of [a, b]) {
      const limited = await login(server.url, alice.email, alice.password)
      expect(limited.status).toBe(429)
      expect(limited.headers.get('ratelimit-remaining')).toBe('0')
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    }
  })

  it('show a vote taken on A in B\'s list at once', async () => {
    const uploadId = await linkUpload(alice, a.url)
    // Read twice on B: the second answer may come from B's list cache.
    expect(await statsIn(b.url, uploadId)).toEqual({ voteCount: 0, upvotes: 0, downvotes: 0, averageRating: null })
    expect(await statsIn(b.url, uploadId)).toEqual({ voteCount: 0, upvotes: 0, downvotes: 0, averageRating: null })
    const vote = await api('/api/vote', { method: 'POST', token: bob.token, body: { uploadId, vote: 'fucks' }, baseURL: a.url })
    expect(vote.status).toBe(200)
    expect(await statsIn(b.url, uploadId)).toEqual({ voteCount: 1, upvotes: 1, downvotes: 0, averageRating: 10 })
  })

  it('show an edit made on A in B\'s list at once, and make one linear history of edits sent to both', async () => {
    const uploadId = await linkUpload(alice, a.url)
    const entryOn = async (baseURL: string) => (await api('/api/uploads?limit=50', { baseURL })).body.uploads.find((entry: { id: string }) => entry.id === uploadId)
    expect(await entryOn(b.url)).toMatchObject({ revision: 1, edited_at: null })
    expect(await entryOn(b.url)).toMatchObject({ revision: 1, edited_at: null })
    const edited = await api(`/api/upload/${uploadId}`, { method: 'PATCH', token: alice.token, body: { description: 'Edited on A' }, baseURL: a.url })
    expect(edited.status).toBe(200)
    expect(await entryOn(b.url)).toMatchObject({ description: 'Edited on A', revision: 2, edited_at: edited.body.upload.edited_at })
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => api(`/api/upload/${uploadId}`, {
      method: 'PATCH', token: alice.token, body: { tags: [`two-${i}`, 'both'] }, baseURL: i % 2 ? a.url : b.url,
    })))
    expect(answers.map(answer => answer.status)).toEqual(Array(6).fill(200))
    expect(answers.map(answer => answer.body.revision as number).sort((x, y) => x - y)).toEqual([3, 4, 5, 6, 7, 8])
    const history = await api(`/api/upload/${uploadId}/history`, { baseURL: b.url })
    expect(history.body.revisions.map((revision: { revision: number }) => revision.revision)).toEqual([8, 7, 6, 5, 4, 3, 2, 1])
  })

  it('show a comment posted, edited and deleted on A on B at once, with the upload\'s comment count', async () => {
    const uploadId = await linkUpload(alice, a.url)
    const threadOnB = async () => {
      const response = await api(`/api/upload/${uploadId}/comments`, { baseURL: b.url })
      expect(response.status).toBe(200)
      return response.body
    }
    const countsOnB = async () => {
      const full = await api(`/api/upload/${uploadId}`, { baseURL: b.url })
      expect(full.status).toBe(200)
      const entry = (await api('/api/uploads?limit=50', { baseURL: b.url })).body.uploads.find((item: { id: string }) => item.id === uploadId)
      return { full: full.body.comments, entry: entry.comments }
    }
    /** The upload page as B serves it to a visitor without a cookie (kept by B's page cache). */
    const pageOnB = async () => {
      const response = await fetch(`${b.url}/upload/${uploadId}`)
      expect(response.status).toBe(200)
      return response.text()
    }
    // Read twice on B first: the second answers may come from what B keeps.
    for (let i = 0; i < 2; i++) {
      expect(await threadOnB()).toEqual({ comments: [], total: 0, count: 0, page: 1, limit: 20 })
      expect(await countsOnB()).toEqual({ full: 0, entry: 0 })
      expect(await pageOnB()).not.toContain('Posted on')
    }

    const posted = await api(`/api/upload/${uploadId}/comments`, { method: 'POST', token: bob.token, body: { body: 'Posted on *A*' }, baseURL: a.url })
    expect(posted.status).toBe(201)
    const comment = posted.body.comment
    expect(comment).toMatchObject({ body: 'Posted on *A*', html: '<p>Posted on <em>A</em></p>' })
    expect(await threadOnB()).toEqual({ comments: [{ ...comment, replies: [] }], total: 1, count: 1, page: 1, limit: 20 })
    expect(await countsOnB()).toEqual({ full: 1, entry: 1 })
    expect(await pageOnB()).toContain('<p>Posted on <em>A</em></p>')

    const edited = await api(`/api/comments/${comment.id}`, { method: 'PATCH', token: bob.token, body: { body: 'Edited on **A**' }, baseURL: a.url })
    expect(edited.status).toBe(200)
    expect(edited.body.comment).toMatchObject({ body: 'Edited on **A**', html: '<p>Edited on <strong>A</strong></p>', editedAt: expect.any(String) })
    expect(await threadOnB()).toEqual({ comments: [{ ...edited.body.comment, replies: [] }], total: 1, count: 1, page: 1, limit: 20 })
    expect(await pageOnB()).toContain('<p>Edited on <strong>A</strong></p>')

    const reply = await api(`/api/upload/${uploadId}/comments`, { method: 'POST', token: alice.token, body: { body: 'A reply', parentId: comment.id }, baseURL: a.url })
    expect(reply.status).toBe(201)
    expect(await countsOnB()).toEqual({ full: 2, entry: 2 })
    const deleted = await api(`/api/comments/${comment.id}`, { method: 'DELETE', token: bob.token, baseURL: a.url })
    expect(deleted.status).toBe(200)
    expect(await threadOnB()).toEqual({
      comments: [{ ...edited.body.comment, body: '', html: '', deleted: true, replies: [reply.body.comment] }], total: 1, count: 1, page: 1, limit: 20,
    })
    expect(await countsOnB()).toEqual({ full: 1, entry: 1 })

    // The reply's deletion takes its deleted parent along.
    expect((await api(`/api/comments/${reply.body.comment.id}`, { method: 'DELETE', token: alice.token, baseURL: a.url })).status).toBe(200)
    expect(await threadOnB()).toEqual({ comments: [], total: 0, count: 0, page: 1, limit: 20 })
    expect(await countsOnB()).toEqual({ full: 0, entry: 0 })
  })

  it('judge a duel handed out by A on B, once, with the strengths both see', async () => {
    // Uploaded, not seeded: a later case holds every image row to its objects in the bucket.
    for (let i = 0; i < 2; i++) expect((await postUpload(alice, { upload_type: 'image', description: `duel ${i}` }, image(await randomImage('png')), a.url)).status).toBe(201)
    const duel = (await api('/api/duel/next', { token: bob.token, baseURL: a.url })).body
    const judged = await api('/api/duel', { method: 'POST', token: bob.token, body: { duelId: duel.duelId, winner: 'right' }, baseURL: b.url })
    expect(judged.status).toBe(200)
    expect(judged.body.right).toEqual({ id: duel.right.id, strength: 1512, wins: 1, losses: 0 })
    expect((await api('/api/duel', { method: 'POST', token: bob.token, body: { duelId: duel.duelId, winner: 'left' }, baseURL: a.url })).body.message).toBe('Invalid duel')
  })

  it('serve an image uploaded on A from B, the same bytes, and write no media under either data dir', async () => {
    const created = await postUpload(alice, { upload_type: 'image', description: 'uploaded on A' }, image(await randomImage('png')), a.url)
    expect(created.status).toBe(201)
    const { id, filename } = created.body.upload
    const stored = (await s3.object(bucket, filename))!.data
    for (const size of ['', '?size=small', '?size=thumb', '?size=medium', '?size=display']) {
      const fromA = await fetchBytes(`${a.url}/api/image/${id}${size}`)
      const fromB = await fetchBytes(`${b.url}/api/image/${id}${size}`)
      expect(fromB.status, size).toBe(200)
      expect(fromB.data.equals(fromA.data), size).toBe(true)
      expect([fromB.etag, fromB.type], size).toEqual([fromA.etag, fromA.type])
    }
    expect((await fetchBytes(`${b.url}/api/image/${id}`)).data.equals(stored)).toBe(true)
    for (const server of [a, b]) expect(existsSync(join(server.dataDir, 'media')), server.dataDir).toBe(false)
  })

  it('count 20 parallel anonymous votes with one fingerprint, split across A and B, once', async () => {
    const uploadId = await linkUpload(alice, a.url)
    const clientFingerprint = `two-instances-${randomBytes(6).toString('hex')}`
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => api('/api/vote/anonymous', {
      method: 'POST',
      body: { uploadId, vote: i % 4 < 2 ? 'upvote' : 'downvote', clientFingerprint },
      baseURL: i % 2 ? a.url : b.url,
    })))
    const codes = answers.map(answer => answer.status).sort()
    expect(codes.filter(code => code === 200)).toHaveLength(1)
    expect(codes.filter(code => code === 409)).toHaveLength(19)
    const winner = answers.find(answer => answer.status === 200)!.body.vote as 'upvote' | 'downvote'
    for (const loser of answers.filter(answer => answer.status === 409)) {
      expect(loser.body).toMatchObject({ success: false, alreadyVoted: true, existingVote: winner })
    }
    const shared = { dataDir: a.dataDir, databaseUrl }
    expect(await storedCounts(uploadId, shared)).toEqual(winner === 'upvote' ? { upvotes: 1, downvote_count: 0 } : { upvotes: 0, downvote_count: 1 })
    expect(await storedCounts(uploadId, shared)).toEqual(await countedVotes(uploadId, shared))
  })

  it('answer one 201 and one 409 when the same image is uploaded to A and B at once', async () => {
    /** The upload id an object's key names (`<id>.png`, `thumbs/<id>.webp`, …). */
    const uploadIdOfKey = (key: string) => /[0-9a-f-]{36}/.exec(key)?.[0]
    const winners: string[] = []
    for (let round = 0; round < 3; round++) {
      const data = await randomImage('png')
      const before = await s3.keys(bucket)
      const answers = await Promise.all([a, b].map(server => postUpload(alice, { upload_type: 'image', description: `raced, round ${round}` }, image(data), server.url)))
      expect(answers.map(answer => answer.status).sort(), `round ${round}`).toEqual([201, 409])
      const { id, filename } = answers.find(answer => answer.status === 201)!.body.upload
      expect(answers.find(answer => answer.status === 409)!.body).toMatchObject({ duplicate: true, existingUploadId: id })
      // The loser's objects, if it wrote any, are gone again: only the winner's are new (its
      // image and thumbnail, and the sizes made ahead in the background if they are done).
      const added = (await s3.keys(bucket)).filter(key => !before.includes(key))
      expect(added).toEqual(expect.arrayContaining([filename, `thumbs/${id}.webp`]))
      winners.push(id)
      // (Uploads from before, this test's earlier winners among them, may still be getting
      // their sizes made: the background waits until uploads pause.)
      const earlier = new Set(before.map(uploadIdOfKey).filter(Boolean))
      expect(added.filter(key => !winners.some(winner => key.includes(winner)) && !earlier.has(uploadIdOfKey(key))), `round ${round}`).toEqual([])
    }
  })

  it('make one upload of an image sent to A and B at once with one Idempotency-Key, and answer both with it', async () => {
    const data = await randomImage('png')
    const before = await s3.keys(bucket)
    const key = randomBytes(16).toString('hex')
    const answers = await Promise.all([a, b].map(server => api('/api/upload', { method: 'POST', token: alice.token, baseURL: server.url, headers: { 'idempotency-key': key },
      body: uploadForm({ upload_type: 'image', description: 'sent to both' }, image(data)) })))
    expect(answers.map(answer => answer.status)).toEqual([201, 201])
    expect(answers[1]!.body).toEqual(answers[0]!.body)
    const { id, filename } = answers[0]!.body.upload
    expect(answers.map(answer => answer.headers.get('idempotent-replayed')).sort()).toEqual(['true', null].sort())
    // Only the one upload's objects are new: the other instance's, if it wrote any, are gone again.
    // The sizes made in the background for this file's earlier uploads may land meanwhile: a create
    // writes only an original, a thumbnail and a marker itself.
    const added = (await s3.keys(bucket)).filter(name => !before.includes(name))
    expect(added).toEqual(expect.arrayContaining([filename, `thumbs/${id}.webp`]))
    expect(added.filter(name => !name.includes(id) && !/^(small|medium|display)\//.test(name))).toEqual([])
  })

  it('hold a ban made on A on B at once, and its lifting on B on A', async () => {
    await makeAdmin(moderator, { dataDir: a.dataDir, databaseUrl })
    const data = await randomImage('png')
    const posted = await postUpload(alice, { upload_type: 'image', description: 'banned across instances' }, image(data), a.url)
    expect(posted.status).toBe(201)
    expect((await api(`/api/upload/${posted.body.upload.id}`, { method: 'DELETE', token: moderator.token, baseURL: a.url })).status).toBe(200)
    const refused = await postUpload(bob, { upload_type: 'image', description: 'again, elsewhere' }, image(data), b.url)
    expect(refused.status).toBe(451)
    expect(refused.body).toEqual({ statusCode: 451, statusMessage: 'Unavailable For Legal Reasons', message: 'This image is not allowed here' })
    const bans = await api('/api/admin/banned-media?limit=100', { token: moderator.token, baseURL: b.url })
    const ban = bans.body.items.find((item: { uploadId: string }) => item.uploadId === posted.body.upload.id)
    expect((await api(`/api/admin/banned-media/${ban.id}`, { method: 'DELETE', token: moderator.token, baseURL: b.url })).status).toBe(200)
    expect((await postUpload(bob, { upload_type: 'image', description: 'allowed again' }, image(data), a.url)).status).toBe(201)
  })

  it('keep B answering, with no half-written rows, when A is killed in the middle of requests', async () => {
    const uploadId = await linkUpload(alice, b.url)
    const acknowledged: string[] = []
    let cutOff = 0
    let answered!: () => void
    const firstAnswer = new Promise<void>((resolve) => {
      answered = resolve
    })
    const inFlight = [
      ...await Promise.all(Array.from({ length: 4 }, async () => randomImage('png'))).then(images => images.map(data =>
        postUpload(alice, { upload_type: 'image', description: 'cut off by a kill', tags: 'killed, mid request' }, image(data), a.url))),
      ...Array.from({ length: 30 }, (_, i) => api('/api/vote', { method: 'POST', token: i % 2 ? alice.token : bob.token, body: { uploadId, vote: i % 3 ? 'fucks' : 'does_not_fuck' }, baseURL: a.url })),
      ...Array.from({ length: 10 }, (_, i) => api('/api/vote/anonymous', { method: 'POST', body: { uploadId, vote: 'upvote', clientFingerprint: `killed-visitor-${i}` }, baseURL: a.url })),
    ].map(request => request.then((response) => {
      if (response.status === 201) acknowledged.push(response.body.upload.id)
      answered()
    }, () => {
      cutOff++
    }))
    await Promise.race([firstAnswer, new Promise(r => setTimeout(r, 10_000))])
    const exited = new Promise(resolve => a.process.once('exit', resolve))
    a.process.kill('SIGKILL')
    await exited
    await Promise.all(inFlight)
    expect(cutOff, 'requests cut off by the kill').toBeGreaterThan(0)

    // B answers as if nothing happened.
    const health = await api('/api/health', { baseURL: b.url })
    expect(health.status).toBe(200)
    expect(health.body).toEqual({ status: 'ok', database: 'ok', redis: 'ok', storage: 'ok' })
    const vote = await api('/api/vote', { method: 'POST', token: bob.token, body: { uploadId, vote: 'does_not_fuck' }, baseURL: b.url })
    expect(vote.status).toBe(200)

    // Every row is whole: counts equal the vote rows, every image row has both objects, every acknowledged upload is listed.
    const shared = { dataDir: b.dataDir, databaseUrl }
    expect(await storedCounts(uploadId, shared)).toEqual(await countedVotes(uploadId, shared))
    const { db } = databaseOf(shared)
    const images = await db.all<{ id: string, filename: string }>(sql`SELECT id, filename FROM uploads WHERE upload_type = 'image'`)
    const keys = new Set(await s3.keys(bucket))
    for (const row of images) {
      expect(keys.has(row.filename), row.filename).toBe(true)
      expect(keys.has(`thumbs/${row.id}.webp`), row.id).toBe(true)
      expect((await fetchBytes(`${b.url}/api/image/${row.id}?size=thumb`)).status).toBe(200)
    }
    const tagless = await db.all<{ id: string }>(sql`SELECT u.id FROM uploads u WHERE u.description = 'cut off by a kill'
      AND (SELECT count(*) FROM upload_tags t WHERE t.upload_id = u.id) <> 2`)
    expect(tagless).toEqual([])
    const listed = (await api('/api/uploads?limit=100', { baseURL: b.url })).body.uploads.map((entry: { id: string }) => entry.id)
    expect(listed).toEqual(expect.arrayContaining(acknowledged))
  })
})
