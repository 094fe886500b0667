/**
 * UploadGrid hydrated apart from the page's first task, when it comes into view or
 * is reached (hydrateInViewOrReached): for a grid below the fold on a phone. It
 * renders its cards as served while it hydrates (useAsServed; docs/performance.md,
 * "Hydration").
 */
export default defineAsyncComponent({ loader: () => import('./UploadGrid.vue'), hydrate: hydrateInViewOrReached })
