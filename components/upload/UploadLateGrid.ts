import type { Component } from 'vue'
import type UploadGrid from './UploadGrid.vue'

const LateGrid: Component = defineAsyncComponent({ loader: () => import('./UploadGrid.vue'), hydrate: hydrateInViewOrReached })

/**
 * UploadGrid hydrated apart from the page's first task, when it is in view and the
 * visitor has done something on the page, or when it is reached (hydrateInViewOrReached):
 * for a grid below the fold on a phone, or one a visitor may only look at. It renders its
 * cards as served while it hydrates (useAsServed; docs/performance.md, "Hydration").
 *
 * The viewer's choices (content ratings, blind voting) are read as the page is mounted,
 * here, not as the grid hydrates: where they change what the grid shows it hydrates at
 * once (hydrateWaitingNow). Read by the grid alone, they would wait for the visitor's
 * first move, and a signed-in account's blurred pictures would show until then.
 */
export default defineComponent({
  name: 'UploadLateGrid',
  inheritAttrs: false,
  setup(_, { attrs }) {
    useRatingView()
    useBlindVoting()
    return () => h(LateGrid, attrs)
  },
}) as unknown as typeof UploadGrid
