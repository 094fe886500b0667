/**
 * The head's attribute values as HTML reads them. unhead writes a meta's
 * content with only `"` escaped, so an upload described as `Fish &amp;
 * chips &lt;3` reached crawlers and link previews (og:title, the
 * description) as `Fish & chips <3`. Every `&` of an attribute is escaped
 * here, just before unhead writes the tags; it then escapes `"` itself.
 * On the server only: in the browser attributes are set through the DOM.
 */
export default defineNuxtPlugin(() => {
  injectHead().hooks.hook('ssr:render', ({ tags }) => {
    for (const tag of tags) {
      for (const [key, value] of Object.entries(tag.props)) {
        if (typeof value === 'string' && value.includes('&')) tag.props[key] = value.replaceAll('&', '&amp;')
      }
    }
  })
})
