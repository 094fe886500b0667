import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerUser, type TestUser } from '../support/api'
import { startServer, testEngine, type RunningServer } from '../support/server'
import { uploadImage } from '../support/uploads'

/**
 * The hot routes (server/plugins/api-fast-path.ts) skip Nitro's pipeline;
 * a percent-escaped spelling of the same path takes the pipeline (routing
 * decodes it). Both must answer alike: status, headers in the same order,
 * bytes. The rate limiter is on, so its counting and headers are compared too.
 */
let server: RunningServer
let user: TestUser
let uploadId: string

/** Two limits apart, so an answer's RateLimit-Limit tells which category it counted in. */
const [VOTE_MAX, ANON_VOTE_MAX] = [1000, 999]

interface RawAnswer { status: number, headers: [string, string][], body: Buffer }

function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string, baseUrl = server.url): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const pairs: [string, string][] = []
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!])
        resolve({ status: res.statusCode!, headers: pairs, body: Buffer.concat(chunks) })
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** Headers that belong to the moment (Date, the window's reset, the request's id) or to the count so far (Remaining, compared apart). */
const MOMENTARY = new Set(['date', 'ratelimit-reset', 'ratelimit-remaining', 'x-request-id'])
/**
 * Headers compared in order, but Content-Length last: `end` adds it after Date
 * and Connection, where a replay writes it with the others in one `writeHead`.
 */
const stable = (answer: RawAnswer) => {
  const isLength = ([name]: [string, string]) => name.toLowerCase() === 'content-length'
  return [...answer.headers.filter(pair => !isLength(pair)), ...answer.headers.filter(isLength)]
    .map(([name, value]) => [name, MOMENTARY.has(name.toLowerCase()) ? '' : value])
}
/** Whether Content-Length came before Date: how a replayed answer tells itself apart. */
const replayed = (answer: RawAnswer) => {
  const names = answer.headers.map(([name]) => name.toLowerCase())
  return names.indexOf('content-length') !== -1 && names.indexOf('content-length') < names.indexOf('date')
}
const remaining = (answer: RawAnswer) => Number(answer.headers.find(([name]) => name.toLowerCase() === 'ratelimit-remaining')?.[1])

/** The same request on the fast path, then on the pipeline: both answers, and the points each spent. */
async function both(method: string, fast: string, escaped: string, headers: Record<string, string> = {}, body?: string) {
  const a = await raw(method, fast, headers, body)
  const b = await raw(method, escaped, headers, body)
  expect(b.status, `${method} ${fast}`).toBe(a.status)
  expect(stable(b), `${method} ${fast}`).toEqual(stable(a))
  expect(b.body.equals(a.body), `${method} ${fast}`).toBe(true)
  return { a, b }
}

beforeAll(async () => {
  server = await startServer({
    NUXT_API_FAST_PATH: 'true',
    NUXT_RATE_LIMIT_ENABLED: 'true',
    NUXT_RATE_LIMIT_GENERAL_MAX: '1000',
    NUXT_RATE_LIMIT_VOTE_MAX: String(VOTE_MAX),
    NUXT_RATE_LIMIT_ANON_VOTE_MAX: String(ANON_VOTE_MAX),
    NUXT_RATE_LIMIT_COMMENT_MAX: '1000',
  })
  user = await registerUser({}, server.url)
  uploadId = (await uploadImage(user, { baseURL: server.url, tags: 'fastpathtag' })).id
})

afterAll(async () => {
  await server?.stop()
})

describe('the hot routes answer as the full pipeline does', () => {
  it('answers every public list alike, counting one point each', async () => {
    for (const [fast, escaped] of [
      ['/api/uploads', '/api/%75ploads'],
      ['/api/uploads?sort=top&period=year&page=1&limit=5', '/api/%75ploads?sort=top&period=year&page=1&limit=5'],
      ['/api/uploads/filtered?tags=fastpathtag', '/api/uploads/%66iltered?tags=fastpathtag'],
      ['/api/items-recent', '/api/%69tems-recent'],
      ['/api/items-top-voted', '/api/%69tems-top-voted'],
      [`/api/user/${user.username}/uploads`, `/api/%75ser/${user.username}/uploads`],
    ]) {
      const plain = await both('GET', fast!, escaped!)
      expect(plain.a.status, fast).toBe(200)
      expect(remaining(plain.b), fast).toBe(remaining(plain.a) - 1)
      const etag = plain.a.headers.find(([name]) => name.toLowerCase() === 'etag')![1]
      const brotli = await both('GET', fast!, escaped!, { 'accept-encoding': 'br' })
      expect(brotli.a.status).toBe(200)
      const revalidated = await both('GET', fast!, escaped!, { 'if-none-match': etag })
      expect(revalidated.a.status).toBe(304)
      // A 304 gives its point back on both.
      expect(remaining(revalidated.b)).toBe(remaining(revalidated.a))
      const head = await both('HEAD', fast!, escaped!)
      expect(head.a.body.length).toBe(0)
    }
  })

  it('answers a repeated list as it was sent, as the pipeline does, until the data changes', async () => {
    // A new data version: nothing the test before asked for is kept.
    await uploadImage(user, { baseURL: server.url })
    for (const [fast, escaped] of [
      ['/api/uploads?limit=7', '/api/%75ploads?limit=7'],
      ['/api/uploads/filtered?tags=fastpathtag&limit=3', '/api/uploads/%66iltered?tags=fastpathtag&limit=3'],
      ['/api/items-top-voted', '/api/%69tems-top-voted'],
      [`/api/user/${user.username}/uploads?sort=votes`, `/api/%75ser/${user.username}/uploads?sort=votes`],
    ]) {
      for (const headers of [{}, { 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip, deflate' }] as Record<string, string>[]) {
        const label = `${fast} ${JSON.stringify(headers)}`
        for (let attempt = 1; ; attempt++) {
          // The first answer is kept as sent; the second is that answer again, the third the pipeline's.
          const first = await raw('GET', fast!, headers)
          const again = await both('GET', fast!, escaped!, headers)
          // PostgreSQL's data version is its cluster's snapshot: a write to another test
          // file's database on the shared cluster moves it, and an answer is then made anew.
          if (!replayed(again.a) && !again.a.headers.some(([name]) => name.toLowerCase() === 'content-encoding') && testEngine() === 'postgres' && attempt < 5) continue
          expect(again.a.status, label).toBe(200)
          // A replay tells itself apart by Content-Length before Date; a compressed answer sets
          // its length before Date when it is made too, so only the uncompressed ones are told apart.
          if (!again.a.headers.some(([name]) => name.toLowerCase() === 'content-encoding')) {
            expect([attempt > 1 || !replayed(first), replayed(again.a), replayed(again.b)], label).toEqual([true, true, false])
          }
          expect(stable(again.a), label).toEqual(stable(first))
          expect(again.a.body.equals(first.body), label).toBe(true)
          expect(remaining(again.a), label).toBe(remaining(first) - 1)
          expect(remaining(again.b), label).toBe(remaining(again.a) - 1)
          break
        }
      }
    }
    const recent = async () => JSON.parse((await raw('GET', '/api/items-recent')).body.toString()) as { items: { id: string }[] }
    await recent()
    const kept = await recent()
    const added = (await uploadImage(user, { baseURL: server.url })).id
    expect(kept.items[0]!.id).not.toBe(added)
    expect((await recent()).items[0]!.id).toBe(added)
  })

  it('refuses bad input to a list alike', async () => {
    expect((await both('GET', '/api/uploads?page=abc', '/api/%75ploads?page=abc')).a.status).toBe(400)
    expect((await both('GET', '/api/uploads?unvoted=true', '/api/%75ploads?unvoted=true')).a.status).toBe(401)
    expect((await both('POST', '/api/uploads', '/api/%75ploads', { 'content-type': 'application/json' }, '{}')).a.status).toBe(405)
  })

  it('casts, repeats and takes back a vote alike', async () => {
    const json = { 'content-type': 'application/json', 'cookie': `auth-token=${user.token}` }
    // The second cast of the same vote changes nothing and answers the same vote id.
    const cast = await both('POST', '/api/vote', '/api/%76ote', json, JSON.stringify({ uploadId, vote: 'fucks' }))
    expect(cast.a.status).toBe(200)
    expect(JSON.parse(cast.a.body.toString())).toEqual({ vote: { voteId: expect.any(String), userId: user.id, uploadId, vote: 'fucks' } })
    expect(remaining(cast.b)).toBe(remaining(cast.a) - 1)
    expect((await both('POST', '/api/vote', '/api/%76ote', json, JSON.stringify({ uploadId, vote: 'sometimes' }))).a.status).toBe(400)
    expect((await both('POST', '/api/vote', '/api/%76ote', { ...json, 'content-type': 'text/plain' }, JSON.stringify({ uploadId, vote: 'fucks' }))).a.status).toBe(415)
    expect((await both('POST', '/api/vote', '/api/%76ote', { ...json, origin: 'https://elsewhere.example' }, JSON.stringify({ uploadId, vote: 'fucks' }))).a.status).toBe(403)
    expect((await both('POST', '/api/vote', '/api/%76ote', { 'content-type': 'application/json' }, JSON.stringify({ uploadId, vote: 'fucks' }))).a.status).toBe(401)
    const removed = await both('DELETE', `/api/vote?uploadId=${uploadId}`, `/api/%76ote?uploadId=${uploadId}`, { cookie: json.cookie })
    expect(removed.a.status).toBe(200)
    expect(JSON.parse(removed.a.body.toString())).toEqual({ success: true, vote: null })
  })

  it('edits an upload alike, and refuses a bad edit alike', async () => {
    const json = { 'content-type': 'application/json', 'cookie': `auth-token=${user.token}` }
    const [fast, escaped] = [`/api/upload/${uploadId}`, `/api/%75pload/${uploadId}`]
    const edit = JSON.stringify({ description: 'Edited on the fast path', tags: ['fastpathtag', 'fastpathedit'] })
    // The first makes revision 2; the second, the same change again, changes nothing and answers it.
    const edited = await both('PATCH', fast, escaped, json, edit)
    expect(edited.a.status).toBe(200)
    const answer = JSON.parse(edited.a.body.toString()) as { revision: number, upload: { description: string, tags: { slug: string }[] } }
    expect([answer.revision, answer.upload.description, answer.upload.tags.map(tag => tag.slug)]).toEqual([2, 'Edited on the fast path', ['fastpathtag', 'fastpathedit']])
    expect(remaining(edited.b)).toBe(remaining(edited.a) - 1)
    const refusals = [
      await both('PATCH', fast, escaped, { ...json, 'if-match': '"stale"' }, edit),
      await both('PATCH', fast, escaped, json, JSON.stringify({ tags: 'not a list' })),
      await both('PATCH', fast, escaped, { ...json, 'content-type': 'text/plain' }, edit),
      await both('PATCH', fast, escaped, { ...json, origin: 'https://elsewhere.example' }, edit),
      await both('PATCH', fast, escaped, { 'content-type': 'application/json' }, edit),
    ]
    expect(refusals.map(answer => answer.a.status)).toEqual([412, 400, 415, 403, 401])
  })

  it('takes a visitor\'s vote, a favourite, a comment and a comment vote alike', async () => {
    const visitor = { 'content-type': 'application/json', 'user-agent': 'fast-path-test/1.0' }
    const ballot = JSON.stringify({ uploadId, vote: 'upvote', clientFingerprint: 'fp-fast-path' })
    const [anonymous, anonymousEscaped] = ['/api/vote/anonymous', '/api/%76ote/anonymous']
    expect((await raw('POST', anonymous, visitor, ballot)).status).toBe(200)
    const ballots = [
      await both('POST', anonymous, anonymousEscaped, visitor, ballot),
      await both('POST', anonymous, anonymousEscaped, visitor, JSON.stringify({ uploadId, vote: 'maybe', clientFingerprint: 'fp-fast-path' })),
      await both('POST', anonymous, anonymousEscaped, { ...visitor, 'content-type': 'text/plain' }, ballot),
      await both('POST', anonymous, anonymousEscaped, { ...visitor, origin: 'https://elsewhere.example' }, ballot),
    ]
    expect(ballots.map(answer => answer.a.status)).toEqual([409, 400, 415, 403])

    const cookie = { cookie: `auth-token=${user.token}` }
    const [favourite, favouriteEscaped] = [`/api/upload/${uploadId}/favourite`, `/api/%75pload/${uploadId}/favourite`]
    // Kept twice and dropped twice: the second of each changes nothing and answers the same.
    const kept = await both('PUT', favourite, favouriteEscaped, cookie)
    expect([kept.a.status, JSON.parse(kept.a.body.toString())]).toEqual([200, { favourited: true, favourites: 1 }])
    expect(remaining(kept.b)).toBe(remaining(kept.a) - 1)
    const dropped = await both('DELETE', favourite, favouriteEscaped, cookie)
    expect([dropped.a.status, JSON.parse(dropped.a.body.toString())]).toEqual([200, { favourited: false, favourites: 0 }])
    expect((await both('PUT', favourite, favouriteEscaped)).a.status).toBe(401)

    const json = { 'content-type': 'application/json', ...cookie }
    const [comments, commentsEscaped] = [`/api/upload/${uploadId}/comments`, `/api/%75pload/${uploadId}/comments`]
    // Each post is a new comment: the two answers differ by id and time, so each path posts one.
    const posted = [await raw('POST', comments, json, JSON.stringify({ body: 'Fast' })), await raw('POST', commentsEscaped, json, JSON.stringify({ body: 'Piped' }))]
    expect(posted.map(answer => [answer.status, (JSON.parse(answer.body.toString()) as { comment: { body: string } }).comment.body])).toEqual([[201, 'Fast'], [201, 'Piped']])
    const refusedPosts = [
      await both('POST', comments, commentsEscaped, json, JSON.stringify({ body: '' })),
      await both('POST', comments, commentsEscaped, { 'content-type': 'application/json' }, JSON.stringify({ body: 'Nobody' })),
    ]
    expect(refusedPosts.map(answer => answer.a.status)).toEqual([400, 401])

    const commentId = (JSON.parse(posted[0]!.body.toString()) as { comment: { id: string } }).comment.id
    const voter = await registerUser({}, server.url)
    const voterJson = { 'content-type': 'application/json', 'cookie': `auth-token=${voter.token}` }
    const [commentVote, commentVoteEscaped] = [`/api/comments/${commentId}/vote`, `/api/%63omments/${commentId}/vote`]
    const up = await both('PUT', commentVote, commentVoteEscaped, voterJson, JSON.stringify({ vote: 'up' }))
    expect([up.a.status, JSON.parse(up.a.body.toString())]).toEqual([200, { score: 1, myVote: 'up' }])
    expect((await both('PUT', commentVote, commentVoteEscaped, voterJson, JSON.stringify({ vote: 'sideways' }))).a.status).toBe(400)
  })

  it('judges a duel alike, counting a judge\'s judgement as a vote and a visitor\'s as an anonymous vote', async () => {
    const limitOf = (answer: RawAnswer) => Number(answer.headers.find(([name]) => name.toLowerCase() === 'ratelimit-limit')?.[1])
    // Two images of another account at least, whichever tests ran before: a duel to judge.
    await uploadImage(user, { baseURL: server.url })
    const judge = await registerUser({}, server.url)
    const signedIn = { 'content-type': 'application/json', 'cookie': `auth-token=${judge.token}` }
    const duel = JSON.parse((await raw('GET', '/api/duel/next', { cookie: signedIn.cookie })).body.toString()) as { duelId: string }
    const judgement = JSON.stringify({ duelId: duel.duelId, winner: 'left' })
    const judged = await raw('POST', '/api/duel', signedIn, judgement)
    expect([judged.status, limitOf(judged)]).toEqual([200, VOTE_MAX])
    const refusals = [
      await both('POST', '/api/duel', '/api/%64uel', signedIn, judgement),
      await both('POST', '/api/duel', '/api/%64uel', signedIn, JSON.stringify({ duelId: duel.duelId, winner: 'up' })),
      await both('POST', '/api/duel', '/api/%64uel', { ...signedIn, 'content-type': 'text/plain' }, judgement),
      await both('POST', '/api/duel', '/api/%64uel', { ...signedIn, origin: 'https://elsewhere.example' }, judgement),
    ]
    expect(refusals.map(answer => [answer.a.status, limitOf(answer.a)])).toEqual([[400, VOTE_MAX], [400, VOTE_MAX], [415, VOTE_MAX], [403, NaN]])

    const visitor = { 'content-type': 'application/json', 'user-agent': 'fast-path-test/1.0' }
    const fingerprint = 'fp-fast-path-duel'
    const visitorDuel = JSON.parse((await raw('GET', `/api/duel/next?clientFingerprint=${fingerprint}`, visitor)).body.toString()) as { duelId: string }
    const visitorJudged = await raw('POST', '/api/duel', visitor, JSON.stringify({ duelId: visitorDuel.duelId, winner: 'right', clientFingerprint: fingerprint }))
    expect([visitorJudged.status, limitOf(visitorJudged)]).toEqual([200, ANON_VOTE_MAX])
  })

  it('serves a picture alike: the original, a derivative made on request, a 304, a HEAD, and refusals', async () => {
    for (const query of ['', '?size=thumb', '?size=small']) {
      const [fast, escaped] = [`/api/image/${uploadId}${query}`, `/api/%69mage/${uploadId}${query}`]
      const picture = await both('GET', fast, escaped)
      expect(picture.a.status, fast).toBe(200)
      expect(picture.a.body.length, fast).toBeGreaterThan(100)
      const etag = picture.a.headers.find(([name]) => name.toLowerCase() === 'etag')![1]
      const revalidated = await both('GET', fast, escaped, { 'if-none-match': etag })
      expect([revalidated.a.status, revalidated.a.body.length], fast).toEqual([304, 0])
      const head = await both('HEAD', fast, escaped)
      expect([head.a.status, head.a.body.length], fast).toEqual([200, 0])
    }
    const missing = '00000000-0000-4000-8000-000000000000'
    const refused = [
      await both('GET', `/api/image/${uploadId}?size=huge`, `/api/%69mage/${uploadId}?size=huge`),
      await both('GET', '/api/image/not-an-id', '/api/%69mage/not-an-id'),
      await both('GET', `/api/image/${missing}`, `/api/%69mage/${missing}`),
    ]
    expect(refused.map(answer => answer.a.status)).toEqual([400, 404, 404])
  })
})

describe('a repeated list over the rate limit', () => {
  const LIMIT = 6
  let limitedServer: RunningServer
  beforeAll(async () => {
    limitedServer = await startServer({ NUXT_API_FAST_PATH: 'true', NUXT_RATE_LIMIT_ENABLED: 'true', NUXT_RATE_LIMIT_GENERAL_MAX: String(LIMIT), NUXT_RATE_LIMIT_GENERAL_WINDOW_SECONDS: '60' })
  })
  afterAll(async () => {
    await limitedServer?.stop()
  })

  it('is refused with 429 and Retry-After as the pipeline refuses it, not replayed', async () => {
    const get = (path: string) => raw('GET', path, {}, undefined, limitedServer.url)
    const allowed: Awaited<ReturnType<typeof get>>[] = []
    for (let i = 0; i < LIMIT; i++) allowed.push(await get('/api/uploads'))
    expect(allowed.map(answer => [answer.status, remaining(answer)])).toEqual(Array.from({ length: LIMIT }, (_, i) => [200, LIMIT - 1 - i]))
    // Every answer after the first is the first replayed; on PostgreSQL another test file's
    // write to the shared cluster moves the data version, and an answer is then made anew.
    if (testEngine() === 'postgres') expect(allowed.slice(1).some(replayed)).toBe(true)
    else expect(allowed.map(replayed)).toEqual([false, ...Array(LIMIT - 1).fill(true)])
    const refused = await get('/api/uploads')
    const refusedByPipeline = await get('/api/%75ploads')
    expect([refused.status, refusedByPipeline.status]).toEqual([429, 429])
    expect(stable(refused)).toEqual(stable(refusedByPipeline))
    expect(refused.headers.find(([name]) => name === 'Retry-After')?.[1]).toMatch(/^[1-9]\d*$/)
    expect(JSON.parse(refused.body.toString())).toEqual({ statusCode: 429, statusMessage: 'Too Many Requests', message: 'Too many requests, please try again later' })
  })
})

describe('a comment on the fast path', () => {
  it('counts against its author\'s limit only, as its handler counts it, not against the address', async () => {
    const limited = await startServer({ NUXT_API_FAST_PATH: 'true', NUXT_RATE_LIMIT_ENABLED: 'true', NUXT_RATE_LIMIT_COMMENT_MAX: '2' })
    try {
      const [first, second] = [await registerUser({}, limited.url), await registerUser({}, limited.url)]
      const target = (await uploadImage(first, { baseURL: limited.url })).id
      const post = (author: TestUser) => raw('POST', `/api/upload/${target}/comments`, { 'content-type': 'application/json', 'cookie': `auth-token=${author.token}` },
        JSON.stringify({ body: 'Counted once' }), limited.url)
      // Both accounts post from 127.0.0.1: a count by address would refuse the second account's first post.
      const statuses = [(await post(first)).status, (await post(first)).status, (await post(first)).status, (await post(second)).status]
      expect(statuses).toEqual([201, 201, 429, 201])
    }
    finally {
      await limited.stop()
    }
  })
})

describe('NUXT_API_FAST_PATH=false', () => {
  it('sends every request through the pipeline: a repeated list is made anew each time, with the same bytes', async () => {
    const off = await startServer({ NUXT_API_FAST_PATH: 'false' })
    try {
      const answers = []
      for (let i = 0; i < 3; i++) answers.push(await raw('GET', '/api/uploads?limit=4', {}, undefined, off.url))
      expect(answers.map(answer => [answer.status, replayed(answer)])).toEqual([[200, false], [200, false], [200, false]])
      expect(answers[2]!.body.equals(answers[0]!.body)).toBe(true)
      expect(off.output()).not.toContain('[fast-path]')
    }
    finally {
      await off.stop()
    }
  })
})
