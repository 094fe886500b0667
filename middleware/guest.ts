/** Sign-in and registration pages: someone already signed in goes home. */
export default defineNuxtRouteMiddleware(async () => {
  if (await useAuth().ensureLoaded()) return navigateTo('/')
})
