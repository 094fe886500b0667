/**
 * Before a response is sent: ETag, Cache-Control and 304 for /api GETs, then
 * brotli/gzip for pages and JSON (in this order, so the ETag is the identity
 * one and compression gives the variant its own).
 */
export default defineNitroPlugin((nitroApp) => {
  nitroApp.hooks.hook('beforeResponse', async (event, response) => {
    applyHttpCache(event, response)
    await compressResponse(event, response)
  })
})
