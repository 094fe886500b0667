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

/** What tells that the visitor is doing something on the page, not only looking at it. */
const ACTIVITY = ['pointermove', 'pointerdown', 'touchstart', 'wheel', 'scroll', 'keydown'] as const
let active = false
/** What waits for the visitor's first sign of activity. */
const onActive = new Set<() => void>()

function whenActive(then: () => void): () => void {
  if (active) {
    then()
    return () => {}
  }
  if (onActive.size === 0) ACTIVITY.forEach(event => window.addEventListener(event, becameActive, { capture: true, passive: true }))
  onActive.add(then)
  return () => onActive.delete(then)
}

function becameActive() {
  active = true
  ACTIVITY.forEach(event => window.removeEventListener(event, becameActive, { capture: true }))
  for (const then of [...onActive]) then()
  onActive.clear()
}

/**
 * Whether `image` has already failed to load: its error event may have fired
 * before any handler was there to hear it (before hydration).
 */
export const pictureFailed = (image: HTMLImageElement) => image.complete && image.naturalWidth === 0 && image.currentSrc !== ''

/**
 * A lazy hydration strategy (`defineAsyncComponent({ hydrate })`): the markup
 * the server rendered is hydrated when it is in view and the visitor has done
 * something on the page (moved a pointer, touched, scrolled, pressed a key), so a
 * grid in view as the page opens is not hydrated while the visitor only looks at
 * it; or before that as a pointer presses on it, the keyboard focuses in it or a
 * click reaches it (a screen reader's, or a script's): caught as they pass its
 * root on their way in, so the element they are for has its handlers when they
 * arrive, and nothing pressed is lost. (Vue's `hydrateOnVisible` alone would
 * drop a press made as the element scrolls in, and its `hydrateOnInteraction`
 * replays an event after it, which would toggle a checkbox back.) A picture in
 * it that fails to load hydrates it too, as the card then shows the thumbnail
 * instead. Or when hydrateWaitingNow() is called. Hydrated once, whichever
 * comes first (docs/performance.md, "Hydration").
 */
export const hydrateInViewOrReached: HydrationStrategy = (hydrate, forEach) => {
  let done = false
  let stopWaitingForActivity = () => {}
  const observer = new IntersectionObserver((entries) => {
    if (entries.some(entry => entry.isIntersecting)) stopWaitingForActivity = whenActive(hydrateOnce)
    else stopWaitingForActivity()
  })
  const reached = () => hydrateOnce()
  const events = ['pointerdown', 'focusin', 'click', 'error'] as const
  const stop = () => {
    waiting.delete(hydrateOnce)
    observer.disconnect()
    stopWaitingForActivity()
    forEach(element => events.forEach(event => element.removeEventListener(event, reached, true)))
  }
  function hydrateOnce() {
    if (done) return
    done = true
    stop()
    hydrate()
  }
  waiting.add(hydrateOnce)
  let failed = false
  forEach((element) => {
    observer.observe(element)
    events.forEach(event => element.addEventListener(event, reached, true))
    failed ||= [...element.querySelectorAll('img')].some(pictureFailed)
  })
  if (failed) hydrateOnce()
  return stop
}
