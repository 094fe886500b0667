import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { duelKey, signDuel } from '../../server/services/duels'
import { eloAfter } from '../../shared/utils/elo'
import { api, registerUser, type TestUser } from '../support/api'
import { expectMatchesOpenApi } from '../support/openapi'
import { databaseOf, seedUpload, storedSecrets } from '../support/seed'
import { startServer, type RunningServer } from '../support/server'

// Own server (it believes X-Forwarded-For, so each visitor has an IP of its own),
// so the pool of images is exactly what these cases put into it, in order.
let server: RunningServer
let owner: TestUser
let a: string
let b: string

beforeAll(async () => {
  server = await startServer({ NUXT_TRUST_PROXY: 'true' })
  owner = await registerUser({}, server.url)
  a = await seedUpload(owner, { tags: ['duel-a'] }, server)
  b = await seedUpload(owner, { createdAt: new Date(Date.now() - 3 * 86400_000).toISOString() }, server)
  // Not in the pool: a link and a private image.
  await seedUpload(owner, { uploadType: 'link', externalUrl: 'https://example.com/x' }, server)
  await seedUpload(owner, { isPrivate: true }, server)
})
afterAll(() => server.stop())

let nextIp = 1
const visitor = () => ({ ip: `198.51.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`, fingerprint: `fp-${randomUUID()}` })
type Caller = TestUser | ReturnType<typeof visitor>
const as = (caller: Caller) => 'token' in caller ? { token: caller.token } : { headers: { 'x-forwarded-for': caller.ip } }
const next = (caller: Caller) => api(`/api/duel/next${'token' in caller ? '' : `?clientFingerprint=${caller.fingerprint}`}`, { baseURL: server.url, ...as(caller) })
const judge = (caller: Caller, duelId: string, winner: string) => api('/api/duel', {
  baseURL: server.url, method: 'POST', ...as(caller), body: { duelId, winner, ...('token' in caller ? {} : { clientFingerprint: caller.fingerprint }) },
})
const standing = async (id: string) => (await databaseOf(server).db.get<{ strength: number, wins: number, losses: number }>(sql`
  SELECT strength, wins, losses FROM duel_standings WHERE upload_id = ${id}`))!
const invalid = { statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid duel' }

describe('This or That', () => {
  it('hands out the pair of public images and counts 20 concurrent judgements of it exactly', async () => {
    const visitors = Array.from({ length: 20 }, visitor)
    const duels = await Promise.all(visitors.map(next))
    expect(duels[0]!.status).toBe(200)
    expect(duels[0]!.headers.get('cache-control')).toBe('private, no-store')
    const { left, right } = duels[0]!.body
    expect([left.id, right.id].sort()).toEqual([a, b].sort())
    expect(left).toMatchObject({ upload_type: 'image', is_private: 0, username: owner.username, strength: 1500, wins: 0, losses: 0 })
    expect(left.tags).toBeInstanceOf(Array)
    const answers = await Promise.all(visitors.map((caller, i) => judge(caller, duels[i]!.body.duelId, i % 3 === 0 ? 'right' : 'left')))
    expect(answers.map(answer => answer.status)).toEqual(Array(20).fill(200))
    await expectMatchesOpenApi('GET', '/api/duel/next', duels[0]!)
    await expectMatchesOpenApi('POST', '/api/duel', answers[0]!)
    const [first, second] = [await standing(a), await standing(b)]
    expect(first.wins + first.losses).toBe(20)
    expect(second.wins + second.losses).toBe(20)
    expect(first.wins).toBe(second.losses)
    expect(first.strength + second.strength).toBeCloseTo(3000, 6)
    const rows = await databaseOf(server).db.get<{ n: number }>(sql`SELECT count(*) AS n FROM duel_judgements WHERE counted = 1`)
    expect(Number(rows!.n)).toBe(20)
    // The pair is judged under the IP hash and under the fingerprint alike.
    const sameIp = { ...visitors[0]!, fingerprint: `fp-${randomUUID()}` }
    const sameFingerprint = { ...visitor(), fingerprint: visitors[1]!.fingerprint }
    expect((await next(sameIp)).body).toEqual({ duelId: null })
    expect((await next(sameFingerprint)).body).toEqual({ duelId: null })
  })

  it('moves the chosen image up by Elo, once per duel and once per pair', async () => {
    const user = await registerUser({}, server.url)
    const first = (await next(user)).body
    const second = (await next(user)).body
    const answer = await judge(user, first.duelId, 'left')
    const [won, lost] = eloAfter(first.left.strength, first.right.strength)
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      left: { id: first.left.id, strength: won, wins: first.left.wins + 1, losses: first.left.losses },
      right: { id: first.right.id, strength: lost, wins: first.right.wins, losses: first.right.losses + 1 },
    })
    const reused = await judge(user, first.duelId, 'left')
    expect(reused).toMatchObject({ status: 400, body: invalid })
    const twice = await judge(user, second.duelId, 'right')
    expect(twice).toMatchObject({ status: 409, body: { statusCode: 409, message: 'Already judged' } })
    const none = await next(user)
    expect(none.body).toEqual({ duelId: null })
    for (const [method, path, response] of [['POST', '/api/duel', reused], ['POST', '/api/duel', twice], ['GET', '/api/duel/next', none]] as const) await expectMatchesOpenApi(method, path, response)
  })

  it('refuses a forged, expired or someone else\'s duel, and bad input', async () => {
    const [one, other] = [visitor(), visitor()]
    const { duelId, left, right } = (await next(one)).body
    const forged = duelId.slice(0, -2) + (duelId.endsWith('AA') ? 'BA' : 'AA')
    expect(await judge(one, forged, 'left')).toMatchObject({ status: 400, body: invalid })
    expect(await judge(other, duelId, 'left')).toMatchObject({ status: 400, body: invalid })
    const key = duelKey((await storedSecrets(server)).sessionSecret)
    const owned = (await next(owner)).body.duelId as string
    const judgeName = JSON.parse(Buffer.from(owned.split('.')[0]!, 'base64url').toString())[3]
    const expired = signDuel(key, { id: randomUUID(), left: left.id, right: right.id, judge: judgeName, expires: Date.now() - 1 })
    expect(await judge(owner, expired, 'left')).toMatchObject({ status: 400, body: invalid })
    expect((await judge(one, duelId, 'up')).body.message).toBe('Invalid winner')
    expect((await api('/api/duel', { baseURL: server.url, method: 'POST', body: { duelId, winner: 'left' } })).body.message).toBe('Invalid client fingerprint')
    expect((await api('/api/duel/next', { baseURL: server.url })).body).toMatchObject({ statusCode: 400, message: 'Invalid client fingerprint' })
    expect((await judge({ ...owner, token: 'junk' }, owned, 'left')).status).toBe(401)
    // Nothing was written by any of these.
    expect((await judge(one, duelId, 'left')).status).toBe(200)
  })

  it('reads the judge\'s session in the judgement: its use noted, a revoked one a 401 before a bad duel, with nothing written', async () => {
    const user = await registerUser({}, server.url)
    const { db } = databaseOf(server)
    const [first, second] = [(await next(user)).body, (await next(user)).body]
    await db.run(sql`UPDATE sessions SET last_seen_at = '2020-01-01T00:00:00.000Z' WHERE user_id = ${user.id}`)
    expect((await judge(user, first.duelId, 'left')).status).toBe(200)
    const seen = await db.get<{ last_seen_at: string }>(sql`SELECT last_seen_at FROM sessions WHERE user_id = ${user.id}`)
    expect(Date.now() - Date.parse(seen!.last_seen_at)).toBeLessThan(60_000)
    expect((await api('/api/auth/logout', { baseURL: server.url, method: 'POST', token: user.token })).status).toBe(200)
    const before = [await standing(a), await standing(b)]
    expect(await judge(user, second.duelId, 'right')).toMatchObject({ status: 401, body: { statusCode: 401, message: 'Invalid or expired token' } })
    expect(await judge(user, 'not-a-duel', 'right')).toMatchObject({ status: 401, body: { statusCode: 401, message: 'Invalid or expired token' } })
    expect(await judge(user, second.duelId, 'up')).toMatchObject({ status: 401, body: { statusCode: 401, message: 'Invalid or expired token' } })
    expect([await standing(a), await standing(b)]).toEqual(before)
    expect(await db.get(sql`SELECT count(*) AS n FROM duel_judgements WHERE user_id = ${user.id}`)).toEqual({ n: 1 })
  })

  it('lets a skip and a shadow-banned judge move nothing', async () => {
    const skipper = await registerUser({}, server.url)
    const before = [await standing(a), await standing(b)]
    const skipped = (await next(skipper)).body
    const answer = await judge(skipper, skipped.duelId, 'skip')
    expect(answer.status).toBe(200)
    expect([await standing(a), await standing(b)]).toEqual(before)
    expect((await next(skipper)).body).toEqual({ duelId: null })
    const banned = await registerUser({}, server.url)
    await databaseOf(server).db.run(sql`UPDATE users SET shadow_banned = 1 WHERE id = ${banned.id}`)
    const duel = (await next(banned)).body
    const verdict = await judge(banned, duel.duelId, 'left')
    expect(verdict.status).toBe(200)
    expect([await standing(a), await standing(b)]).toEqual(before)
    const stored = await databaseOf(server).db.get<{ counted: number }>(sql`SELECT counted FROM duel_judgements WHERE user_id = ${banned.id}`)
    expect(stored).toEqual({ counted: 0 })
  })

  it('never repeats a pair until none is left, leaving out hidden tags', async () => {
    const more = [await seedUpload(owner, {}, server), await seedUpload(owner, {}, server), await seedUpload(owner, { tags: ['duel-hidden'] }, server)]
    const user = await registerUser({}, server.url)
    await api('/api/profile/filters', { baseURL: server.url, method: 'PUT', token: user.token, body: { hiddenTags: ['duel-hidden'] } })
    const seen = new Set<string>()
    for (let i = 0; i < 7; i++) {
      const duel = (await next(user)).body
      if (duel.duelId === null) break
      const pair = [duel.left.id, duel.right.id].sort().join(' ')
      expect(seen.has(pair)).toBe(false)
      expect(pair).not.toContain(more[2])
      seen.add(pair)
      expect((await judge(user, duel.duelId, 'left')).status).toBe(200)
    }
    expect(seen.size).toBe(6)
    expect((await next(user)).body).toEqual({ duelId: null })
  })

  it('ranks images judged at least 5 times, strongest first, by tag and period', async () => {
    const board = await api('/api/duels/leaderboard', { baseURL: server.url })
    expect(board.status).toBe(200)
    expect(board.body).toMatchObject({ total: 2, page: 1, limit: 20 })
    await expectMatchesOpenApi('GET', '/api/duels/leaderboard', board)
    const strengths = [await standing(a), await standing(b)].map(row => row.strength)
    const order = strengths[0]! >= strengths[1]! ? [a, b] : [b, a]
    expect(board.body.uploads.map((entry: { id: string }) => entry.id)).toEqual(order)
    const top = await standing(order[0]!)
    expect(board.body.uploads[0]).toMatchObject({ strength: top.strength, wins: top.wins, losses: top.losses, upload_type: 'image' })
    expect((await api('/api/duels/leaderboard?tag=duel-a', { baseURL: server.url })).body.uploads.map((entry: { id: string }) => entry.id)).toEqual([a])
    expect((await api('/api/duels/leaderboard?period=day', { baseURL: server.url })).body).toMatchObject({ total: 1, uploads: [{ id: a }] })
    expect((await api('/api/duels/leaderboard?period=decade', { baseURL: server.url })).body).toMatchObject({ statusCode: 400, message: 'Invalid period' })
    expect(board.headers.get('cache-control')).toBe('no-cache')
  })

  it('leaves out of the leaderboard what the caller\'s lists leave out: rating=, an account\'s hidden tags and ratings', async () => {
    const ids = (response: { body: { uploads: { id: string }[] } }) => response.body.uploads.map(entry => entry.id)
    const order = (await standing(a)).strength >= (await standing(b)).strength ? [a, b] : [b, a]
    const board = (query: string, token?: string) => api(`/api/duels/leaderboard${query}`, { baseURL: server.url, token })
    // `a` is rated explicit for this case, and safe again after it.
    const rate = async (rating: string) => expect((await api(`/api/upload/${a}`, { baseURL: server.url, method: 'PATCH', token: owner.token, body: { rating } })).status).toBe(200)
    await rate('explicit')
    try {
      const visitor = await board('')
      expect(ids(visitor)).toEqual(order)
      expect(visitor.body.uploads.find((entry: { id: string }) => entry.id === a).rating).toBe('explicit')
      expect(visitor.headers.get('cache-control')).toBe('no-cache')
      const safeOnly = await board('?rating=safe,suggestive')
      expect(safeOnly.body).toMatchObject({ total: 1, uploads: [{ id: b, rating: 'safe' }] })
      expect(safeOnly.headers.get('cache-control')).toBe('no-cache')
      expect((await board('?rating=nsfw')).body).toMatchObject({ statusCode: 400, message: 'Invalid rating' })

      const user = await registerUser({}, server.url)
      // The defaults hide nothing: the visitor's entries, each saying whether it is the caller's favourite.
      expect((await api(`/api/upload/${b}/favourite`, { baseURL: server.url, method: 'PUT', token: user.token })).status).toBe(200)
      const plain = await board('', user.token)
      expect(ids(plain)).toEqual(order)
      expect(plain.body.uploads.map((entry: { id: string, favourited: boolean }) => [entry.id, entry.favourited])).toEqual(order.map(id => [id, id === b]))
      expect(plain.headers.get('cache-control')).toBe('private, no-store')
      await expectMatchesOpenApi('GET', '/api/duels/leaderboard', plain)
      expect(visitor.body.uploads.every((entry: object) => !('favourited' in entry))).toBe(true)
      expect((await api('/api/profile/preferences', { baseURL: server.url, method: 'PUT', token: user.token, body: { explicit: 'hide' } })).status).toBe(200)
      const hiding = await board('', user.token)
      expect(hiding.body).toMatchObject({ total: 1, uploads: [{ id: b }] })
      expect(hiding.headers.get('cache-control')).toBe('private, no-store')
      await expectMatchesOpenApi('GET', '/api/duels/leaderboard', hiding)
      // The visitor's answer, asked again, is still the whole board: the account's was not cached for it.
      expect(ids(await board(''))).toEqual(order)

      const tagHider = await registerUser({}, server.url)
      expect((await api('/api/profile/filters', { baseURL: server.url, method: 'PUT', token: tagHider.token, body: { hiddenTags: ['duel-a'] } })).status).toBe(200)
      const untagged = await board('', tagHider.token)
      expect(untagged.body).toMatchObject({ total: 1, uploads: [{ id: b }] })
      expect(untagged.headers.get('cache-control')).toBe('private, no-store')
    }
    finally {
      await rate('safe')
    }
  })

  // Last: it adds two rated images to the pool.
  it('leaves out the ratings the caller hides: an account\'s preferences, and rating= (how a visitor\'s browser asks)', async () => {
    const rated = { explicit: await seedUpload(owner, {}, server), suggestive: await seedUpload(owner, {}, server) }
    for (const [rating, id] of Object.entries(rated)) {
      expect((await api(`/api/upload/${id}`, { baseURL: server.url, method: 'PATCH', token: owner.token, body: { rating } })).status).toBe(200)
    }
    const both = [rated.explicit, rated.suggestive].sort()
    const asked = (caller: Caller, query: string) =>
      api(`/api/duel/next?${query}${'token' in caller ? '' : `&clientFingerprint=${caller.fingerprint}`}`, { baseURL: server.url, ...as(caller) })
    const pairOf = (body: { left: { id: string }, right: { id: string } }) => [body.left.id, body.right.id].sort()

    const guest = visitor()
    const guestPair = await asked(guest, 'rating=explicit,suggestive')
    expect(guestPair.status).toBe(200)
    expect(pairOf(guestPair.body)).toEqual(both)
    expect([guestPair.body.left.rating, guestPair.body.right.rating].sort()).toEqual(['explicit', 'suggestive'])
    expect((await asked(guest, 'rating=explicit')).body).toEqual({ duelId: null })

    const user = await registerUser({}, server.url)
    expect(pairOf((await asked(user, 'rating=suggestive&rating=explicit')).body)).toEqual(both)
    const preferences = (body: object) => api('/api/profile/preferences', { baseURL: server.url, method: 'PUT', token: user.token, body })
    expect((await preferences({ suggestive: 'hide' })).status).toBe(200)
    const hidden = await asked(user, 'rating=explicit,suggestive')
    expect(hidden.body).toEqual({ duelId: null })
    expect(hidden.headers.get('cache-control')).toBe('private, no-store')
    // Without rating=: the account's own preferences; every pair of the five safe images comes, and only those.
    expect((await preferences({ explicit: 'hide' })).status).toBe(200)
    const seen = new Set<string>()
    for (let i = 0; i < 11; i++) {
      const duel = (await next(user)).body
      if (duel.duelId === null) break
      expect([duel.left.rating, duel.right.rating]).toEqual(['safe', 'safe'])
      seen.add(pairOf(duel).join(' '))
      expect((await judge(user, duel.duelId, 'skip')).status).toBe(200)
    }
    expect(seen.size).toBe(10)

    for (const query of ['rating=nsfw', 'rating=', 'rating=safe&rating=x']) {
      const refused = await asked(guest, query)
      expect(refused.status, query).toBe(400)
      expect(refused.body, query).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid rating' })
    }
  })
})
