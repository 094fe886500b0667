/**
 * Counts every /api request by client IP in its category. Uploads are
 * counted per user by the upload handlers, after authentication.
 */
export default defineEventHandler(async (event) => {
  const category = rateLimitCategory(event.method, event.path)
  if (!category || category === 'upload') return
  await enforceRateLimit(event, category, clientIp(event))
})
