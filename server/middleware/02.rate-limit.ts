import { getCookie, getRequestHeader } from 'h3'

/**
 * Counts every /api request a client sends by client IP in its category.
 * Uploads are counted per user by the upload handlers, after authentication;
 * an upload request that carries no credential at all is counted here, by IP,
 * so it too counts somewhere. The API calls a page makes while it is rendered
 * on the server are part of that page view and are not counted.
 */
export default defineEventHandler(async (event) => {
  markServing(event)
  const category = rateLimitCategory(event.method, event.path)
  if (!category || isInProcessRequest(event)) return
  if (category === 'upload') {
    if (!getCookie(event, SESSION_COOKIE) && !getRequestHeader(event, 'authorization')) {
      await enforceRateLimit(event, 'upload', `ip:${clientIp(event)}`)
    }
    return
  }
  await enforceRateLimit(event, category, clientIp(event))
})
