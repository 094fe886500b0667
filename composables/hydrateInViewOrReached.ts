import type { HydrationStrategy } from 'vue'

/** The hydrations still waiting. */
const waiting = new Set<() => void>()

/**
 * Hydrates everything still waiting at once: the viewer's choices read after
 * the page's hydration (blind voting, content ratings) change what it shows,
 * in view or not, and a screen reader reads what is out of view too.
 */
export function hydrateWaitingNow(): void {
  for (const hydrate of [...waiting]) hydrate()
}

/**
 * A lazy hydration strategy (`defineAsyncComponent({ hydrate })`): the markup
 * the server rendered is hydrated when it comes into view, or before that as
 * a pointer presses on it, the keyboard focuses in it or a click reaches it
 * (a screen reader's, or a script's): caught as they pass its root on their
 * way in, so the element they are for has its handlers when they arrive, and
 * nothing pressed is lost. (Vue's `hydrateOnVisible` alone would drop a press
 * made as the element scrolls in, and its `hydrateOnInteraction` replays an
 * event after it, which would toggle a checkbox back.) Or when
 * hydrateWaitingNow() is called. Hydrated once, whichever comes first.
 */
export const hydrateInViewOrReached: HydrationStrategy = (hydrate, forEach) => {
  let done = false
  const observer = new IntersectionObserver((entries) => {
    if (entries.some(entry => entry.isIntersecting)) hydrateOnce()
  })
  const reached = () => hydrateOnce()
  const events = ['pointerdown', 'focusin', 'click'] as const
  const stop = () => {
    waiting.delete(hydrateOnce)
    observer.disconnect()
    forEach(element => events.forEach(event => element.removeEventListener(event, reached, true)))
  }
  function hydrateOnce() {
    if (done) return
    done = true
    stop()
    hydrate()
  }
  waiting.add(hydrateOnce)
  forEach((element) => {
    observer.observe(element)
    events.forEach(event => element.addEventListener(event, reached, true))
  })
  return stop
}
