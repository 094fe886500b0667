/** GET /api/auth/providers: the identity providers offered for sign-in (public). */
export default defineEventHandler((event) => {
  return { providers: configuredProviders(event) }
})
