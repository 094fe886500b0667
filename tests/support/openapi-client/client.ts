/**
 * A client written only against the types generated from /api/openapi.json
 * (./api.d.ts, openapi-typescript) and openapi-fetch: register, create an API token,
 * upload a PNG with it, vote, read the lists. tests/e2e/openapi-client.test.ts compiles
 * it under `tsc --strict` (no `as`, no `any`, no `!`) and runs it against the built
 * server with BASE_URL set; it prints what it read as one JSON line.
 */
import { randomBytes } from 'node:crypto'
import createClient from 'openapi-fetch'
import sharp from 'sharp'
import type { components, paths } from './api'

type Upload = components['schemas']['Upload']
type ListEntry = components['schemas']['UploadListEntry']

const baseUrl = process.env.BASE_URL
if (!baseUrl) throw new Error('BASE_URL is not set')
const client = createClient<paths>({ baseUrl })

/** The `data` of a successful call, or an error naming the step and the server's message. */
function ok<T>(step: string, result: { data?: T, error?: unknown, response: Response }): T {
  if (result.data === undefined) throw new Error(`${step}: ${result.response.status} ${JSON.stringify(result.error)}`)
  return result.data
}

const suffix = randomBytes(4).toString('hex')
const username = `client_${suffix}`

// 1. Register: the body is the RegisterRequest arm of the `action` discriminator.
const registered = ok('register', await client.POST('/api/auth', {
  body: { action: 'register', email: `${username}@client.test`, username, password: 'correct horse battery' },
}))
const session = registered.token
const user = registered.user
if (!session || !user) throw new Error('register: no token or user')
const cookie = `auth-token=${session}`

// 2. An API token, with the login JWT as a bearer; expiresInDays is an integer.
const apiToken = ok('create API token', await client.POST('/api/auth/tokens/generate', {
  headers: { Authorization: `Bearer ${session}` },
  body: { name: 'generated client', expiresInDays: 7 },
}))

// 3. A real PNG (random pixels, so never a duplicate) uploaded with the API token.
const png = await sharp(randomBytes(8 * 6 * 3), { raw: { width: 8, height: 6, channels: 3 } })
  .resize(64, 48, { kernel: 'nearest' })
  .png()
  .toBuffer()
const created = ok('upload', await client.POST('/api/v1/upload', {
  headers: { Authorization: `Bearer ${apiToken.token}` },
  body: { upload_type: 'image', file: new Blob([new Uint8Array(png)], { type: 'image/png' }), description: 'Sent by the generated client', tags: 'Generated Client, Typed' },
  bodySerializer(body) {
    const form = new FormData()
    form.append('upload_type', body.upload_type)
    form.append('description', body.description)
    if (body.tags !== undefined) form.append('tags', body.tags)
    if (body.is_private !== undefined) form.append('is_private', body.is_private)
    if (body.upload_type === 'image') {
      // `file` is bytes of no declared type (`unknown`): the Blob given above, checked rather than cast.
      if (!(body.file instanceof Blob)) throw new Error('upload: file is not a Blob')
      form.append('file', body.file, 'client.png')
    }
    else form.append('external_url', body.external_url)
    return form
  },
}))
const uploadId = created.upload.id

// 4. Vote, with the session cookie.
const vote = ok('vote', await client.POST('/api/vote', { headers: { cookie }, body: { uploadId, vote: 'fucks' } }))

// 5. Read it back: the upload, its tags, the caller's vote, the public list and the user's list.
const upload: Upload = ok('get upload', await client.GET('/api/upload/{id}', { params: { path: { id: uploadId } } }))
const tags = ok('list tags', await client.GET('/api/uploads/{id}/tags', { params: { path: { id: uploadId } } }))
const myVote = ok('get vote', await client.GET('/api/vote', { headers: { cookie }, params: { query: { uploadId } } }))
const page = ok('list uploads', await client.GET('/api/uploads', { params: { query: { page: 1, limit: 100 } } }))
const listed: ListEntry | undefined = page.uploads.find(entry => entry.id === uploadId)
const mine = ok('list user uploads', await client.GET('/api/user/{username}/uploads', { params: { path: { username }, query: { page: 1, limit: 5, sort: 'votes' } } }))

console.log(JSON.stringify({
  user: { id: user.id, username: user.username, email: user.email },
  apiToken: { name: apiToken.name, length: apiToken.token.length },
  created: { uploadType: created.upload.uploadType, userId: created.upload.userId, originalName: created.upload.originalName, isPrivate: created.upload.isPrivate },
  vote: { userId: vote.vote.userId, uploadId: vote.vote.uploadId, vote: vote.vote.vote },
  upload: {
    id: upload.id,
    username: upload.username,
    description: upload.description,
    upload_type: upload.upload_type,
    upvotes: upload.upvotes,
    downvote_count: upload.downvote_count,
    stats: upload.stats,
    tags: upload.tags.map(tag => tag.slug),
  },
  tags: tags.tags.map(tag => tag.name),
  myVote: myVote.vote,
  listPage: { page: page.page, limit: page.limit, listed: listed?.id ?? null, upvotes: listed?.upvotes ?? null },
  userList: { username: mine.user.username, total: mine.total, page: mine.page, limit: mine.limit, ids: mine.uploads.map(entry => entry.id) },
}))
