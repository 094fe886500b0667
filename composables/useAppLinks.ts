/**
 * Every link within the site is a plain `<a data-app-link>` element, not a
 * NuxtLink (eslint.config.mjs refuses one): the server render writes it as a
 * string, with no component, vnode or router state per link, and no page
 * brings NuxtLink's component into the entry chunk. One listener on the
 * document changes page within the app on a plain left click of any of them
 * and leaves every other click (a new tab, a modifier key, a target) to the
 * browser. app.vue installs it; error.vue does not, so there such a link
 * loads its page in full.
 */
export function useAppLinks() {
  onMounted(() => {
    document.addEventListener('click', followAppLink)
    for (const type of INTENT_EVENTS) document.addEventListener(type, fetchAppLinkCode, { passive: true })
  })
  onBeforeUnmount(() => {
    document.removeEventListener('click', followAppLink)
    for (const type of INTENT_EVENTS) document.removeEventListener(type, fetchAppLinkCode)
  })
}

/**
 * The code of the page a plain link opens is fetched when a pointer comes
 * over the link, a finger touches it or the keyboard focuses it: the click
 * comes later, and the code is there by then. Not when the page is ready, nor
 * once the link is in view (a NuxtLink's default): each page's code brings its
 * stylesheet, and every stylesheet added restyles the whole page
 * (docs/performance.md, "First paint").
 */
const INTENT_EVENTS = ['pointerover', 'touchstart', 'focusin'] as const
const fetched = new Set<string>()

function fetchAppLinkCode(event: Event) {
  const link = (event.target as Element | null)?.closest?.('a[data-app-link]')
  const href = link?.getAttribute('href')
  if (!href || fetched.has(href)) return
  fetched.add(href)
  void preloadRouteComponents(href)
}

function followAppLink(event: MouseEvent) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  const link = (event.target as Element).closest('a[data-app-link]')
  if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== '_self')) return
  event.preventDefault()
  void navigateTo(link.getAttribute('href')!)
}

/** A plain link's `aria-current`: "page" on the page it opens, as RouterLink marks its exact-active link. */
export function useCurrentPage() {
  const route = useRoute()
  return (path: string): 'page' | undefined => (route.path === path ? 'page' : undefined)
}
