/**
 * UploadGrid hydrated apart from the page's first task, when it is in view and the
 * visitor has done something on the page, or when it is reached (hydrateInViewOrReached):
 * for a grid below the fold on a phone, or one a visitor may only look at. It renders its
 * cards as served while it hydrates (useAsServed; docs/performance.md, "Hydration").
 */
export default defineAsyncComponent({ loader: () => import('./UploadGrid.vue'), hydrate: hydrateInViewOrReached })
