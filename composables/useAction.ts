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

  async function attempt<R>(action: () => Promise<R>, options: RunOptions<R>, control: Element | null): Promise<R | undefined> {
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
        returnFocus(control)
      }
    }
  }

  function run<R>(action: () => Promise<R>, options: RunOptions<R> = {}): Promise<R | undefined> {
    // The control that started it, disabled while `busy` (and so no longer focused): see returnFocus.
    const control = import.meta.client ? document.activeElement : null
    waiting++
    busy.value = true
    const call = queue.then(() => attempt(action, options, control))
    queue = call
    return call
  }

  return { busy: readonly(busy), running: readonly(running), error: readonly(error), done: readonly(done), fail, run }
}

/**
 * Gives the keyboard back to `control` (the element focused as an action began) once the
 * action has ended and left the focus nowhere: a focused button that is disabled while
 * its request runs loses the focus to the page, and the next Tab would start over from
 * the top. Only while the control is still on the page and enabled again, and only when
 * nothing took the focus meanwhile (a component that moves it to a result keeps that).
 */
export function returnFocus(control: Element | null): void {
  if (!import.meta.client || !(control instanceof HTMLElement) || control === document.body) return
  // After the render that enables it again.
  setTimeout(() => {
    const lost = !document.activeElement || document.activeElement === document.body
    if (lost && control.isConnected && !control.matches(':disabled')) control.focus({ preventScroll: true })
  })
}
