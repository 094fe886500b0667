/**
 * A Content-Security-Policy on every rendered page that lets run only our
 * own script files and Nuxt's inline scripts of this render, by their
 * SHA-256 (server/utils/content-security-policy.ts): no 'unsafe-inline'.
 * Only the document's head and the tags Nuxt puts around the app are
 * hashed; a script inside the app's rendered markup never runs.
 */
export default defineNitroPlugin((nitroApp) => {
  if (import.meta.dev) return
  nitroApp.hooks.hook('render:html', (html, { event }) => {
    setPageContentSecurityPolicy(event, inlineScriptHashes([...html.head, ...html.bodyPrepend, ...html.bodyAppend]))
  })
})
