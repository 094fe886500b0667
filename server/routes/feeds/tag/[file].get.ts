import { getRouterParam } from 'h3'

/** GET /feeds/tag/{slug}.atom|.json: the 50 newest public uploads carrying the tag. */
export default defineEventHandler((event) => {
  const file = feedFile(getRouterParam(event, 'file', { decode: true }))
  return sendFeed(event, file ? { kind: 'tag', slug: file.name } : null, file?.format, 'Tag not found')
})
