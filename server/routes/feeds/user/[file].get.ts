import { getRouterParam } from 'h3'

/** GET /feeds/user/{username}.atom|.json: the user's 50 newest public uploads. */
export default defineEventHandler((event) => {
  const file = feedFile(getRouterParam(event, 'file', { decode: true }))
  return sendFeed(event, file ? { kind: 'user', username: file.name } : null, file?.format, 'User not found')
})
