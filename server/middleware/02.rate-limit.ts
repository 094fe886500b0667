/**
 * Counts every /api request a client sends by client IP in its category.
 * Uploads and comment writes are counted by their handlers (`limitAccount`): per
 * user once the credential is checked, by IP when there is none or it is not valid.
 * The API calls a page makes while it is rendered on the server are part of
 * that page view and are not counted.
 */
export default defineEventHandler(async (event) => {
  markServing(event)
  const category = categoryByAddress(event.method, event.path, () => hasSessionCookie(event))
  if (!category || isInProcessRequest(event)) return
  await enforceRateLimit(event, category, clientIp(event))
})
