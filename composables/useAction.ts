import { readonly, ref } from 'vue'
import { errorMessage } from './useApi'
import { useToast } from './useToast'

/** How one call of an action ends, besides its result. */
export interface RunOptions<R> {
  /** What the call is about (a row's id), readable as `running` while it runs, so only that row says so. */
  key?: string
  /** The sentence `done` shows once the call succeeded (a status next to the control), from its result. */
  done?: string | ((result: R) => string | undefined)
  /** A toast (useToast) once the call succeeded, for news that outlives the component (a navigation). */
  toast?: string | ((result: R) => string | undefined)
  /** How long the toast stays, in seconds (useToast's default otherwise). */
  toastSeconds?: number
  /**
   * The sentence `error` shows for a failure: errorMessage's (the API's message, the 429
   * wait, "Could not reach the server") unless given. Return null when the failure is
   * shown elsewhere (an inline field error), so the action's error stays empty.
   */
  failure?: (error: unknown) => string | null
}

/**
 * Busy and error state of a component's actions, in one place instead of a
 * try/catch/finally per button (the pattern of VueUse's useAsyncState, for
 * actions a person starts):
 *
 * ```ts
 * const { busy, error, done, run } = useAction()
 * const save = () => run(() => api.save(form), { done: 'Saved.' })
 * ```
 *
 * - `busy` is true from the call until it (and any call waiting behind it)
 *   ends; bind it to the buttons' `disabled`, so a double click or a second
 *   Enter sends one request.
 * - One call at a time: a call made while another of the same action runs
 *   waits for it, then runs, in order (a checkbox switched twice quickly saves
 *   both, the last one last). Make one action per group of controls that must
 *   not run side by side; `key` names the row a call is about (`running`).
 * - `error` is the failure's sentence (the same wording as `errorMessage`, or
 *   `failure`'s), `done` the success's (`done`); each call clears both first.
 *   `fail(text)` shows a check that failed before any request (a form's own
 *   validation) the same way.
 * - `run` never throws: it resolves to the function's result, or undefined
 *   when it failed.
 */
export function useAction(defaults: Pick<RunOptions<unknown>, 'failure'> = {}) {
  const busy = ref(false)
  const running = ref<string | null>(null)
  const error = ref<string | null>(null)
  const done = ref<string | null>(null)

  function fail(text: string | null) {
    error.value = text
    done.value = null
  }

  /** The last call, which the next one waits for. */
  let queue: Promise<unknown> = Promise.resolve()
  let waiting = 0

  async function attempt<R>(action: () => Promise<R>, options: RunOptions<R>, focusBack: () => void): Promise<R | undefined> {
    running.value = options.key ?? null
    error.value = null
    done.value = null
    try {
      const result = await action()
      done.value = (typeof options.done === 'function' ? options.done(result) : options.done) ?? null
      const toast = typeof options.toast === 'function' ? options.toast(result) : options.toast
      if (toast) useToast().show(toast, undefined, options.toastSeconds)
      return result
    }
    catch (failure) {
      error.value = (options.failure ?? defaults.failure ?? errorMessage)(failure)
      return undefined
    }
    finally {
      running.value = null
      if (--waiting === 0) {
        busy.value = false
        focusBack()
      }
    }
  }

  function run<R>(action: () => Promise<R>, options: RunOptions<R> = {}): Promise<R | undefined> {
    // The control that started it, disabled while `busy` (and so no longer focused): keepFocus.
    const focusBack = keepFocus()
    waiting++
    busy.value = true
    const call = queue.then(() => attempt(action, options, focusBack))
    queue = call
    return call
  }

  return { busy: readonly(busy), running: readonly(running), error: readonly(error), done: readonly(done), fail, run }
}

/**
 * Notes the focused control as an action begins; the function it returns, called once the
 * action has ended, gives the keyboard back when the action left the focus nowhere. A
 * focused button disabled while its request runs loses the focus to the page, and so does
 * one the action took away (a row removed, a step done), and the next Tab would start over
 * from the top. The control gets it back while it is still on the page and enabled again;
 * else the nearest section, dialog or region it was in that still is (made focusable for
 * it), so the keyboard goes on from there. Only when nothing took the focus meanwhile: a
 * component that moves it to a result keeps that.
 */
export function keepFocus(): () => void {
  if (!import.meta.client) return () => {}
  const control = document.activeElement
  if (!(control instanceof HTMLElement) || control === document.body) return () => {}
  const regions: HTMLElement[] = []
  for (let parent = control.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
    if (parent.matches('section, [role=dialog], [role=region], main')) regions.push(parent)
  }
  // After the render that enables the control again, or takes it away.
  return () => setTimeout(() => {
    if (document.activeElement && document.activeElement !== document.body) return
    if (control.isConnected && !control.matches(':disabled')) {
      control.focus({ preventScroll: true })
      return
    }
    const region = regions.find(element => element.isConnected)
    if (!region) return
    if (!region.hasAttribute('tabindex')) region.tabIndex = -1
    region.focus({ preventScroll: true })
  })
}
