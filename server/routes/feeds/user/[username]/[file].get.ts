import { getRouterParam } from 'h3'

/** GET /feeds/user/{username}/favourites.atom|.json: the user's 50 newest favourites among public uploads (404 while private). */
export default defineEventHandler((event) => {
  const file = feedFile(getRouterParam(event, 'file', { decode: true }))
  const username = getRouterParam(event, 'username', { decode: true })
  const source = file?.name === 'favourites' && username ? { kind: 'favourites' as const, username } : null
  return sendFeed(event, source, file?.format, 'Favourites not found')
})
