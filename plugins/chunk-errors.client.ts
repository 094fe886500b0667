import { joinURL } from 'ufo'

/**
 * A page whose code could not be fetched as it was being opened within the app
 * (`experimental.emitRouteChunkError: 'manual'` in nuxt.config.ts). Nuxt's own answer
 * loads that page from the server instead, which with the network or the server gone
 * replaces this page, and whatever was typed on it, with the browser's error page. Here
 * the server is asked first: when it answers, the build changed since this page was
 * loaded (its old chunks are gone) and the page is loaded anew, as Nuxt does; when it
 * does not, the visitor stays on this page, told why the other did not open.
 */
export default defineNuxtPlugin((nuxtApp) => {
  const router = useRouter()
  const base = useRuntimeConfig().app.baseURL
  const failed = new Set<unknown>()
  router.beforeEach(() => failed.clear())
  nuxtApp.hook('app:chunkError', ({ error }) => {
    failed.add(error)
  })
  router.onError(async (error, to) => {
    if (!failed.has(error)) return
    const reachable = await fetch(joinURL(base, '/robots.txt'), { cache: 'no-store' }).then(answer => answer.ok, () => false)
    if (reachable) reloadNuxtApp({ path: joinURL(base, to.fullPath), persistState: true })
    else nuxtApp.runWithContext(() => useToast().show('That page could not be opened: the site cannot be reached. Check your connection and try again.'))
  })
})
