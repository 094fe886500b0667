import { shallowRef } from 'vue'
import { perApp } from './useApi'

/**
 * What the app's one polite live region (app.vue) says (docs/behaviour.md, Basics): the
 * title of a page reached within the app, as a page load would say it, or, when a list
 * changed in place (another page of it, a search's results), what it now shows. Nothing
 * until the first navigation within the app, so the page as served and as hydrated agree
 * and a first load is not said twice.
 */
export const useLiveRegion = perApp(() => {
  const text = shallowRef('')
  let navigations = 0
  /** The navigation a list has spoken for: the page's title, changed by it too, does not talk over it. */
  let listSpokeFor = 0
  if (import.meta.client) {
    useRouter().afterEach((_to, from) => {
      if (from.matched.length) navigations++
    })
  }
  return {
    text,
    /** The title of the page reached. */
    title(title: string) {
      if (navigations && listSpokeFor !== navigations) text.value = title
    },
    /** What a list shows once it changed after a navigation: "Page 2 of 7", "12 results for red". */
    list(message: string) {
      if (!navigations) return
      listSpokeFor = navigations
      text.value = message
    },
  }
})
