import { h, type FunctionalComponent } from 'vue'

/**
 * A link to a page of this site for lists that hold many: a plain `<a>`
 * that changes page within the app on a plain left click, and leaves every
 * other click (a new tab, a modifier key) to the browser. Being functional,
 * it makes no component instance and no router state per link. NuxtLink's
 * (a RouterLink's computed route, its active state) was about a fifth of the
 * server render of a home page of 50 cards, each with three to eight links.
 */
const AppLink: FunctionalComponent<{ to: string }> = (props, { slots }) =>
  h('a', { href: props.to, onClick: follow }, slots.default?.())
AppLink.props = { to: { type: String, required: true } }

export default AppLink

function follow(event: MouseEvent) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  const link = event.currentTarget as HTMLAnchorElement
  if (link.target && link.target !== '_self') return
  event.preventDefault()
  void navigateTo(link.getAttribute('href')!)
}
