import { getResponseStatus } from 'h3'

/**
 * Before a response is sent: ETag, Cache-Control and 304 for /api GETs (a
 * 304 gives its rate-limit point back), then brotli/gzip for pages and JSON
 * (in this order, so the ETag is the identity one and compression gives the
 * variant its own).
 */
export default defineNitroPlugin((nitroApp) => {
  nitroApp.hooks.hook('beforeResponse', async (event, response) => {
    applyHttpCache(event, response)
    // A 304 does not spend a rate-limit point: the client already holds the answer.
    if (getResponseStatus(event) === 304) await refundRateLimit(event)
    await compressResponse(event, response)
  })
})
