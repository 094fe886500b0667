// @ts-check
import withNuxt from './.nuxt/eslint.config.mjs'

export default withNuxt({
  ignores: ['drizzle/**', 'data/**'],
}, {
  rules: {
    // Every link within the site is a plain <a data-app-link> (composables/useAppLinks.ts): a
    // NuxtLink brings its component into the entry chunk that every first visit loads
    // (docs/performance.md, "First-load JavaScript").
    'vue/no-restricted-syntax': ['error', {
      selector: 'VElement[rawName=/^(Lazy)?(NuxtLink|nuxt-link|RouterLink|router-link)$/]',
      message: 'Link with a plain <a data-app-link href="…"> (composables/useAppLinks.ts), not a NuxtLink.',
    }],
  },
})
