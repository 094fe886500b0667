/** Pages for signed-in people: others go to /login and come back afterwards. */
export default defineNuxtRouteMiddleware(async (to) => {
  const { ensureLoaded } = useAuth()
  if (!await ensureLoaded()) return navigateTo({ path: '/login', query: { redirect: to.fullPath } })
})
