import { getRouterParam } from 'h3'

/** GET /feeds/upload/{id}/comments.atom|.json: the 50 newest comments of a public upload anyone may see. */
export default defineEventHandler((event) => {
  const file = feedFile(getRouterParam(event, 'file', { decode: true }))
  const uploadId = getRouterParam(event, 'id', { decode: true })
  const source = file?.name === 'comments' && uploadId ? { kind: 'comments' as const, uploadId } : null
  return sendFeed(event, source, file?.format, 'Upload not found')
})
