/**
 * For a component whose markup the server rendered: `asServed(live, served)`
 * gives the value as served while the component hydrates, and the live value
 * once it is mounted (or when it renders in the browser in the first place).
 *
 * What a page reads after its hydration (blind voting, the content ratings
 * kept in this browser) and what a visitor does on it (a favourite, a blurred
 * picture shown) change shared state. A component hydrated late (the home
 * page's grids below the fold, hydrateInViewOrReached) would otherwise render
 * that new state over the markup of the old: Vue leaves a class or a checkbox
 * as the markup has it, and a blurred picture could stay unblurred. Where a
 * value differs, the component renders once more as it is mounted; where none
 * does, it does not (docs/performance.md, "Hydration").
 *
 * Vue gives a component its element before its setup only when it hydrates
 * that element.
 */
export function useAsServed(): <T>(live: T, served: T) => T {
  const instance = getCurrentInstance()
  const hydrating = shallowRef(import.meta.client && instance?.vnode.el != null)
  let mounted = false
  let stale = false
  if (hydrating.value) {
    onMounted(() => {
      mounted = true
      if (stale) hydrating.value = false
    })
  }
  return function asServed<T>(live: T, served: T): T {
    if (!hydrating.value || mounted) return live
    if (live !== served) stale = true
    return served
  }
}
