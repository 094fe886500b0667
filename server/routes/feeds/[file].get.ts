import { getRouterParam } from 'h3'

/** GET /feeds/recent.atom|.json and /feeds/top.atom|.json: the 50 newest or top-voted public uploads. */
export default defineEventHandler((event) => {
  const file = feedFile(getRouterParam(event, 'file'))
  const kind = file?.name === 'recent' || file?.name === 'top' ? file.name : null
  return sendFeed(event, kind ? { kind } : null, file?.format, 'Feed not found')
})
