/** Admin pages: guests sign in first; signed-in non-admins get a 403 page. */
export default defineNuxtRouteMiddleware(async (to) => {
  const profile = await useAuth().ensureLoaded()
  if (!profile) return navigateTo({ path: '/login', query: { redirect: to.fullPath } })
  if (!profile.user.isAdmin) return abortNavigation(createError({ statusCode: 403, statusMessage: 'Forbidden', message: 'This page is for admins only.', fatal: true }))
})
