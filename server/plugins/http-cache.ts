/**
 * Before a response is sent: ETag, Cache-Control and 304 for /api GETs (a
 * 304 gives its rate-limit point back), then brotli/gzip for pages and JSON
 * (in this order, so the ETag is the identity one and compression gives the
 * variant its own).
 */
export default defineNitroPlugin((nitroApp) => {
  nitroApp.hooks.hook('beforeResponse', finishResponse)
})
