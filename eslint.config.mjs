// @ts-check
import withNuxt from './.nuxt/eslint.config.mjs'

export default withNuxt({
  ignores: ['drizzle/**', 'data/**'],
}, {
  rules: {
    // AppLink is an inline link, as NuxtLink (ignored by default): a line break around its
    // text would put spaces into the link.
    'vue/singleline-html-element-content-newline': ['error', { externalIgnores: ['AppLink'] }],
  },
})
