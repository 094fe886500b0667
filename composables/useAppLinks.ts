/**
 * Links repeated in lists (a card's three, a tag chip's) are plain
 * `<a data-app-link>` elements: the server render writes them as strings,
 * with no component, vnode or router state per link. One listener on the
 * document changes page within the app on a plain left click of any of them
 * and leaves every other click (a new tab, a modifier key, a target) to the
 * browser. app.vue installs it; error.vue does not, so there such a link
 * loads its page in full.
 */
export function useAppLinks() {
  onMounted(() => document.addEventListener('click', followAppLink))
  onBeforeUnmount(() => document.removeEventListener('click', followAppLink))
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

/** Fetches the code of the pages the plain links inside `root` open, as NuxtLinks in view do. */
export function preloadAppLinks(root: Element | null | undefined) {
  const paths = new Set([...root?.querySelectorAll('a[data-app-link]') ?? []].map(link => link.getAttribute('href')!))
  for (const path of paths) void preloadRouteComponents(path)
}
