import { joinURL } from 'ufo'
import buildStylesheets from '#build-stylesheets'
import { stylesheetMover } from '../utils/inlined-styles'

/**
 * No stylesheet link holds a page's first paint back (docs/performance.md,
 * "First paint"). Nuxt writes the styles of the components a render used
 * (the site's stylesheet among them, app.vue) into the page's head, and
 * still links each file they came from. Each link moves after the page's
 * markup, where it blocks nothing shown: marked as carried (neither fetched
 * nor applied) when its every rule is already in the page, as it was
 * otherwise (a component the page may show later). Any other
 * file of the build the page carries whole (its page's and layout's, which
 * Nuxt does not link) gets such a link too: the app's code, loading a
 * page's code, links each stylesheet it finds no link to. When
 * the first link, the site's own stylesheet, is not all in the page, the
 * head stays as Nuxt wrote it. The files are read once each, through the
 * app itself.
 */
export default defineNitroPlugin((nitroApp) => {
  if (import.meta.dev) return
  const { app } = useRuntimeConfig()
  const stylesheets = buildStylesheets.map(file => joinURL(app.baseURL, app.buildAssetsDir, file))
  const withoutBlockingStylesheets = stylesheetMover(href => nitroApp.localFetch(href).then(response => response.ok ? response.text() : null, () => null), stylesheets)
  nitroApp.hooks.hook('render:html', async (html) => {
    const { head, later } = await withoutBlockingStylesheets(html.head)
    html.head = head
    html.bodyAppend.push(...later)
  })
})
