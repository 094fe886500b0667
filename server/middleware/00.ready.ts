/** No request is answered before the schema is migrated and the secrets are loaded. */
export default defineEventHandler(async () => {
  await serverStarted()
})
