import { randomUUID } from 'node:crypto'
import { setResponseHeaders } from 'h3'
import { exportAccount } from '../../services/own-data'

/** GET /api/profile/export (cookie): the caller's own data as a JSON download, written as it is read. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  const etag = `"export-${randomUUID()}"`
  // `If-None-Match: *` (any version held) is answered 304, as on every /api GET; no export is counted or read.
  if (isNotModified(event, etag)) return null
  await limitExports(event, actor.id)
  // Set here: a streamed answer skips the JSON answers' headers. Its bytes are not known before
  // they are sent, and every export is a document of its own (its exportedAt): the ETag names
  // this one, so an If-None-Match of an earlier export never matches it (docs/behaviour.md, Caching).
  setResponseHeaders(event, {
    'Content-Type': 'application/json',
    'Cache-Control': CACHE_POLICIES.personal,
    'Content-Disposition': `attachment; filename="does-it-fuck-${actor.username}.json"`,
    'ETag': etag,
  })
  return streamPieces(event, exportAccount(useDB(), actor, siteOrigin()))
})
