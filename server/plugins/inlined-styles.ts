import { stylesheetMover } from '../utils/inlined-styles'

/**
 * No stylesheet link holds a page's first paint back (docs/performance.md,
 * "First paint"). Nuxt writes the styles of the components a render used
 * (the site's stylesheet among them, app.vue) into the page's head, and
 * still links each file they came from. A link whose every rule is already
 * in the page is left out; any other (components the page may show later)
 * is linked after the page's markup, where it blocks nothing shown. When
 * the first link, the site's own stylesheet, is not all in the page, the
 * head stays as Nuxt wrote it. The files are read once each, through the
 * app itself.
 */
export default defineNitroPlugin((nitroApp) => {
  if (import.meta.dev) return
  const withoutBlockingStylesheets = stylesheetMover(href => nitroApp.localFetch(href).then(response => response.ok ? response.text() : null, () => null))
  nitroApp.hooks.hook('render:html', async (html) => {
    const { head, later } = await withoutBlockingStylesheets(html.head)
    html.head = head
    html.bodyAppend.push(...later)
  })
})
