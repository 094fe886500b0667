import { setResponseHeaders } from 'h3'
import { exportAccount } from '../../services/own-data'

/** GET /api/profile/export (cookie): the caller's own data as a JSON download, written as it is read. */
export default defineEventHandler(async (event) => {
  const actor = await requireUser(event)
  await limitExports(event, actor.id)
  // Set here: a streamed answer has no ETag and skips the JSON answers' headers.
  setResponseHeaders(event, {
    'Content-Type': 'application/json',
    'Cache-Control': CACHE_POLICIES.personal,
    'Content-Disposition': `attachment; filename="does-it-fuck-${actor.username}.json"`,
  })
  return streamPieces(event, exportAccount(useDB(), actor, siteOrigin()))
})
