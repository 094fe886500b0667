/** Admin pages: guests sign in first; signed-in non-admins get a 403 page; a failed account load is an error, not a sign-out. */
export default defineNuxtRouteMiddleware(async (to) => {
  if (serverShowsError()) return
  const { ensureLoaded, unavailableError } = useAuth()
  const profile = await ensureLoaded()
  if (!profile) {
    const unavailable = unavailableError()
    if (unavailable) return abortNavigation(unavailable)
    return navigateTo({ path: '/login', query: { redirect: to.fullPath } })
  }
  if (!profile.user.isAdmin) return abortNavigation(createError({ statusCode: 403, statusMessage: 'Forbidden', message: 'This page is for admins only.', fatal: true }))
})
