import { getCookie, getRequestHeader } from 'h3'

/**
 * Counts every /api request by client IP in its category. Uploads are counted
 * per user by the upload handlers, after authentication; an upload request that
 * carries no credential at all is counted here, by IP, so it too counts somewhere.
 */
export default defineEventHandler(async (event) => {
  const category = rateLimitCategory(event.method, event.path)
  if (!category) return
  if (category === 'upload') {
    if (!getCookie(event, SESSION_COOKIE) && !getRequestHeader(event, 'authorization')) {
      await enforceRateLimit(event, 'upload', `ip:${clientIp(event)}`)
    }
    return
  }
  await enforceRateLimit(event, category, clientIp(event))
})
