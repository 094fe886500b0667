/**
 * Pages for signed-in people: others go to /login and come back afterwards.
 * When the account could not be loaded (429, 5xx), an error page says so:
 * only a 401 means the visitor is signed out.
 */
export default defineNuxtRouteMiddleware(async (to) => {
  if (serverShowsError()) return
  const { ensureLoaded, unavailableError } = useAuth()
  if (await ensureLoaded()) return
  const unavailable = unavailableError()
  if (unavailable) return abortNavigation(unavailable)
  return navigateTo({ path: '/login', query: { redirect: to.fullPath } })
})
